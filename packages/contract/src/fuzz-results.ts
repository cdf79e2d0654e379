// The fuzz phase's results: one case per operation and check (passed, failed, flaky, skipped with
// the reason), and `property()`, which runs a check's generated inputs with fast-check.
import fc from 'fast-check';
import { judge, type Observation } from './flaky';
import type { Failure, Operation, PhaseResult, Req } from './types';

/** What one generated input of a property did: its failures ([] passes), and for the record what was sent and seen. */
export interface Attempt {
  failures: Failure[];
  what: string;
  request: Req;
  expected: string | number;
  actual: number;
  /** The start of the answer's body, for a flaky case's observations. */
  answer?: string;
}

export function createResults({
  seed,
  numRuns,
  token,
  CHECKS,
  requestOf,
}: {
  seed: number;
  numRuns: number;
  token: () => string | undefined;
  CHECKS: Set<string>;
  /** The operation's plain request: what a failure without a recorded input names. */
  requestOf: (op: Operation) => Req;
}) {
  const results: PhaseResult[] = [];
  // The run's own token is shown as $TOKEN (the reproducers get it first); any other token a probe
  // sent (a garbage one, none) is shown as it was, so that the reproducer replays the probe.
  const masked = (req: Req) => ({
    ...req,
    headers: {
      ...req.headers,
      ...(req.headers?.Authorization === `Bearer ${token()}` ? { Authorization: 'Bearer $TOKEN' } : {}),
    },
  });
  function record(
    check: string,
    op: Operation,
    name: string,
    outcome: PhaseResult['outcome'],
    more: Partial<PhaseResult> = {},
  ) {
    results.push({
      phase: 'fuzz',
      check,
      operationId: op.operationId,
      key: `${check} ${op.operationId}`,
      name,
      outcome,
      ...more,
      request: more.request && masked(more.request),
    });
  }
  const skip = (check: string, op: Operation, reason: string | undefined) =>
    CHECKS.has(check) && record(check, op, `${check} ${op.operationId}`, 'skip', { reason });

  /**
   * Runs a property with fast-check: `attempt(input)` returns the failures of one input ([] passes).
   * A failing input is shrunk, then sent again a few times (flaky.ts): a failure every time is a
   * failure with its message; one that passes when sent again is `flaky`, with every observation.
   */
  async function property<T>(
    check: string,
    op: Operation,
    arbitrary: fc.Arbitrary<T>,
    attempt: (input: T) => Promise<Attempt>,
  ) {
    // Each operation and check has a seed of its own, so --only replays the same inputs as the full run.
    const index = [...`${check} ${op.operationId}`].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) | 0, 0);
    const t0 = Date.now();
    let failing: Attempt | undefined; // the last input that failed: after shrinking, the counterexample's
    // A request without an answer ends the property: no shrinking against a target that is silent.
    let unanswered: unknown;
    const out = await fc.check(
      fc.asyncProperty(arbitrary, async (input) => {
        if (unanswered) throw unanswered;
        let last: Attempt;
        try {
          last = await attempt(input);
        } catch (error) {
          unanswered = error;
          throw error;
        }
        if (last.failures.length) failing = last;
        return last.failures.length === 0;
      }),
      { seed: (seed + index) | 0, numRuns, endOnFailure: false },
    );
    if (unanswered) throw unanswered;
    const more = { ms: Date.now() - t0, runs: out.numRuns };
    if (!out.failed) return record(check, op, `${check} ${op.operationId}`, 'pass', more);
    const observe = (a: Attempt): Observation => ({
      request: masked(a.request),
      status: a.actual,
      answer: a.answer,
      failures: a.failures,
    });
    const counterexample = out.counterexample?.[0] as T;
    const first =
      failing ??
      ({
        failures: [{ check, message: String(out.errorInstance ?? 'the property failed without a recorded input') }],
        what: 'unknown',
        request: requestOf(op),
        expected: '',
        actual: 0,
      } as Attempt);
    let replayed: Attempt = first;
    const verdict = await judge(observe(first), async () => {
      replayed = await attempt(counterexample);
      return observe(replayed);
    });
    record(check, op, `${check} ${op.operationId}`, verdict.outcome, {
      ...more,
      failures: verdict.failures,
      errors: verdict.failures.map((f) => `${f.check}: ${f.message}`),
      observations: verdict.observations,
      input: first.what,
      expected: first.expected,
      actual: first.actual,
      request: (verdict.outcome === 'fail' ? replayed : first).request,
      shrinks: out.numShrinks,
    });
  }

  return { results, record, skip, property };
}

export type Results = ReturnType<typeof createResults>;
