// Reports in every ending: a run that stops before its verdict (the spec cannot be read, the token
// or the base URL is wrong, a phase cannot go on) says why in one line on stderr and still writes
// the --junit and --json reports, with one failed case that says why, so that a CI job has them.
import { writeJson, writeJunit } from './report';
import type { ReportCase } from './types';

/** Why a run stops early, and its exit code (2 configuration, 3 target unreachable or credentials refused). */
export class Stop extends Error {
  constructor(
    readonly code: 2 | 3,
    message: string,
  ) {
    super(message);
  }
}

export interface Ending {
  junit?: string | undefined;
  json?: string | undefined;
  target: string;
  /** Where it stopped: `preflight`, or the phase that could not go on. */
  at: string;
  /** The cases of the phases that ran before. */
  cases?: ReportCase[];
}

export function stopEarly(stop: Stop, { junit, json, target, at, cases = [] }: Ending): never {
  const why: ReportCase = {
    phase: at,
    name: `${at}: the run stopped`,
    check: at,
    outcome: 'fail',
    failures: [{ check: at, message: stop.message }],
  };
  const all = [...cases, why];
  const phases = [...new Set(all.map((c) => c.phase))];
  const count = (o: string) => all.filter((c) => c.outcome === o).length;
  if (junit) writeJunit(junit, phases, all);
  if (json)
    writeJson(
      json,
      { target, stopped: { at, code: stop.code, message: stop.message }, passed: count('pass'), failed: count('fail') },
      all,
    );
  process.stderr.write(`hosting-api-contract: ${stop.message}\n`);
  process.exit(stop.code);
}
