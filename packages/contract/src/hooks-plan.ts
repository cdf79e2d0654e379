// The examples phase's live plan (live-plan.ts) as the Dredd hooks use it: before the first
// transaction, snapshot and set up (writes allowed) and put the transactions in order; after the
// last, clean up and report the state waits.
import { createApi } from './api';
import type { Transaction } from './hooks-types';
import { cappedFetch } from './http-cap';
import { createObserver, openLedger } from './ledger';
import { createPlan } from './live-plan';
import type { ExampleResult, Operation, SpecModel } from './types';

const env = process.env;
const withSlash = (u: URL) => new URL(u.href.endsWith('/') ? u.href : `${u.href}/`);

/** A result's outcome, errors and failures from its problems (none: it passed), each a failure of `check`. */
export function resultOf(problems: string[], check: string) {
  return {
    outcome: problems.length ? ('fail' as const) : ('pass' as const),
    errors: problems.length ? problems : undefined,
    failures: problems.length ? problems.map((message) => ({ check, message })) : undefined,
  };
}

export function createHooksPlan({
  model,
  token,
  baseUrl,
  timeout,
  allowWrites: ALLOW_WRITES,
  lookup,
}: {
  model: SpecModel;
  token: () => string | undefined;
  baseUrl: URL;
  timeout: number;
  allowWrites: boolean;
  lookup: (t: Transaction) => { model: Operation } | undefined;
}) {
  // The ledger (CONTRACT_LEDGER, shared with the other phases): what every answer says the run made or deleted.
  const ledger = openLedger();
  const observer = createObserver(model.operations, ledger);
  /** Records one answer of a transaction or of the plan's own requests in the ledger. */
  const observe = (method: string, path: string, status: number, sent: string | undefined, answer: string) =>
    observer(method, path, status, sent, answer, 'examples');
  /** A request of the plan's: the run's token, JSON both ways; answers {statusCode, json, body}. */
  const planApi = createApi({ baseUrl, token, timeout, observe });
  /** With CONTRACT_CONTROL_URL, a state wait moves the target's clock on (POST /__sandbox/clock). */
  function controlAdvance() {
    if (!env.CONTRACT_CONTROL_URL) return undefined;
    const url = new URL('__sandbox/clock', withSlash(new URL(env.CONTRACT_CONTROL_URL)));
    return () =>
      cappedFetch(
        url,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
          body: JSON.stringify({ advance: '30s' }),
        },
        { deadline: timeout },
      );
  }
  const plan = createPlan({
    model,
    api: planApi,
    writes: ALLOW_WRITES,
    run: Date.now().toString(36),
    advance: controlAdvance(),
    ledger,
  });
  const results: ExampleResult[] = [];

  async function start(transactions: Transaction[]) {
    const t0 = Date.now();
    const stateBefore = (await plan.snapshot.take()).resources;
    if (ALLOW_WRITES) {
      try {
        await plan.prepare();
      } catch (error) {
        plan.notes.push(`set-up failed: ${(error as Error).message}`);
      }
    }
    plan.order(transactions, (t) => lookup(t)?.model);
    console.log(
      `Live plan: ${Object.keys(stateBefore).length} resources snapshotted${
        ALLOW_WRITES ? `; the writes go to what the run created: ${JSON.stringify(plan.fixtures)}` : ''
      } (${((Date.now() - t0) / 1000).toFixed(1)} s)${plan.notes.length ? `\n  ${plan.notes.join('\n  ')}` : ''}`,
    );
  }

  async function finish() {
    const problems = ALLOW_WRITES ? await plan.cleanup('examples') : [];
    if (ALLOW_WRITES)
      results.push({
        key: 'clean-up',
        name: 'live plan: delete what the run created (the ledger)',
        ...resultOf(problems, 'state_unchanged'),
      });
    const { count, ms, budgetMs, timedOut } = plan.waits;
    console.log(
      `State waits: ${count}, ${(ms / 1000).toFixed(1)} s of a budget of ${(budgetMs / 1000).toFixed(0)} s (CONTRACT_WAIT_BUDGET)${timedOut.length ? `; out of budget: ${timedOut.join(', ')}` : ''}.`,
    );
  }

  /** After a write's transaction: a setting it changed is put back; one that is not fails the run. */
  async function after(o: Operation, real: { statusCode: number; body: string }) {
    const problem = await plan.after(o, real);
    if (problem)
      results.push({
        key: `${o.operationId} put back`,
        name: `live plan: put back what ${o.operationId} changed`,
        operationId: o.operationId,
        ...resultOf([problem], 'state_unchanged'),
      });
  }

  return { plan, start, finish, after, observe, results };
}
