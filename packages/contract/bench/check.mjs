#!/usr/bin/env node
// Benchmark: `hosting-api-contract check --sandbox` with every phase at its defaults; prints the
// wall time of the whole run and of each phase (the target is ≤ 60 s on the 2-core machine).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const json = join(mkdtempSync(join(tmpdir(), 'contract-bench-')), 'check.json');
const t0 = Date.now();
const run = spawnSync(
  process.execPath,
  [join(import.meta.dirname, '../bin/hosting-api-contract.js'), 'check', '--sandbox', '--json', json],
  { encoding: 'utf8' },
);
const wall = (Date.now() - t0) / 1000;
if (run.status !== 0) {
  process.stderr.write(`${run.stdout.slice(-2000)}${run.stderr}\ncheck --sandbox exited with ${run.status}\n`);
  process.exit(1);
}
const { phases } = JSON.parse(readFileSync(json, 'utf8'));
console.log('phase        cases   seconds');
for (const [name, p] of Object.entries(phases))
  console.log(
    `${name.padEnd(12)} ${String(p.passed + p.failed + p.skipped).padStart(5)}   ${p.seconds.toFixed(1).padStart(7)}`,
  );
console.log(
  `${'check'.padEnd(12)} ${''.padStart(5)}   ${wall.toFixed(1).padStart(7)}   (whole command, target ≤ 60 s)`,
);
