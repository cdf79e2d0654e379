#!/usr/bin/env node
// Packs every published (non-private) workspace package into one folder, as `changeset publish`
// would publish it: `pnpm pack` rewrites workspace:* / workspace:^ to real versions. The release
// dry run and the packaging test both use it. (`pnpm -r pack` would also pack private packages.)
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const HELP = `Usage: node test/release/pack.mjs <folder>

Packs the published @hosting-api/* packages (every workspace package without "private": true)
into <folder> (its old .tgz files are removed first) and prints one tarball path per line. Build first (pnpm build).`;

const root = join(import.meta.dirname, '../..');

/** @returns {{ name: string, path: string, private?: boolean }[]} */
export function publishedPackages() {
  const r = spawnSync('pnpm', ['-r', 'ls', '--depth', '-1', '--json'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`pnpm -r ls failed: ${r.stderr || r.error}`);
  return JSON.parse(r.stdout.slice(r.stdout.indexOf('['))).filter((p) => !p.private);
}

/**
 * Packs the published packages into `dir` (old tarballs there are removed first); returns the
 * tarball paths.
 * @param {string} dir
 * @returns {string[]}
 */
export function packPublished(dir) {
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (f.endsWith('.tgz')) rmSync(join(dir, f));
  for (const p of publishedPackages()) {
    const r = spawnSync('pnpm', ['pack', '--pack-destination', dir], { cwd: p.path, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`pnpm pack failed for ${p.name} (${p.path}):\n${r.stdout}${r.stderr}`);
  }
  return readdirSync(dir).filter((f) => f.endsWith('.tgz')).map((f) => join(dir, f));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = process.argv[2];
  if (arg === '-h' || arg === '--help') {
    console.log(HELP);
    process.exit(0);
  }
  if (!arg || process.argv.length > 3) {
    console.error(`pack.mjs: give exactly one output folder\n\n${HELP}`);
    process.exit(2);
  }
  try {
    for (const file of packPublished(resolve(arg))) console.log(file);
  } catch (error) {
    console.error(`pack.mjs: ${error.message}`);
    process.exit(1);
  }
}
