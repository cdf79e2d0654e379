/**
 * derived_values: a value the documentation derives from another field of the same object is
 * that derivation, in every answer of a read that carries both (`x-relation: {lastSegmentOf}`: a
 * must-use plugin's `slug` is the last path segment of its `path` URL).
 */

import type { Case, CheckContext, Json, Operation, StatementCheck } from '../types';
import { relationsOf, subjectsOf } from './relations';
import { fail, pass, skip, valueAt } from './support';

/** The last path segment of a URL, decoded; undefined for what is not a URL. */
function lastSegment(url: Json) {
  try {
    return decodeURIComponent(new URL(String(url)).pathname.split('/').pop() ?? '');
  } catch {
    return undefined;
  }
}

export default {
  name: 'derived_values',
  kinds: ['segment'],
  doc: "A value derived from another field of the same object is that derivation (x-relation lastSegmentOf: a must-use plugin's slug is the last segment of its path).",
  async run(ctx: CheckContext, op: Operation) {
    if (op.method !== 'get') return [];
    const cases: Case[] = [];
    for (const { statement, each } of relationsOf(ctx, op, 'segment')) {
      const req = ctx.request(op, {});
      const res = await ctx.send(req);
      const subjects = res.status === 200 ? subjectsOf(res.json, each) : [];
      const wrong = subjects.find(
        (s) => valueAt(s, statement.field) !== lastSegment(valueAt(s, statement.lastSegmentOf)),
      );
      if (wrong)
        cases.push(
          fail(
            statement,
            `${op.operationId} answers ${statement.field} ${JSON.stringify(valueAt(wrong, statement.field))} for ${statement.lastSegmentOf} ${JSON.stringify(valueAt(wrong, statement.lastSegmentOf))}: not its last segment`,
            {
              request: req,
              expected: JSON.stringify(lastSegment(valueAt(wrong, statement.lastSegmentOf))),
              actual: JSON.stringify(valueAt(wrong, statement.field)),
            },
          ),
        );
      else cases.push(subjects.length ? pass(statement) : skip(statement, `${op.operationId} answered no item`));
    }
    return cases;
  },
} satisfies StatementCheck;
