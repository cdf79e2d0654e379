// The fuzz phase's results: one case per operation and check (passed, failed, skipped with the
// reason), and `property()`, which runs a check's generated inputs with fast-check.
import fc from 'fast-check';
import type { Failure, Operation, PhaseResult, Req } from './types';

/** What one generated input of a property did: its failures ([] passes), and for the record what was sent and seen. */
export interface Attempt {
  failures: Failure[];
  what: string;
  request: Req;
  expected: string | number;
  actual: number;
}

export function createResults({
  seed,
  numRuns,
  token,
  CHECKS,
}: {
  seed: number;
  numRuns: number;
  token: () => string | undefined;
  CHECKS: Set<string>;
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
   * A failing input is shrunk, then replayed once for the record (its request and answer).
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
    let last: Attempt | undefined;
    // A request without an answer ends the property: no shrinking against a target that is silent.
    let unanswered: unknown;
    const out = await fc.check(
      fc.asyncProperty(arbitrary, async (input) => {
        if (unanswered) throw unanswered;
        try {
          last = await attempt(input);
        } catch (error) {
          unanswered = error;
          throw error;
        }
        return last.failures.length === 0;
      }),
      { seed: (seed + index) | 0, numRuns, endOnFailure: false },
    );
    if (unanswered) throw unanswered;
    if (out.failed && out.counterexample) last = await attempt(out.counterexample[0]);
    const more = { ms: Date.now() - t0, runs: out.numRuns };
    if (!out.failed) return record(check, op, `${check} ${op.operationId}`, 'pass', more);
    const failures = last?.failures?.length
      ? last.failures
      : [{ check, message: String(out.errorInstance ?? (out as { error?: unknown }).error ?? 'failed') }];
    record(check, op, `${check} ${op.operationId}`, 'fail', {
      ...more,
      failures,
      errors: failures.map((f) => `${f.check}: ${f.message}`),
      input: last?.what,
      expected: last?.expected,
      actual: last?.actual,
      request: last?.request,
      shrinks: out.numShrinks,
    });
  }

  return { results, record, skip, property };
}

export type Results = ReturnType<typeof createResults>;
