// Flaky is a verdict: a generated input that failed is replayed a few times. When every replay
// fails too, the failure is real and keeps its message; when one passes, the case is `flaky` and
// carries each observation (the request, the answer, what differed), never an empty message.
// `--fail-on-flaky` decides whether flaky fails the run (main.ts).
import type { Case, Failure, Req } from './types';

/** How often a failing input is sent again before the verdict. */
export const REPLAYS = 3;

/** One sending of an input: what was sent, what came back, and what differed ([] passed). */
export interface Observation {
  request: Req;
  status: number;
  /** The start of the answer's body. */
  answer?: string | undefined;
  failures: Failure[];
}

export interface Verdict {
  outcome: 'fail' | 'flaky';
  /** The failures to report: those of a failing observation. */
  failures: Failure[];
  observations: Observation[];
}

/** `first`: the failing observation of the run; `replay()` sends the same input again. */
export async function judge(first: Observation, replay: () => Promise<Observation>): Promise<Verdict> {
  const observations = [first];
  for (let i = 0; i < REPLAYS; i++) observations.push(await replay());
  const failing = observations.filter((o) => o.failures.length);
  const flaky = failing.length < observations.length;
  return {
    outcome: flaky ? 'flaky' : 'fail',
    failures: flaky
      ? failing[0]!.failures.map((f) => ({
          ...f,
          message: `flaky: failed ${failing.length} of ${observations.length} times; ${f.message}`,
        }))
      : failing.at(-1)!.failures,
    observations,
  };
}

/** An observation in one line: `GET /x → 200: what differed` (or `passed`). */
export const describeObservation = (o: Observation, i: number) =>
  `#${i + 1} ${o.request.method} ${new URL(o.request.url).pathname} → ${o.status}: ${
    o.failures.length ? o.failures.map((f) => f.message).join('; ') : 'passed'
  }`;

/**
 * The same verdict for a statement check's failed case (checks/): `again()` runs the check once more
 * (`status` on a case: the status of the answer it failed on).
 * A case that passes on a replay becomes `flaky` with every observation; one that fails every time
 * stays a failure, with its last message.
 */
export async function judgeCase(check: string, first: Case, again: () => Promise<Case>): Promise<Case> {
  if (first.outcome !== 'fail' || !first.request) return first;
  let last = first;
  const observe = (c: Case): Observation => ({
    request: (c.request ?? first.request) as Req,
    status: Number(c.status ?? 0),
    // A replay that skips (the list no longer has a value to test) did not pass.
    failures: c.outcome === 'pass' ? [] : [{ check, message: c.message ?? `skipped: ${c.reason}` }],
  });
  const verdict = await judge(observe(first), async () => {
    const c = await again();
    if (c.outcome === 'fail') last = c;
    return observe(c);
  });
  if (verdict.outcome === 'fail') return last;
  return { ...first, outcome: 'flaky', message: verdict.failures[0]!.message, observations: verdict.observations };
}
