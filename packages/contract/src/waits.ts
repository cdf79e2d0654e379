// State waits of a live run (a site deploying, a backup being made): poll with backoff within one
// budget (CONTRACT_WAIT_BUDGET ms, default 180000), reported; with CONTRACT_CONTROL_URL (the
// sandbox's control routes) the target's clock is moved on between polls instead.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function createWaits({
  budgetMs,
  advance,
}: {
  budgetMs: number;
  advance?: (() => Promise<unknown>) | undefined;
}) {
  const waits = { count: 0, ms: 0, budgetMs, timedOut: [] as string[] };
  /** A stand-in that keeps no state (a mock): its states never change, so one probe is all a wait does. */
  const target = { stateless: false };
  // The budget is wall-clock time during which at least one wait runs (waits run side by side).
  let active = 0;
  let activeSince = 0;
  const spent = () => waits.ms + (active ? Date.now() - activeSince : 0);
  /** Polls `probe` (→ true when done) with backoff until done or the run's wait budget is spent. */
  async function waitFor(what: string, probe: () => Promise<unknown>) {
    const t0 = Date.now();
    waits.count += 1;
    if (target.stateless) return probe().catch(() => false);
    if (active++ === 0) activeSince = Date.now();
    let delay = 100;
    try {
      for (;;) {
        if (await probe().catch(() => false)) return true;
        // A target with control routes (CONTRACT_CONTROL_URL): its clock is moved on instead of waited for.
        if (advance) await advance().catch(() => undefined);
        // One wait takes at most a minute of the run's budget.
        if (spent() + delay > budgetMs || Date.now() - t0 + delay > 60_000) {
          waits.timedOut.push(what);
          return false;
        }
        await sleep(delay);
        delay = Math.min(delay * 1.6, 5000);
      }
    } finally {
      if (--active === 0) waits.ms += Date.now() - activeSince;
    }
  }
  return { waits, waitFor, target };
}

export type Waits = ReturnType<typeof createWaits>;
