#!/usr/bin/env node
// Benchmark: N consecutive `hosting-api-contract check --allow-writes` runs against one sandbox
// reached only as a live URL, its clock running (--speed 60), no control URL, no target data: the
// verdict a platform team gets run after run on a correct server. Prints each run's exit code,
// failures and flaky cases, then the totals (target: 0 failed, 0 flaky).
// `node bench/repeat.mjs [N] [--max-examples M]` (default N 20, M 3 as the gate's live test).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startSandbox } from '@hosting-api/sandbox';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'max-examples': { type: 'string', default: '3' } },
});
const runs = Number(positionals[0] ?? 20);
const sandbox = await startSandbox({ port: 0, speed: 60 });
const dir = mkdtempSync(join(tmpdir(), 'contract-bench-repeat-'));
const totals = { failed: 0, flaky: 0, red: 0 };
const seen = new Map(); // failed or flaky case name → count
for (let i = 1; i <= runs; i++) {
  const json = join(dir, `check-${i}.json`);
  const t0 = Date.now();
  const code = await new Promise((done) => {
    const child = spawn(
      process.execPath,
      [
        join(import.meta.dirname, '../bin/hosting-api-contract.js'),
        'check',
        '--base-url',
        sandbox.url,
        '--auth-url',
        sandbox.authUrl,
        '--client-id',
        sandbox.clients[0].clientId,
        '--allow-writes',
        '--max-examples',
        values['max-examples'],
        '--json',
        json,
      ],
      { env: { ...process.env, CONTRACT_CLIENT_SECRET: sandbox.clients[0].clientSecret }, stdio: 'ignore' },
    );
    child.on('exit', done);
  });
  let report = { failed: NaN, flaky: NaN, checks: [] };
  try {
    report = JSON.parse(readFileSync(json, 'utf8'));
  } catch {}
  const odd = report.checks.filter((c) => c.outcome === 'failed' || c.outcome === 'flaky');
  for (const c of odd)
    seen.set(`${c.outcome} ${c.phase} ${c.name}`, (seen.get(`${c.outcome} ${c.phase} ${c.name}`) ?? 0) + 1);
  totals.failed += report.failed;
  totals.flaky += report.flaky ?? 0;
  if (code !== 0) totals.red++;
  console.log(
    `run ${i}: exit ${code}, ${report.failed} failed, ${report.flaky ?? 0} flaky, ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
}
await sandbox.stop();
console.log(`\n${runs} runs: ${totals.red} red, ${totals.failed} failures, ${totals.flaky} flaky`);
for (const [name, n] of seen) console.log(`  ${n}× ${name}`);
