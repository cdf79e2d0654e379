#!/usr/bin/env node
// Finds programs from Debian's packages that tests need (Chromium for the browser tests, zsh and
// fish for the CLI's completion scripts), installing the missing ones with apt-get when we are root
// (as in CI). Never downloads anything but Debian's packages.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

function apt(args) {
  const r = spawnSync('apt-get', ['-o', 'DPkg::Lock::Timeout=240', ...args], {
    encoding: 'utf8',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    timeout: 240_000,
  });
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}

/**
 * Ensures each program (its path) is there, installing its package when it is not.
 * @param {Record<string, string>} programs path of the program → Debian package that ships it
 * @returns {{ ok: true } | { skip: string }} `skip` says what is missing and how to get it
 */
export function ensureDebianPrograms(programs) {
  const missing = Object.entries(programs).filter(([path]) => !existsSync(path));
  if (!missing.length) return { ok: true };
  const packages = [...new Set(missing.map(([, pkg]) => pkg))];
  const paths = missing.map(([path]) => path).join(', ');
  if (process.platform !== 'linux' || spawnSync('apt-get', ['--version']).status !== 0)
    return { skip: `${paths} not found and apt-get is not available: install ${packages.join(' ')}` };
  if (typeof process.getuid === 'function' && process.getuid() !== 0)
    return { skip: `${paths} not found and not root: run \`sudo apt-get install -y ${packages.join(' ')}\`` };
  // Several suites may ask at once: apt waits for the lock (DPkg::Lock::Timeout) instead of failing on it.
  const install = ['install', '-y', '--no-install-recommends', ...packages];
  let r = apt(install);
  // A fresh machine has no package lists yet; fetch them only when the first try needs them.
  if (!r.ok) r = apt(['update']).ok ? apt(install) : r;
  if (r.ok && missing.every(([path]) => existsSync(path))) return { ok: true };
  const tail = r.output.trim().split('\n').slice(-3).join(' / ');
  return { skip: `could not install ${packages.join(' ')} with apt-get (${tail})` };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const pairs = process.argv.slice(2).map((arg) => arg.split('='));
  if (!pairs.length || pairs.some((p) => p.length !== 2 || !p[0] || !p[1])) {
    console.error('Usage: node scripts/ensure-debian.mjs PATH=PACKAGE... (e.g. /usr/bin/zsh=zsh)');
    process.exit(2);
  }
  const result = ensureDebianPrograms(Object.fromEntries(pairs));
  if (result.skip) {
    console.error(`ensure-debian: ${result.skip}`);
    process.exitCode = 1;
  }
}
