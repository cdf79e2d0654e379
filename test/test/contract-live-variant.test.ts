// The gate against a correct server it knows nothing about: the sandbox started from another seed
// (other ids, names and counts than the spec's examples), reached as a live URL with its control
// routes (CONTRACT_CONTROL_URL) and a frozen clock, no target data, writes allowed, from the packed
// tarball. The run moves the target's clock itself (state waits, the workflows' clock steps, the
// expired-token probe): 0 failures, and the state diff green, because fields that follow the clock
// (an on-demand backup's `removedIn`) are told apart before the run by moving the clock between two
// reads, and every resource that existed before reads the same after it.
// The built-in seed with its clock running and a second client beside the run: contract-live.test.ts.
import { startSandbox } from '@hosting-api/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type CheckRun, expectCoverage, failuresOf, liveCheck } from './live-check';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let run: CheckRun;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, speed: 0, seedVariant: 3, selfCheck: true });
  run = await liveCheck(sandbox, 'check', { CONTRACT_CONTROL_URL: sandbox.authUrl });
}, 400_000);
afterAll(() => sandbox?.stop());

it('passes with no failure in any phase', () => {
  expect(failuresOf(run), run.output.slice(-4000)).toBe('');
  expect(run.code).toBe(0);
  for (const phase of ['examples', 'workflows', 'fuzz', 'state'])
    expect(run.summary.phases[phase]?.passed).toBeGreaterThan(0);
});

it('exercises at least 90% of the documented responses and of the behaviour statements', () => {
  expectCoverage(run);
});

it('leaves every pre-existing resource as it was (state diff), telling the clock it moved from changes', () => {
  const state = run.cases.find((c) => c.phase === 'state');
  expect(state?.outcome).toBe('passed');
  expect(run.summary.stateDiff?.changed).toEqual([]);
  // Every site, note, zone record, backup, alert, … of the seed: every safe GET, every list's items.
  expect(run.summary.stateDiff?.compared).toBeGreaterThan(100);
  expect(run.summary.stateDiff?.requests).toBeLessThanOrEqual(run.summary.stateDiff?.budget ?? 0);
  expect(run.summary.stateDiff?.volatile?.some((f) => f.endsWith(' removedIn'))).toBe(true);
});

it('deletes what it created', async () => {
  const res = await fetch(`${sandbox.url}/sites`, {
    headers: { Authorization: `Bearer ${await sandbox.token()}` },
  });
  const names = ((await res.json()) as { data: { name: string }[] }).data.map((s) => s.name);
  expect(names.filter((n) => /^(contract|arazzo)-/.test(n))).toEqual([]);
});
