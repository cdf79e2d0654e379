/**
 * create_listed: a create's stated effect (`x-effects` kind `created`): the new resource is
 * readable by id (`read`, with the parameters the create response's `links` give), reads back the
 * fields sent (`fields`), and is in its list (`list`, every page), or, without an id in the
 * answer, the list holds an item with the `match` fields sent. The run deletes what it made.
 */

import type { CheckContext, Json, Operation, Res, Statement, StatementCheck } from '../types';
import { echoedFields } from './echo';
import {
  evaluate,
  exampleOf,
  fail,
  jsonBodyOf,
  keyOf,
  otherValue,
  pass,
  pathParamsOf,
  readAll,
  sendCreate,
  skip,
  valueAt,
} from './support';

const opById = (ctx: CheckContext, id: string) => ctx.model.operations.find((o) => o.operationId === id);
const loose = (v: unknown) =>
  String(v ?? '')
    .toLowerCase()
    .replace(/\.$/, '');

async function checkCreated(ctx: CheckContext, op: Operation, effect: Statement) {
  if (!ctx.allowWrites) return skip(effect, 'makes a resource; give --allow-writes to run it');
  const read = effect.read && opById(ctx, effect.read);
  const list = effect.list && opById(ctx, effect.list);
  const schema = jsonBodyOf(op)?.schema?.properties ?? {};
  let body: Json = { ...(exampleOf(jsonBodyOf(op)) ?? {}) };
  for (const f of Object.keys(effect.fields ?? {})) body[f] = otherValue(schema[f], body[f], 'created');
  let req = ctx.request(op, { body });
  const params = pathParamsOf(op, req);
  let res: Res | undefined;
  const linkParams = (target: Operation) => {
    const link = op.links.find((l) => l.operationId === target.operationId);
    return (
      link &&
      Object.fromEntries(Object.entries(link.parameters).map(([n, e]) => [n, evaluate(e, { params, json: res?.json })]))
    );
  };
  // Without an id in the answer (match), the new item is the one the list did not hold before.
  const listPath = list && (linkParams(list) ?? params);
  const before = effect.match && list ? await readAll(ctx, list, { path: listPath }) : undefined;
  ({ req, res, body } = await sendCreate(ctx, op, body));
  if (!/^2/.test(String(res.status)))
    return skip(
      effect,
      `${op.operationId} with the spec's example answered ${res.status}${res.json?.errors?.[0] ? ` (${res.json.errors[0]})` : ''}`,
    );
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    let id: Json;
    if (read) {
      const path = linkParams(read);
      if (!path) return skip(effect, `no link from ${op.operationId} to ${read.operationId} gives the new id`);
      const deleter = op.links.map((l) => opById(ctx, l.operationId)).find((o) => o?.method === 'delete');
      if (deleter) cleanups.push(() => ctx.send(ctx.request(deleter, { path: linkParams(deleter) })));
      id = Object.values(path).at(-1);
      const got = await ctx.send(ctx.request(read, { path }));
      if (got.status !== 200)
        return fail(effect, `created ${id}, but ${read.operationId} answered ${got.status}`, {
          request: req,
          expected: 200,
          actual: got.status,
        });
      for (const [f, to] of Object.entries<string>(echoedFields(effect, body, got.json?.data)))
        if (valueAt(got.json?.data, to) !== body[f])
          return fail(
            effect,
            `created with ${f} ${JSON.stringify(body[f])}, but ${read.operationId} reads ${to} ${JSON.stringify(valueAt(got.json?.data, to))}`,
            {
              request: req,
              expected: JSON.stringify(body[f]),
              actual: JSON.stringify(valueAt(got.json?.data, to)),
            },
          );
    }
    if (list) {
      const all = await readAll(ctx, list, { path: listPath });
      if (all.problem)
        return fail(effect, `after the create, ${list.operationId}: ${all.problem}`, { request: all.request });
      if (id !== undefined && !all.items.some((i) => String(i?.id) === String(id)))
        return fail(effect, `created ${id}, but ${list.operationId} does not list it (${all.items.length} items)`, {
          request: all.request,
          expected: `an item with id ${id}`,
          actual: `${all.items.length} items without it`,
        });
      if (effect.match) {
        const known = new Set(before?.items.map(keyOf));
        const fresh = all.items.filter(
          (i) => !known.has(keyOf(i)) && effect.match.every((f: string) => loose(i?.[f]) === loose(body[f])),
        );
        const remove = ctx.model.operations.find(
          (o) =>
            o.method === 'delete' &&
            o.path.startsWith(`${list.path}/{`) &&
            o.path.split('/').length === list.path.split('/').length + 1,
        );
        for (const item of fresh)
          cleanups.push(() =>
            ctx.send(
              ctx.request(remove!, { path: { ...listPath, [remove!.path.match(/\{([^}]+)\}$/)![1]!]: item.id } }),
            ),
          );
        if (!fresh.length)
          return fail(
            effect,
            `created ${effect.match.map((f: string) => `${f} ${JSON.stringify(body[f])}`).join(', ')}, but ${list.operationId} holds no new item with them`,
            {
              request: all.request,
              expected: 'a new item',
              actual: `${all.items.length} items, none new`,
            },
          );
      }
    }
    return pass(effect);
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
  }
}

export default {
  name: 'create_listed',
  kinds: ['created'],
  doc: 'After a create (x-effects created), the new resource is readable through the linked read, reads back what was sent, and is in its list; the run deletes it afterwards.',
  async run(ctx: CheckContext, op: Operation) {
    const cases = [];
    for (const effect of (op.effects ?? []).filter((e) => e.kind === 'created'))
      cases.push(await checkCreated(ctx, op, effect));
    return cases;
  },
} satisfies StatementCheck;
