#!/usr/bin/env node
// Installs every published @hosting-api/* package from its tarball into a folder, all in one
// install: a tarball alone does not install before the first release, since its @hosting-api/*
// dependencies are its siblings, which no registry has yet. `pnpm install:packed <folder>` (after a
// build) is the documented form; the packaging tests' globalSetup (packed-install.ts) installs its
// scratch project with installPacked too, so the tests run what users run.
//
// Every tarball is a dependency of the folder's package.json and overrides every @hosting-api/*
// dependency among them, so none comes from the registry. pnpm installs the third-party packages
// from the store the workspace install filled (only their metadata is asked of the registry).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { packPublished, publishedPackages } from './pack.mjs';

const HELP = `Usage: pnpm install:packed <folder>

Builds and packs the published @hosting-api/* packages into <folder>/hosting-api-packages and installs
them all into <folder> with pnpm (its package.json is created, or its dependencies extended). Then,
in <folder>: npx hosting-api-sandbox, npx @hosting-api/cli …, import '@hosting-api/client'. A relative
<folder> is taken from where you ran pnpm. The folder must be outside this repository.`;

const root = join(import.meta.dirname, '../..');

/**
 * Packs the published packages into `<folder>/hosting-api-packages` (or `tarballDir`) and installs
 * them all into `folder`. Returns the tarballs (package name → `file:` spec), the versions and
 * pnpm's result.
 * @param {string} folder
 * @param {{ tarballDir?: string, installArgs?: string[], timeout?: number }} [options]
 */
export function installPacked(
  folder,
  { tarballDir = join(folder, 'hosting-api-packages'), installArgs = [], timeout } = {},
) {
  if (!relative(root, folder).startsWith('..'))
    throw new Error(`${folder} is inside the repository: give a folder outside it`);
  const published = publishedPackages();
  const versions = Object.fromEntries(
    published.map((p) => [p.name, JSON.parse(readFileSync(join(p.path, 'package.json'), 'utf8')).version]),
  );
  const started = Date.now();
  const files = packPublished(tarballDir, published);
  const pack = Date.now() - started;
  const tarballs = Object.fromEntries(
    published.map((p) => {
      const file = files.find((f) => f.endsWith(`${p.name.slice(1).replace('/', '-')}-${versions[p.name]}.tgz`));
      if (!file) throw new Error(`pnpm pack wrote no tarball for ${p.name}`);
      return [p.name, `file:${file}`];
    }),
  );
  mkdirSync(folder, { recursive: true });
  const manifestPath = join(folder, 'package.json');
  const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const manifest = existsSync(manifestPath)
    ? JSON.parse(readFileSync(manifestPath, 'utf8'))
    : {
        name:
          basename(folder)
            .toLowerCase()
            .replace(/[^a-z0-9-]/g, '-') || 'project',
        private: true,
        version: '0.0.0',
        packageManager,
      };
  manifest.dependencies = { ...manifest.dependencies, ...tarballs };
  manifest.pnpm = { ...manifest.pnpm, overrides: { ...manifest.pnpm?.overrides, ...tarballs } };
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  const args = [
    'install',
    '--prefer-offline',
    '--ignore-scripts',
    '--config.strict-peer-dependencies=true',
    ...installArgs,
  ];
  const t = Date.now();
  // The pnpm that runs `pnpm install:packed` (the repository's pinned one), else the one on PATH:
  // corepack would look for a pin in the folder's package.json, which a user's may not have.
  const pnpm = /pnpm\.c?js$/.test(process.env.npm_execpath ?? '')
    ? [process.execPath, process.env.npm_execpath]
    : ['pnpm'];
  const r = spawnSync(pnpm[0], [...pnpm.slice(1), ...args], {
    cwd: folder,
    encoding: 'utf8',
    timeout,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}`;
  return { tarballs, versions, status: r.status, out, timings: { pack, install: Date.now() - t } };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = process.argv[2];
  if (arg === '-h' || arg === '--help') {
    console.log(HELP);
    process.exit(0);
  }
  if (!arg || process.argv.length > 3) {
    console.error(`install:packed: give exactly one folder to install into\n\n${HELP}`);
    process.exit(2);
  }
  // pnpm runs a root script in the repository's root; INIT_CWD is where the user typed it.
  const folder = resolve(process.env.INIT_CWD ?? process.cwd(), arg);
  try {
    const r = installPacked(folder);
    if (r.status !== 0) throw new Error(`pnpm install in ${folder} failed:\n${r.out}`);
    console.log(`installed ${Object.keys(r.tarballs).join(', ')} into ${folder}`);
    console.log(`bins: ${join(folder, 'node_modules/.bin')} (npx finds them when run in ${folder})`);
  } catch (error) {
    console.error(`install:packed: ${error.message}`);
    process.exit(1);
  }
}
