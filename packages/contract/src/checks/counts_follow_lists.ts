/**
 * counts_follow_lists: a count is the length of the list it counts (`x-relation: {countOf}`), in
 * every answer of a read that carries both (a site's `collaboratorsCount` and its `collaborators`),
 * on what the read finds and (live) on the run's own resource, whose list the run changed.
 */

import type { Case, CheckContext, Operation, StatementCheck } from '../types';
import { relationsOf, subjectsOf } from './relations';
import { fail, ownContext, pass, skip, valueAt } from './support';

export default {
  name: 'counts_follow_lists',
  kinds: ['count'],
  doc: 'A count is the length of the list it counts (x-relation countOf): collaboratorsCount and collaborators in a site detail.',
  async run(ctx: CheckContext, op: Operation) {
    if (op.method !== 'get') return [];
    const relations = relationsOf(ctx, op, 'count');
    if (!relations.length) return [];
    const own = ownContext(ctx, op);
    const cases: Case[] = [];
    for (const { statement, each } of relations) {
      let seen = 0;
      let broken: Case | undefined;
      for (const c of [ctx, own].filter((x): x is CheckContext => Boolean(x))) {
        const req = c.request(op, {});
        const res = await c.send(req);
        if (res.status !== 200) continue;
        for (const subject of subjectsOf(res.json, each)) {
          const count = valueAt(subject, statement.field);
          const list = valueAt(subject, statement.countOf);
          if (count === undefined || !Array.isArray(list)) continue;
          seen++;
          if (count !== list.length)
            broken ??= fail(
              statement,
              `${op.operationId} answers ${statement.field} ${count}, but ${statement.countOf} holds ${list.length}`,
              { request: req, expected: list.length, actual: count },
            );
        }
      }
      cases.push(
        broken ?? (seen ? pass(statement) : skip(statement, `no answer of ${op.operationId} carried both fields`)),
      );
    }
    return cases;
  },
} satisfies StatementCheck;
