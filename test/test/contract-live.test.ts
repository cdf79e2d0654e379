// The gate against the sandbox with its built-in seed, reached as a live URL with its control routes
// (CONTRACT_CONTROL_URL) and a frozen clock, no target data, writes allowed, every phase, from the
// packed tarball. The run moves the target's clock itself (state waits, the workflows' clock steps,
// the expired-token probe); fields that follow the clock (an on-demand backup's `removedIn`) are told
// apart before the run by moving the clock between two reads, so the state diff does not blame the
// target for the run's own doing. 0 failures, at least 90% of the documented responses and of the
// behaviour statements exercised, and every pre-existing resource reads the same after the run.
// The account is shared, as a staging account is: a second client adds DNS records to a zone that
// existed before the run and deletes some of them while the gate runs: a second zone, which the
// gate's writes do not use (they go to the first), and records, which add nothing to the account's
// activity log (the fuzz phase compares reads of the lists it writes to, and pages through the log). The gate must delete nothing of that
// client's and report its activity as concurrent; the account's priced add-on, its account-level
// access and a site's restore list must read as before.
// Another seed, its clock running (--speed 60), no control URL: contract-live-variant.test.ts.
import { startSandbox } from '@hosting-api/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type CheckRun, expectCoverage, failuresOf, liveCheck } from './live-check';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let run: CheckRun;
/** What the second client made and did not delete, and what it deleted. */
const other = { zone: 5502, kept: [] as number[], deleted: [] as number[] };
let before: { attached: unknown; restores: unknown; access: unknown };

const api = async (method: string, path: string, body?: unknown) => {
  const send = async () =>
    fetch(`${sandbox.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${await sandbox.token()}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  // The run moves the clock on by an hour (the expired-token probe): a token the second client got
  // just before that has expired when it is used, and a client gets a new one, as the client library does.
  let res = await send();
  if (res.status === 401) res = await send();
  // A refused call of the test's own (the second client's included) says what the sandbox answered.
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { data: any; page?: { nextPage?: number | null } };
};
const readState = async () => ({
  attached: (await api('GET', '/account/addons/attached')).data,
  restores: (await api('GET', '/sites/123456/restores')).data,
  access: structuredClone(sandbox.runtime.state.accountLevelAccess),
});

/** Every 300 ms (its own pace, not a wait of the test's): a record in the zone, and every third time one of its records deleted. */
function secondClient() {
  let n = 0;
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      n += 1;
      const name = `client-${n}.other.example`;
      const zone = await api('POST', `/zones/${other.zone}/records`, {
        type: 'A',
        name,
        value: '192.0.2.77',
        ttl: 300,
      });
      other.kept.push(zone.data.records.find((r: { name: string }) => r.name === name).id);
      if (n % 3 === 0) {
        const id = other.kept.shift() as number;
        await api('DELETE', `/zones/${other.zone}/records/${id}`);
        other.deleted.push(id);
      }
      await new Promise((tick) => setTimeout(tick, 300));
    }
  })();
  return async () => {
    stopped = true;
    await done;
  };
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, speed: 0, selfCheck: true });
  // The second zone of the account, with a record, before the run (the seed has one zone).
  const { state } = sandbox.runtime;
  const first = state.zones[0]!;
  state.zones.push({ ...first, id: other.zone, name: 'other.example' });
  state.dnsRecords.push({
    ...state.dnsRecords[0]!,
    id: 880901,
    zoneId: other.zone,
    name: 'other.example',
    siteId: null,
  });
  // Account-level access that existed before the run (the seed has none).
  await api('PUT', '/collaborators/update-account-level-access', { email: 'grace@example.com', create_site: true });
  before = await readState();
  const stop = secondClient();
  run = await liveCheck(sandbox, 'check', { CONTRACT_CONTROL_URL: sandbox.authUrl });
  await stop();
}, 400_000);
afterAll(() => sandbox?.stop());

it('passes with no failure in any phase', () => {
  expect(failuresOf(run), run.output.slice(-4000)).toBe('');
  expect(run.code).toBe(0);
});

it('exercises at least 90% of the documented responses and of the behaviour statements', () => {
  expectCoverage(run);
});

it('leaves every pre-existing resource as it was (state diff) and deletes what it created', async () => {
  const state = run.cases.find((c) => c.phase === 'state');
  expect(state?.outcome).toBe('passed');
  expect(Number(/^(\d+) resources/.exec(state?.expected ?? '')?.[1])).toBeGreaterThan(100);
  expect(run.summary.stateDiff?.changed).toEqual([]);
  expect(run.summary.stateDiff?.requests).toBeLessThanOrEqual(run.summary.stateDiff?.budget ?? 0);
  expect(run.summary.stateDiff?.volatile?.some((f) => f.endsWith(' removedIn'))).toBe(true);
  const names = (await api('GET', '/sites')).data.map((s: { name: string }) => s.name);
  expect(names.filter((n: string) => /^(contract|arazzo)-/.test(n))).toEqual([]);
  // The ledger names what it created, each deleted, and the settings it changed, each put back.
  expect(run.summary.ledger?.created.length).toBeGreaterThan(10);
  expect(run.summary.ledger?.notRestored).toEqual([]);
  expect(run.summary.ledger?.restored.some((l) => l.startsWith('/account/addons/attached'))).toBe(true);
  expect(run.cases.filter((c) => c.name.startsWith('clean-up: ')).every((c) => c.outcome === 'passed')).toBe(true);
});

it('deletes nothing of a second client on the account, and reports its activity as concurrent', async () => {
  const listed = (await api('GET', `/zones/${other.zone}/records`)).data.records.map((r: { id: number }) => r.id);
  expect(other.kept.length).toBeGreaterThan(5);
  expect(other.kept.filter((id) => !listed.includes(id))).toEqual([]);
  const concurrent = run.summary.stateDiff?.concurrent ?? [];
  expect(
    concurrent.some(
      (l) =>
        l.startsWith(`/zones/${other.zone}/records `) && /appeared during the run; the run did not create it/.test(l),
    ),
  ).toBe(true);
});

it('leaves the priced add-on, the account-level access and the restore list as they were', async () => {
  expect(await readState()).toEqual(before);
});

it('sends writes only to what it created, and says where', () => {
  expect(run.output).toMatch(/Live plan: \d+ resources snapshotted; the writes go to what the run created/);
  expect(run.output).toMatch(/State waits: \d+, [\d.]+ s of a budget of \d+ s/);
});
