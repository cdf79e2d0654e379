/**
 * write_read_back: a write's stated effect (`x-effects`) is what a read shows afterwards.
 * - `updated`: the read gives back each field sent (`fields`: request field → read field).
 * - `set`: the read shows the fields sent or the stated `values`, and still does after the same
 *   write again (a set, not a toggle).
 * - `toggle`: each call flips the value (answer and read), and a second call restores it.
 * Live runs work on a resource the run made (following the create's `links`) or set back what
 * they changed (the original values, or the stated `undo`); otherwise they skip.
 */

import type { CheckContext, Json, Operation, Req, Res, Statement, StatementCheck } from '../types';
import { echoedFields } from './echo';
import { exampleOf, fail, jsonBodyOf, otherValue, ownPath, pass, provide, skip, valueAt } from './support';

const readOp = (ctx: CheckContext, id: string) => ctx.model.operations.find((o) => o.operationId === id);
const ok = (res: Res) => /^2/.test(String(res.status));

export async function readField(
  ctx: CheckContext,
  read: Operation,
  path: Record<string, unknown> | undefined,
  field: string,
) {
  const res = await ctx.send(ctx.request(read, { path }));
  return { res, value: res.status === 200 ? valueAt(res.json?.data, field) : undefined };
}

/**
 * The resource to write to: one the run makes, else (live) one the run made or caused (`own`: not
 * set back), else (sandbox, or with a way back) the spec's examples. `wanted(item)`: an item found
 * in a list that the write would still change.
 */
export async function targetOf(
  ctx: CheckContext,
  op: Operation,
  { restorable, wanted }: { restorable: boolean; wanted?: (item: Json) => boolean },
): Promise<{
  path?: Record<string, unknown> | undefined;
  created?: Operation;
  own?: boolean;
  cleanup?: () => Promise<void>;
  reason?: string;
}> {
  if (!ctx.allowWrites) return { reason: 'changes the target; give --allow-writes to run it' };
  const made = await provide(ctx, op);
  if (made.path) return made;
  const own = ctx.live ? await ownPath(ctx, op, wanted) : { reason: 'not live' };
  if (own.path) return { path: own.path, own: true, cleanup: async () => undefined };
  if (!ctx.live || restorable) return { path: ctx.writePath, cleanup: async () => undefined };
  return { reason: `${made.reason}; ${own.reason}; and the change cannot be set back` };
}

async function fieldsEffect(ctx: CheckContext, op: Operation, effect: Statement) {
  const read = readOp(ctx, effect.read);
  if (!read) return skip(effect, `no operation ${effect.read} to read the effect with`);
  const example = exampleOf(jsonBodyOf(op)) ?? {};
  const schema = jsonBodyOf(op)?.schema?.properties ?? {};
  // The fields the example sends (one case of a body that takes either), or all of them.
  const names = Object.keys(effect.fields ?? {}).filter((f) => f in example);
  const chosen = names.length ? names : Object.keys(effect.fields ?? {});
  const restorable = op.method === 'put';
  const target = await targetOf(ctx, op, { restorable });
  if (target.reason) return skip(effect, target.reason);
  const path = target.path;
  try {
    const before: Record<string, Json> = {};
    for (const f of chosen) before[f] = (await readField(ctx, read, path, effect.fields[f])).value;
    const body: Json = { ...example, ...(effect.when ?? {}) };
    for (const f of chosen) body[f] = otherValue(schema[f], before[f], 'gate', example[f]);
    const req = ctx.request(op, { path, body });
    const res = await ctx.send(req);
    if (!ok(res))
      return skip(effect, `${op.operationId} answered ${res.status} to ${JSON.stringify(body)}: no effect to read`);
    const times = effect.kind === 'set' ? 2 : 1;
    for (let time = 1; time <= times; time++) {
      if (time === 2) await ctx.send(req);
      for (const f of chosen) {
        const { res: r, value } = await readField(ctx, read, path, effect.fields[f]);
        if (value !== body[f])
          return fail(
            effect,
            `${op.operationId} sent ${f} ${JSON.stringify(body[f])}${time === 2 ? ' twice' : ''}, but ${read.operationId} reads ${effect.fields[f]} ${JSON.stringify(value)}${r.status === 200 ? '' : ` (answered ${r.status})`}`,
            {
              request: req,
              expected: JSON.stringify(body[f]),
              actual: JSON.stringify(value),
            },
          );
      }
    }
    // Every other field sent that the read shows (echo.ts): it reads back as sent.
    const shown = await ctx.send(ctx.request(read, { path }));
    const data = shown.status === 200 ? shown.json?.data : undefined;
    for (const [f, to] of Object.entries(echoedFields(effect, body, data)))
      if (!chosen.includes(f) && valueAt(data, to) !== body[f])
        return fail(
          effect,
          `${op.operationId} sent ${f} ${JSON.stringify(body[f])}, but ${read.operationId} reads ${to} ${JSON.stringify(valueAt(data, to))}`,
          { request: req, expected: JSON.stringify(body[f]), actual: JSON.stringify(valueAt(data, to)) },
        );
    // A field whose request schema takes null (a default removed): sent alone as null, it reads back null.
    for (const f of Object.keys(effect.fields ?? {}).filter((name) => [schema[name]?.type].flat().includes('null'))) {
      const nullReq = ctx.request(op, { path, body: { ...(effect.when ?? {}), [f]: null } });
      const nullRes = await ctx.send(nullReq);
      if (!ok(nullRes)) continue;
      const { value } = await readField(ctx, read, path, effect.fields[f]);
      if (value !== null)
        return fail(
          effect,
          `${op.operationId} sent ${f} null, but ${read.operationId} reads ${effect.fields[f]} ${JSON.stringify(value)}`,
          { request: nullReq, expected: 'null', actual: JSON.stringify(value) },
        );
    }
    // Set back what the run did not make.
    if (!target.created && !target.own && ctx.live) {
      const back = { ...body };
      for (const f of chosen) back[f] = before[f];
      await ctx.send(ctx.request(op, { path, body: back }));
    }
    return pass(effect);
  } finally {
    await target.cleanup?.();
  }
}

async function valuesEffect(ctx: CheckContext, op: Operation, effect: Statement) {
  const read = readOp(ctx, effect.read);
  if (!read) return skip(effect, `no operation ${effect.read} to read the effect with`);
  const undo = effect.undo && readOp(ctx, effect.undo);
  const fields = Object.entries(effect.values ?? {});
  const target = await targetOf(ctx, op, {
    restorable: Boolean(undo),
    wanted: (item) => fields.some(([f, value]) => valueAt(item, f) !== value),
  });
  if (target.reason) return skip(effect, target.reason);
  const path = target.path;
  const before: Record<string, Json> = {};
  try {
    for (const [f] of fields) before[f] = (await readField(ctx, read, path, f)).value;
    const req = ctx.request(op, { path, body: exampleOf(jsonBodyOf(op)) });
    const res = await ctx.send(req);
    if (!ok(res)) return skip(effect, `${op.operationId} answered ${res.status}: no effect to read`);
    for (let time = 1; time <= 2; time++) {
      if (time === 2) await ctx.send(req);
      for (const [f, value] of fields) {
        const { value: got } = await readField(ctx, read, path, f);
        if (got !== value)
          return fail(
            effect,
            `after ${op.operationId}${time === 2 ? ' twice (a set, not a toggle)' : ''}, ${read.operationId} reads ${f} ${JSON.stringify(got)}, expected ${JSON.stringify(value)}`,
            { request: req, expected: JSON.stringify(value), actual: JSON.stringify(got) },
          );
      }
    }
    return pass(effect);
  } finally {
    // Set back what the run did not make: the write itself or its undo gives the value it had.
    if (!target.created && !target.own && ctx.live)
      for (const [f, value] of fields) {
        const now = (await readField(ctx, read, path, f)).value;
        if (now === before[f] || before[f] === undefined) continue;
        const back = before[f] === value ? op : undo;
        if (back) await ctx.send(ctx.request(back, { path, body: exampleOf(jsonBodyOf(back)) }));
      }
    await target.cleanup?.();
  }
}

async function toggleEffect(ctx: CheckContext, op: Operation, effect: Statement) {
  // Two calls set it back: a toggle can run on what the run did not make.
  const target = await targetOf(ctx, op, { restorable: true });
  if (target.reason) return skip(effect, target.reason);
  const path = target.path;
  const read = effect.read && readOp(ctx, effect.read);
  try {
    const body = effect.body ?? exampleOf(jsonBodyOf(op));
    const readNow = async () => (read ? (await readField(ctx, read, path, effect.field)).value : undefined);
    const before = await readNow();
    const answers = [];
    let req: Req | undefined;
    for (let call = 1; call <= 2; call++) {
      req = ctx.request(op, { path, body });
      const res = await ctx.send(req);
      if (!ok(res))
        return call === 1
          ? skip(effect, `${op.operationId} answered ${res.status}: nothing toggled`)
          : fail(effect, `the second ${op.operationId} answered ${res.status}`, {
              request: req,
              expected: '2xx',
              actual: res.status,
            });
      const answered = valueAt(res.json?.data, effect.response);
      const previous = call === 1 ? before : answers[0];
      if (previous !== undefined && answered === previous)
        return fail(
          effect,
          `${op.operationId} (call ${call}) answered ${effect.response} ${JSON.stringify(answered)}, unchanged: a toggle flips it`,
          {
            request: req,
            expected: `not ${JSON.stringify(previous)}`,
            actual: JSON.stringify(answered),
          },
        );
      const now = await readNow();
      if (read && now !== answered)
        return fail(
          effect,
          `${op.operationId} answered ${effect.response} ${JSON.stringify(answered)}, but ${read.operationId} reads ${effect.field} ${JSON.stringify(now)}`,
          {
            request: req,
            expected: JSON.stringify(answered),
            actual: JSON.stringify(now),
          },
        );
      answers.push(answered);
    }
    if (before !== undefined && answers[1] !== before)
      return fail(
        effect,
        `two calls of ${op.operationId} should give back ${effect.field} ${JSON.stringify(before)}, but it is ${JSON.stringify(answers[1])}`,
        {
          request: req,
          expected: JSON.stringify(before),
          actual: JSON.stringify(answers[1]),
        },
      );
    return pass(effect);
  } finally {
    await target.cleanup?.();
  }
}

export default {
  name: 'write_read_back',
  kinds: ['updated', 'set', 'toggle'],
  doc: "A write's stated effect (x-effects updated, set, toggle) is what its read shows afterwards: fields read back equal, a set stays set when repeated, a toggle flips and flips back.",
  async run(ctx: CheckContext, op: Operation) {
    const cases = [];
    for (const effect of op.effects ?? []) {
      if (effect.kind === 'toggle') cases.push(await toggleEffect(ctx, op, effect));
      else if (effect.kind === 'updated' || (effect.kind === 'set' && effect.fields))
        cases.push(await fieldsEffect(ctx, op, effect));
      else if (effect.kind === 'set') cases.push(await valuesEffect(ctx, op, effect));
    }
    return cases;
  },
} satisfies StatementCheck;
