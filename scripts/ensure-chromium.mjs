#!/usr/bin/env node
// Finds Debian's Chromium for the browser tests (CHROMIUM_PATH, else /usr/bin/chromium), installing
// it with apt-get when it is missing and we are root (as in CI). Returns { path } or { skip: reason };
// never downloads a browser build.
import { existsSync } from 'node:fs';
import { ensureDebianPrograms } from './ensure-debian.mjs';

const DEFAULT_PATH = '/usr/bin/chromium';

export function ensureChromium() {
  const wanted = process.env.CHROMIUM_PATH || DEFAULT_PATH;
  if (existsSync(wanted)) return { path: wanted };
  if (process.env.CHROMIUM_PATH) return { skip: `CHROMIUM_PATH=${wanted} does not exist` };
  const r = ensureDebianPrograms({ [DEFAULT_PATH]: 'chromium' });
  return r.skip ? { skip: `${r.skip} (or set CHROMIUM_PATH)` } : { path: DEFAULT_PATH };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const result = ensureChromium();
  if (result.path) console.log(result.path);
  else {
    console.error(`ensure-chromium: ${result.skip}`);
    process.exitCode = 1;
  }
}
