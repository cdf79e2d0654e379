#!/usr/bin/env node
// Benchmark: N consecutive `hosting-api-contract check --allow-writes` runs against one sandbox
// reached only as a live URL, its clock running (--speed 60), no control URL, no target data: the
// verdict a platform team gets run after run on a correct server. Prints each run's exit code,
// failures and flaky cases (their names at once), then the totals and the seconds a run
// (target: 0 failed, 0 flaky).
// `node bench/repeat.mjs [N] [--max-examples M]` (default N 20, M 3 as the gate's live test).
import { parseArgs } from 'node:util';
import { startSandbox } from '@hosting-api/sandbox';
import { checkRun } from './check-run.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'max-examples': { type: 'string', default: '3' } },
});
const runs = Number(positionals[0] ?? 20);
const sandbox = await startSandbox({ port: 0, speed: 60 });
const totals = { failed: 0, flaky: 0, red: 0 };
const seen = new Map(); // failed or flaky case name → count
const seconds = [];
for (let i = 1; i <= runs; i++) {
  // At --speed 60 the sandbox lands queued work within 0.2 s (10 s of its clock): a quiet read of 0.3 s is enough.
  const run = await checkRun(sandbox, ['--max-examples', values['max-examples']], { CONTRACT_QUIET_MS: '300' });
  const { code } = run;
  const report = run.report ?? { failed: NaN, flaky: NaN, checks: [] };
  const odd = report.checks.filter((c) => c.outcome === 'failed' || c.outcome === 'flaky');
  for (const c of odd)
    seen.set(`${c.outcome} ${c.phase} ${c.name}`, (seen.get(`${c.outcome} ${c.phase} ${c.name}`) ?? 0) + 1);
  totals.failed += report.failed;
  totals.flaky += report.flaky ?? 0;
  if (code !== 0) totals.red++;
  seconds.push(run.seconds);
  console.log(
    `run ${i}: exit ${code}, ${report.failed} failed, ${report.flaky ?? 0} flaky, ${run.seconds.toFixed(1)} s`,
  );
  // What went wrong, at once: a red run is read while the others still go.
  for (const c of odd)
    console.log(
      `  ${c.outcome} ${c.phase} ${c.name}: ${(c.failures ?? [])
        .map((f) => f.message)
        .join('; ')
        .slice(0, 300)}`,
    );
}
await sandbox.stop();
const mean = seconds.reduce((a, b) => a + b, 0) / runs;
console.log(
  `\n${runs} runs: ${totals.red} red, ${totals.failed} failures, ${totals.flaky} flaky; ${mean.toFixed(1)} s a run (${Math.min(...seconds).toFixed(1)}-${Math.max(...seconds).toFixed(1)})`,
);
for (const [name, n] of seen) console.log(`  ${n}× ${name}`);
