#!/usr/bin/env node
// Times a consumer's `tsc --noEmit` on bench/typecheck/consumer.ts (20 method calls) against the
// built declarations (dist/index.d.ts, skipLibCheck off). Usage: node bench/typecheck.mjs [--runs N]
// (after `pnpm build`). Prints the median of tsc's own "Total time" and the declaration size.
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
if (args.includes('--help')) {
  console.log('Usage: node bench/typecheck.mjs [--runs N]   (default 5 runs; build first)');
  process.exit(0);
}
const runs = Number(args[args.indexOf('--runs') + 1]) || 5;
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const project = fileURLToPath(new URL('./typecheck/tsconfig.json', import.meta.url));
const dts = fileURLToPath(new URL('../dist/index.d.ts', import.meta.url));

const times = [];
let stats = '';
for (let i = 0; i < runs; i++) {
  let out;
  try {
    out = execFileSync(process.execPath, [tsc, '--noEmit', '--extendedDiagnostics', '-p', project], { encoding: 'utf8' });
  } catch (error) {
    console.error(`typecheck bench: the consumer does not compile:\n${error.stdout ?? error}`);
    process.exit(1);
  }
  times.push(Number(out.match(/Total time:\s+([\d.]+)s/)[1]));
  stats = ['Check time', 'Memory used', 'Lines of Definitions'].map((k) => out.match(new RegExp(`${k}:\\s+(\\S+)`))?.[0]).join(', ');
}
const median = [...times].sort((a, b) => a - b)[Math.floor(runs / 2)];
console.log(`consumer tsc --noEmit (20 calls): median ${median.toFixed(2)} s of ${runs} runs [${times.join(', ')}]`);
console.log(`last run: ${stats}; dist/index.d.ts ${(statSync(dts).size / 1024).toFixed(0)} KB`);
