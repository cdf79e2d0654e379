#!/usr/bin/env node
// Builds the portal into dist/: the spec with generated code samples (dist/openapi.json), the
// samples as one TypeScript file (dist/samples.ts), llms.txt and one Markdown page per operation
// (dist/operations/) for AI assistants, a self-contained Redoc page (dist/index.html, Redoc
// inlined so it works offline), the guides (dist/guides/) and changelog (dist/changelog.html)
// from guides/ and the changesets, an HTML page per operation with Try it (dist/operations/), and
// one search over guides and operations: every page under one header.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPortal } from '../../../generators/portal/portal.mjs';
import { finishReference, referenceSpec } from '../../../generators/portal/reference.mjs';

const pkgDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(pkgDir, '../..');
const dist = join(pkgDir, 'dist');
const specPath = join(root, 'spec/dist/openapi.json');

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(`Usage: pnpm run docs   (or: node packages/docs/scripts/build.mjs)

Reads spec/dist/openapi.json and writes packages/docs/dist/{openapi.json,samples.ts,llms.txt,operations/*.md,index.html}.`);
  process.exit(0);
}
if (!existsSync(specPath)) {
  console.error(
    'docs: spec/dist/openapi.json not found. Bundle the spec first: pnpm --filter @hosting-api/openapi bundle',
  );
  process.exit(1);
}

const started = Date.now();
mkdirSync(dist, { recursive: true });
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: pkgDir, stdio: 'inherit', env: { ...process.env, REDOCLY_TELEMETRY: 'off' } });
  if (r.status !== 0) {
    console.error(`docs: ${[cmd, ...args].join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
};

run(process.execPath, [
  join(root, 'generators/docs/code-samples.mjs'),
  '--spec',
  specPath,
  '--out',
  join(dist, 'openapi.json'),
  '--samples',
  join(dist, 'samples.ts'),
]);

// For AI assistants: llms.txt at the root and one Markdown page per operation (dist/operations/).
run(process.execPath, [join(root, 'generators/llms/llms.mjs'), '--spec', specPath, '--out', dist]);

// The reference: Redoc renders a copy whose operations link to their Try it pages
// (generators/portal/reference.mjs); its page then joins the site (header, search, no CDN).
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
writeFileSync(join(dist, 'reference.json'), JSON.stringify(referenceSpec(readJson(join(dist, 'openapi.json')))));
const require = createRequire(join(pkgDir, 'package.json'));
const redocly = require.resolve('@redocly/cli/bin/cli.js');
run(process.execPath, [
  redocly,
  'build-docs',
  'dist/reference.json',
  '--inlineBundle',
  '--config',
  'redocly.yaml',
  '--title',
  'Hosting Platform Management API v1',
  '-o',
  'dist/index.html',
]);
writeFileSync(join(dist, 'index.html'), finishReference(readFileSync(join(dist, 'index.html'), 'utf8')));

// The breaking-change gate's verdict on the spec against its last release (a git tag; --no-npm
// keeps the build offline), for the changelog. Exit 1 (an uncovered breaking change) is reported
// there, not a build failure: CI's spec:diff task is the gate.
const gate = spawnSync(process.execPath, [join(root, 'test/release/spec-diff.mjs'), '--no-npm'], {
  cwd: root,
  encoding: 'utf8',
  env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
});
writeFileSync(join(dist, 'spec-diff.txt'), `${gate.stdout}${gate.stderr}`);

// The guides, the changelog, and the header every page shares (the reference's included).
run(process.execPath, [
  join(root, 'generators/guides/guides.mjs'),
  '--guides',
  join(pkgDir, 'guides'),
  '--out',
  dist,
  '--root',
  root,
  '--gate',
  join(dist, 'spec-diff.txt'),
]);

// One HTML page per operation with Try it, the search index, and the pages' scripts (assets/).
const portal = await buildPortal({ spec: specPath, out: dist, guidesDir: join(pkgDir, 'guides') });
console.log(`portal: ${portal.operations} operation pages, ${portal.entries} search entries`);
cpSync(join(pkgDir, 'assets'), join(dist, 'assets'), { recursive: true });
// The search's engine, MiniSearch's browser build (search.js loads it on first use).
cpSync(join(dirname(require.resolve('minisearch')), '../umd/index.js'), join(dist, 'assets/minisearch.js'));
rmSync(join(dist, 'reference.json'));

const kib = (statSync(join(dist, 'index.html')).size / 1024).toFixed(0);
console.log(
  `docs: ${relative(root, join(dist, 'index.html'))} (${kib} KiB) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
