/**
 * timestamps_move: a timestamp stated to move on every change (`x-relation: {movesOnChange,
 * notBefore}`, a note's `updated`) never precedes the one it follows (`created`) in any read, and
 * moves forward when a write changes the object: an `updated` effect on something the run made.
 */

import type { Case, CheckContext, Json, Operation, StatementCheck } from '../types';
import { relationsOf, subjectsOf } from './relations';
import { exampleOf, fail, jsonBodyOf, otherValue, pass, provide, skip, valueAt } from './support';

const time = (v: Json) => (typeof v === 'string' ? Date.parse(v) : Number.NaN);

/** Reads: the timestamp is never before the one it follows. */
async function notBefore(ctx: CheckContext, op: Operation) {
  const cases: Case[] = [];
  for (const { statement, each } of relationsOf(ctx, op, 'timestamp')) {
    if (!statement.notBefore) continue;
    const req = ctx.request(op, {});
    const res = await ctx.send(req);
    const subjects = res.status === 200 ? subjectsOf(res.json, each) : [];
    const early = subjects.find((s) => time(valueAt(s, statement.field)) < time(valueAt(s, statement.notBefore)));
    if (early)
      cases.push(
        fail(statement, `${op.operationId} answers ${statement.field} before ${statement.notBefore}`, {
          request: req,
          expected: `not before ${valueAt(early, statement.notBefore)}`,
          actual: valueAt(early, statement.field),
        }),
      );
    else if (subjects.length) cases.push(pass(statement));
  }
  return cases;
}

/** Writes with an `updated` effect: the read's timestamp moves forward. */
async function moves(ctx: CheckContext, op: Operation) {
  const cases: Case[] = [];
  for (const effect of (op.effects ?? []).filter((e) => e.kind === 'updated' && e.read)) {
    const read = ctx.model.operations.find((o) => o.operationId === effect.read);
    if (!read) continue;
    for (const { statement } of relationsOf(ctx, read, 'timestamp').filter(
      (r) => !r.each && r.statement.movesOnChange,
    )) {
      if (!ctx.allowWrites || !ctx.wait) {
        cases.push(skip(statement, 'changes the target; give --allow-writes to run it'));
        continue;
      }
      const made = await provide(ctx, op);
      if (!made.path) {
        cases.push(skip(statement, made.reason));
        continue;
      }
      try {
        const readNow = async () => (await ctx.send(ctx.request(read, { path: made.path }))).json?.data;
        const before = await readNow();
        // One poll later: a clock that a second poll moves on (the gate's sandbox) shows the change.
        let polls = 0;
        await ctx.wait('a clock tick before a change', async () => polls++ > 0);
        const example = exampleOf(jsonBodyOf(op)) ?? {};
        const schema = jsonBodyOf(op)?.schema?.properties ?? {};
        const body: Json = { ...example };
        for (const f of Object.keys(effect.fields ?? {}))
          body[f] = otherValue(schema[f], valueAt(before, effect.fields[f]), 'moved');
        const req = ctx.request(op, { path: made.path, body });
        const res = await ctx.send(req);
        if (!/^2/.test(String(res.status))) {
          cases.push(skip(statement, `${op.operationId} answered ${res.status}: nothing changed`));
          continue;
        }
        const after = await readNow();
        const [was, now] = [valueAt(before, statement.field), valueAt(after, statement.field)];
        if (!(time(now) > time(was)))
          cases.push(
            fail(
              statement,
              `${op.operationId} changed ${Object.keys(body).join(', ')}, but ${read.operationId} reads ${statement.field} ${JSON.stringify(now)} (before: ${JSON.stringify(was)})`,
              {
                request: req,
                expected: `after ${was}`,
                actual: now,
              },
            ),
          );
        else cases.push(pass(statement));
      } finally {
        await made.cleanup();
      }
    }
  }
  return cases;
}

export default {
  name: 'timestamps_move',
  kinds: ['timestamp'],
  doc: 'A timestamp stated to move on every change (x-relation movesOnChange, notBefore) never precedes the one it follows, and moves forward when a write changes the object.',
  async run(ctx: CheckContext, op: Operation) {
    return op.method === 'get' ? notBefore(ctx, op) : moves(ctx, op);
  },
} satisfies StatementCheck;
