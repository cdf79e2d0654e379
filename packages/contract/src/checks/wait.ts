// State waits of the statement checks: poll until done, with backoff, within one budget for the
// whole phase (CONTRACT_WAIT_BUDGET ms, default 180000; one wait at most a minute). A target with a
// movable clock (the gate's own sandbox) is moved on between polls instead of waited for.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A wait function and what it spent: { count, ms, budgetMs, timedOut } for the report. */
export function createWait({
  advance,
  budgetMs = Number(process.env.CONTRACT_WAIT_BUDGET) || 180_000,
}: {
  advance?: ((ms: number) => unknown) | undefined;
  budgetMs?: number;
} = {}) {
  const spent = { count: 0, ms: 0, budgetMs, timedOut: [] as string[] };
  /** Polls `probe` until it returns true; false when the budget ran out (named in `timedOut`). */
  async function wait(what: string, probe: () => Promise<boolean>) {
    spent.count++;
    const t0 = Date.now();
    let delay = 100;
    try {
      // A movable clock is moved on 5 s a poll, an hour of the target's time at most.
      for (let poll = 0; ; poll++) {
        if (await probe()) return true;
        const over = advance
          ? poll >= 720
          : spent.ms + Date.now() - t0 + delay > budgetMs || Date.now() - t0 + delay > 60_000;
        if (over) {
          spent.timedOut.push(what);
          return false;
        }
        if (advance) await advance(5000);
        else await sleep(delay);
        delay = Math.min(delay * 1.6, 5000);
      }
    } finally {
      spent.ms += Date.now() - t0;
    }
  }
  return { wait, spent };
}
