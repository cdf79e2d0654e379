// The gate against the sandbox with its built-in seed, reached only as a live URL as a platform
// team would reach its own server: clock running (--speed 60), no control URL, no target data,
// writes allowed, every phase. 0 failures, at least 90% of the documented responses and of the
// behaviour statements exercised, and every pre-existing resource reads the same after the run.
// The account is shared, as a staging account is: a second client adds notes to a pre-existing
// site and deletes some of them while the gate runs. The gate must delete nothing of that
// client's and report its activity as concurrent; the account's priced add-on, its account-level
// access and a site's restore list must read as before.
// The same against another seed: contract-live-variant.test.ts.
import { startSandbox } from '@hosting-api/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type CheckRun, expectCoverage, failuresOf, liveCheck } from './live-check';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let run: CheckRun;
/** What the second client made and did not delete, and what it deleted. */
const other = { site: 123461, kept: [] as number[], deleted: [] as number[] };
let before: { attached: unknown; restores: unknown; access: unknown };

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${await sandbox.token()}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as { data: any; page?: { nextPage?: number | null } };
};
const readState = async () => ({
  attached: (await api('GET', '/account/addons/attached')).data,
  restores: (await api('GET', '/sites/123456/restores')).data,
  access: structuredClone(sandbox.runtime.state.accountLevelAccess),
});

/** Every 300 ms (its own pace, not a wait of the test's): a note on the site, and every third time one of its notes deleted. */
function secondClient() {
  let n = 0;
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      n += 1;
      const note = await api('POST', `/sites/${other.site}/notes`, { subject: `other client ${n}`, body: 'not the gate' });
      other.kept.push(note.data.id);
      if (n % 3 === 0) {
        const id = other.kept.shift() as number;
        await api('DELETE', `/sites/${other.site}/notes/${id}`);
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
  sandbox = await startSandbox({ port: 0, speed: 60, selfCheck: true });
  // Account-level access that existed before the run (the seed has none).
  await api('PUT', '/collaborators/update-account-level-access', { email: 'grace@example.com', create_site: true });
  before = await readState();
  const stop = secondClient();
  run = await liveCheck(sandbox);
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
  expect(Number(/^(\d+) resources/.exec(state?.expected ?? '')?.[1])).toBeGreaterThan(80);
  const names = (await api('GET', '/sites')).data.map((s: { name: string }) => s.name);
  expect(names.filter((n: string) => /^(contract|arazzo)-/.test(n))).toEqual([]);
  // The ledger names what it created, each deleted, and the settings it changed, each put back.
  expect(run.summary.ledger?.created.length).toBeGreaterThan(10);
  expect(run.summary.ledger?.notRestored).toEqual([]);
  expect(run.summary.ledger?.restored.some((l) => l.startsWith('/account/addons/attached'))).toBe(true);
  expect(run.cases.filter((c) => c.name.startsWith('clean-up: ')).every((c) => c.outcome === 'passed')).toBe(true);
});

it('deletes nothing of a second client on the account, and reports its activity as concurrent', async () => {
  const listed: number[] = [];
  for (let page = 1; page; ) {
    const answer = await api('GET', `/sites/${other.site}/notes?per_page=100&page=${page}`);
    listed.push(...answer.data.map((n: { id: number }) => n.id));
    page = answer.page?.nextPage ?? 0;
  }
  expect(other.kept.length).toBeGreaterThan(5);
  expect(other.kept.filter((id) => !listed.includes(id))).toEqual([]);
  const concurrent = run.summary.stateDiff?.concurrent ?? [];
  expect(concurrent.some((l) => l.startsWith(`/sites/${other.site}/notes `) && /created during the run, not by the run/.test(l))).toBe(true);
});

it('leaves the priced add-on, the account-level access and the restore list as they were', async () => {
  expect(await readState()).toEqual(before);
});

it('sends writes only to what it created, and says where', () => {
  expect(run.output).toMatch(/Live plan: \d+ resources snapshotted; the writes go to what the run created/);
  expect(run.output).toMatch(/State waits: \d+, [\d.]+ s of a budget of \d+ s/);
});
