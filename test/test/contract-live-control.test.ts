// The gate against the sandbox with its control routes (CONTRACT_CONTROL_URL) and a frozen clock,
// from the packed tarball: the run moves the target's clock itself (state waits, the workflows'
// clock steps, the expired-token probe). 0 failures, and the state diff green: fields that follow
// the clock (an on-demand backup's `removedIn`) are the run's own doing, told apart before the run
// by moving the clock between two reads, not changes of the target.
import { startSandbox } from '@hosting-api/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type CheckRun, failuresOf, liveCheck } from './live-check';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let run: CheckRun;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, speed: 0, selfCheck: true });
  run = await liveCheck(sandbox, 'check', { CONTRACT_CONTROL_URL: sandbox.authUrl });
}, 400_000);
afterAll(() => sandbox?.stop());

it('passes with no failure in any phase, the state diff included', () => {
  expect(failuresOf(run), run.output.slice(-4000)).toBe('');
  expect(run.code).toBe(0);
  const state = run.cases.find((c) => c.phase === 'state');
  expect(state?.outcome).toBe('passed');
  expect(run.summary.stateDiff?.changed).toEqual([]);
});

it('reads the whole state before and after, and tells the clock it moved from changes', () => {
  expect(run.summary.stateDiff?.compared).toBeGreaterThan(100);
  expect(run.summary.stateDiff?.requests).toBeLessThanOrEqual(run.summary.stateDiff?.budget ?? 0);
  expect((run.summary.stateDiff as { volatile?: string[] })?.volatile?.some((f) => f.endsWith(' removedIn'))).toBe(true);
  // Every pre-existing item of every list was read: the site's notes and the zone's records among them.
  expect(run.output).toMatch(/State diff: \d+ resources that existed before the run \(every GET the spec states no effect for/);
});
