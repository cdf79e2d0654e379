/**
 * delete_gone: after a delete (`x-effects` kind `deleted`) that succeeded, its read answers 404
 * and its list no longer holds it. It deletes only what the run made: through the create whose
 * response links to the delete, or (no such link) a create on the list's path whose new item is
 * told by comparing the list before and after.
 */

import type { CheckContext, Operation, Statement, StatementCheck } from '../types';
import { exampleOf, fail, jsonBodyOf, keyOf, pass, pathParamsOf, producerOf, provide, readAll, skip } from './support';

const opById = (ctx: CheckContext, id: string) => ctx.model.operations.find((o) => o.operationId === id);

/** A resource made by a create on the list's path, by what is new in the list (zone records, firewall rules). */
async function provideByList(ctx: CheckContext, op: Operation, list: Operation) {
  const create = ctx.model.operations.find(
    (o) =>
      o.method === 'post' && /^create[A-Z]/.test(o.operationId) && [list.path, `${list.path}/create`].includes(o.path),
  );
  if (!create) return { reason: `no create on ${list.path} for the run to make one` };
  const probe = ctx.request(list, {});
  const path = pathParamsOf(list, probe);
  const before = await readAll(ctx, list, { path });
  if (before.problem) return { reason: `${list.operationId}: ${before.problem}` };
  const res = await ctx.send(ctx.request(create, { path, body: exampleOf(jsonBodyOf(create)) }));
  // (a create refused as a duplicate is not retried here: the list must grow by exactly one.)
  if (!/^2/.test(String(res.status)))
    return {
      reason: `${create.operationId} with the spec's example answered ${res.status}${res.json?.errors?.[0] ? ` (${res.json.errors[0]})` : ''}`,
    };
  const after = await readAll(ctx, list, { path });
  const known = new Set(before.items.map(keyOf));
  const fresh = after.items.filter((i) => !known.has(keyOf(i)) && i?.id !== undefined);
  if (fresh.length !== 1)
    return { reason: `${create.operationId} added ${fresh.length} items to ${list.operationId}, not one` };
  const param = op.path.match(/\{([^}]+)\}$/)?.[1] ?? 'id';
  return { path: { ...path, [param]: fresh[0]?.id }, cleanup: async () => undefined };
}

async function checkDeleted(ctx: CheckContext, op: Operation, effect: Statement) {
  if (!ctx.allowWrites) return skip(effect, 'deletes; give --allow-writes to run it');
  const read = effect.read && opById(ctx, effect.read);
  const list = effect.list && opById(ctx, effect.list);
  let made: {
    path?: Record<string, unknown> | undefined;
    reason?: string | undefined;
    cleanup?: () => Promise<unknown>;
  } = await provide(ctx, op);
  if (!made.path && list && !producerOf(ctx.model, op)) made = await provideByList(ctx, op, list);
  if (!made.path) return skip(effect, `the run made nothing to delete: ${made.reason}`);
  const req = ctx.request(op, { path: made.path, body: exampleOf(jsonBodyOf(op)) });
  const res = await ctx.send(req);
  if (!/^2/.test(String(res.status))) {
    await made.cleanup?.();
    return fail(effect, `${op.operationId} of what the run made answered ${res.status}`, {
      request: req,
      expected: '2xx',
      actual: res.status,
    });
  }
  const id = Object.values(made.path).at(-1);
  if (read) {
    const got = await ctx.send(ctx.request(read, { path: made.path }));
    if (got.status !== 404)
      return fail(effect, `deleted ${id} (${res.status}), but ${read.operationId} then answered ${got.status}`, {
        request: req,
        expected: 404,
        actual: got.status,
      });
  }
  if (list) {
    const all = await readAll(ctx, list, { path: made.path });
    if (!all.problem && all.items.some((i) => String(i?.id) === String(id)))
      return fail(effect, `deleted ${id} (${res.status}), but ${list.operationId} still lists it`, {
        request: req,
        expected: `no item with id ${id}`,
        actual: 'still listed',
      });
  }
  return pass(effect);
}

export default {
  name: 'delete_gone',
  kinds: ['deleted'],
  doc: 'After a delete (x-effects deleted) of something the run made, the read answers 404 and the list no longer holds it.',
  async run(ctx: CheckContext, op: Operation) {
    const cases = [];
    for (const effect of (op.effects ?? []).filter((e) => e.kind === 'deleted'))
      cases.push(await checkDeleted(ctx, op, effect));
    return cases;
  },
} satisfies StatementCheck;
