// The registry of the checks derived from the spec's behaviour statements (CONVENTIONS.md,
// "Behaviour statements"): one file per check, each { name, kinds (the statement kinds it reads),
// doc, run(ctx, op) → cases }. checks.ts lists them with the other checks; the fuzz phase runs
// them on every operation that has their statements.

import type { Statement } from '../types';
import counts_follow_lists from './counts_follow_lists';
import create_listed from './create_listed';
import delete_gone from './delete_gone';
import derived_values from './derived_values';
import documented_rules from './documented_rules';
import list_filters from './list_filters';
import list_order from './list_order';
import list_search from './list_search';
import paging_consistency from './paging_consistency';
import state_transitions from './state_transitions';
import timestamps_move from './timestamps_move';
import token_credentials from './token_credentials';
import value_units from './value_units';
import write_read_back from './write_read_back';

const STATEMENT_CHECKS = [
  list_filters,
  list_search,
  list_order,
  paging_consistency,
  write_read_back,
  create_listed,
  delete_gone,
  value_units,
  token_credentials,
  state_transitions,
  counts_follow_lists,
  timestamps_move,
  derived_values,
  documented_rules,
];

/**
 * Statements no check can exercise by their nature: silent ones, queued effects, and the effects of
 * a read that a gate must not provoke to observe (an SSH disconnect, a time-limited URL issued).
 */
const UNEXERCISABLE_KINDS = ['queued', 'terminated', 'issued'];
const unexercisable = (s: Statement) => s.silent || UNEXERCISABLE_KINDS.includes(s.kind);

/**
 * Coverage of behaviour statements by the cases of a run: a statement is exercised when a check
 * passed or failed on it (a skip does not count).
 */
function statementCoverage(statements: Statement[], cases: { outcome: string; statementPointer?: string }[]) {
  const checkable = statements.filter((s) => !unexercisable(s));
  const exercised = new Set(
    cases.filter((c) => c.outcome !== 'skip' && c.statementPointer).map((c) => c.statementPointer),
  );
  const byKind: Record<string, { statements: number; exercised: number }> = {};
  for (const s of checkable) {
    const kind = byKind[s.kind] ?? { statements: 0, exercised: 0 };
    byKind[s.kind] = kind;
    kind.statements++;
    if (exercised.has(s.pointer)) kind.exercised++;
  }
  const total = checkable.length;
  const done = checkable.filter((s) => exercised.has(s.pointer)).length;
  return { statements: total, exercised: done, percent: total ? Math.round((1000 * done) / total) / 10 : 100, byKind };
}

export { STATEMENT_CHECKS, statementCoverage, unexercisable };
