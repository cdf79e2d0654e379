#!/usr/bin/env node
// Times a consumer's `tsc --noEmit` on bench/typecheck/consumer.ts (20 method calls) against the
// built declarations (dist/index.d.ts, skipLibCheck off, strict). Usage:
//   node bench/typecheck.mjs [--runs N] [--dts path/to/index.d.ts] [--skip-lib-check]   (after `pnpm build`)
// Prints the median of tsc's own "Total time" and the declaration size. `--dts` compares another
// build (e.g. an older one unpacked elsewhere) under the same machine load; `--skip-lib-check` times
// the common setting that leaves the declarations (and TypeScript's own lib files) unchecked.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchOptions } from './options.mjs';

const opts = benchOptions(
  'Usage: node bench/typecheck.mjs [--runs N] [--dts <index.d.ts>] [--skip-lib-check]   (default 5 runs against dist/index.d.ts; build first)',
  { runs: { type: 'string' }, dts: { type: 'string' }, 'skip-lib-check': { type: 'boolean' } },
  { runs: 5 },
);
const { runs } = opts;
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const dts = opts.dts ? resolve(opts.dts) : fileURLToPath(new URL('../dist/index.d.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'client-typecheck-bench-'));
const project = join(dir, 'tsconfig.json');
const compilerOptions = {
  target: 'ES2022',
  lib: ['ES2022', 'DOM'],
  module: 'ESNext',
  moduleResolution: 'Bundler',
  strict: true,
  noEmit: true,
  skipLibCheck: opts['skip-lib-check'] ?? false,
  types: [],
  paths: { '@hosting-api/client': [dts] },
};
writeFileSync(
  project,
  JSON.stringify({ compilerOptions, files: [fileURLToPath(new URL('./typecheck/consumer.ts', import.meta.url))] }),
);
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

const times = [];
let stats = '';
for (let i = 0; i < runs; i++) {
  let out;
  try {
    out = execFileSync(process.execPath, [tsc, '--noEmit', '--extendedDiagnostics', '-p', project], {
      encoding: 'utf8',
    });
  } catch (error) {
    console.error(`typecheck bench: the consumer does not compile:\n${error.stdout ?? error}`);
    process.exit(1);
  }
  times.push(Number(out.match(/Total time:\s+([\d.]+)s/)[1]));
  stats = ['Types', 'Instantiations', 'Check time', 'Memory used', 'Lines of Definitions']
    .map((k) => out.match(new RegExp(`${k}:\\s+(\\S+)`))?.[0])
    .join(', ');
}
const median = [...times].sort((a, b) => a - b)[Math.floor(runs / 2)];
console.log(`consumer tsc --noEmit (20 calls): median ${median.toFixed(2)} s of ${runs} runs [${times.join(', ')}]`);
// The declarations are one file per module: their size is every .d.ts beside and below the entry.
const declarations = readdirSync(dirname(dts), { recursive: true, encoding: 'utf8' }).filter((f) =>
  f.endsWith('.d.ts'),
);
const size = declarations.reduce((sum, f) => sum + statSync(join(dirname(dts), f)).size, 0);
console.log(`last run: ${stats}; ${declarations.length} declaration files, ${(size / 1024).toFixed(0)} KB`);
