#!/usr/bin/env node
// Finds Debian's Chromium for the browser tests, installing it with apt-get when it is missing and
// we are root (as in CI). Returns { path } or { skip: reason }; never downloads a browser build.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const DEFAULT_PATH = '/usr/bin/chromium';

function apt(args) {
  const r = spawnSync('apt-get', args, {
    encoding: 'utf8',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    timeout: 240_000,
  });
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}

export function ensureChromium() {
  const wanted = process.env.CHROMIUM_PATH || DEFAULT_PATH;
  if (existsSync(wanted)) return { path: wanted };
  if (process.env.CHROMIUM_PATH) return { skip: `CHROMIUM_PATH=${wanted} does not exist` };
  if (process.platform !== 'linux' || spawnSync('apt-get', ['--version']).status !== 0) {
    return { skip: `${DEFAULT_PATH} not found and apt-get is not available: install Chromium and set CHROMIUM_PATH` };
  }
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    return {
      skip: `${DEFAULT_PATH} not found and not root: run \`sudo apt-get install -y chromium\` (or set CHROMIUM_PATH)`,
    };
  }
  // Two browser suites may ask at once: the second waits for apt's lock instead of failing on it.
  const install = ['-o', 'DPkg::Lock::Timeout=240', 'install', '-y', '--no-install-recommends', 'chromium'];
  let r = apt(install);
  // A fresh machine has no package lists yet; fetch them only when the first try needs them.
  if (!r.ok) r = apt(['-o', 'DPkg::Lock::Timeout=240', 'update']).ok ? apt(install) : r;
  if (r.ok && existsSync(DEFAULT_PATH)) return { path: DEFAULT_PATH };
  const tail = r.output.trim().split('\n').slice(-3).join(' / ');
  return { skip: `could not install Chromium with apt-get (${tail})` };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const result = ensureChromium();
  if (result.path) console.log(result.path);
  else {
    console.error(`ensure-chromium: ${result.skip}`);
    process.exitCode = 1;
  }
}
