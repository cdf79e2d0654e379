/**
 * state_transitions: a write moves its resource as part 3's states table says (`x-state`). On a
 * resource the check makes (a site through its create, and what the condition needs: a disabled
 * site, a stored git token, a connection), it sends the write and reads the resource in its
 * answer and right after (the `after` values, or already the `settles` ones), then follows it with
 * state waits until it settles (`settles`; `gone`: 404, not listed, not found by search), failing
 * on any state the table does not allow. Outside the condition (`refused`) the write must be
 * refused; `adds`: the list gains an item (git connect's initial deploy). Deletes what it made.
 */

import type { Case, CheckContext, Json, Operation, Res, Statement, StatementCheck } from '../types';
import {
  evaluate,
  exampleOf,
  fail,
  jsonBodyOf,
  pass,
  pathParamsOf,
  readAll,
  skip,
  uniqueBody,
  valueAt,
} from './support';

type Path = Record<string, Json>;
/** What a runtime expression of a statement is evaluated against: the write's request and answer. */
interface Exchange {
  params: Path;
  body: Json;
  json?: Json;
}

const opById = (ctx: CheckContext, id: string | undefined) => ctx.model.operations.find((o) => o.operationId === id);
const ok = (res: Res) => /^2/.test(String(res.status));
const names = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
const pick = (path: Path, op: Operation) => Object.fromEntries(names(op.path).map((n) => [n, path[n]]));

/** A statement's value: a literal, or `$request.body#/x`, `$request.path.x`, `$response.body#/…`. */
function statedValue(expr: Json, ex: Exchange): Json {
  if (typeof expr === 'string' && expr.startsWith('$request.body#/'))
    return valueAt(ex.body, expr.slice('$request.body#/'.length).replaceAll('/', '.'));
  return evaluate(expr, { params: ex.params, json: ex.json });
}
const same = (got: Json, want: Json) => (want === null ? got === null : String(got) === String(want));

/** The fields of `item` that differ from `expected` (values not sent are not compared). */
function differences(item: Json, expected: Record<string, Json> | undefined, ex: Exchange) {
  return Object.entries(expected ?? {})
    .map(([field, expr]) => ({ field, want: statedValue(expr, ex), got: valueAt(item, field) }))
    .filter(({ want, got }) => want !== undefined && !same(got, want));
}
const describe = (diffs: { field: string; want: Json; got: Json }[]) =>
  diffs.map((d) => `${d.field} ${JSON.stringify(d.got)} (the table: ${JSON.stringify(d.want)})`).join(', ');

/** Reads the resource: `read` by path, or the item of a list `read` that has the `match` fields. */
async function readResource(ctx: CheckContext, st: Json, path: Path, ex: Exchange) {
  const read = opById(ctx, st.read)!; // every x-state names its read (lint)
  if (st.match) {
    const all = await readAll(ctx, read, { path: pick(path, read) });
    const item = all.items.find((i) => differences(i, st.match, ex).length === 0);
    return { status: all.problem ? (all.first?.status ?? 0) : item ? 200 : 404, item };
  }
  const res = await ctx.send(ctx.request(read, { path: pick(path, read) }));
  return { status: res.status, item: res.status === 200 ? res.json?.data : undefined };
}

/** The GET of the resource a path is under (`/sites/{site_id}/git` → `GET /sites/{site_id}`). */
const parentOf = (ctx: CheckContext, path: string) =>
  ctx.model.operations
    .filter((g) => g.method === 'get' && g.path.endsWith('}') && path.startsWith(`${g.path}/`))
    .sort((a, b) => b.path.length - a.path.length)[0];

/** Sends a write to `path`; a 4xx create is tried once more with its free-text fields made unique. */
async function sendWrite(ctx: CheckContext, op: Operation, path: Path, body: Json) {
  let req = ctx.request(op, { path: pick(path, op), body });
  let res = await ctx.send(req);
  if (op.method === 'post' && res.status >= 400 && res.status < 500 && body && typeof body === 'object') {
    req = ctx.request(op, { path: pick(path, op), body: uniqueBody(op, body) });
    res = await ctx.send(req);
  }
  return { req, res, body: req.body === undefined ? undefined : JSON.parse(req.body) };
}

/** Everything the check made, deleted at the end (through each create's link to a delete). */
function createTracker(ctx: CheckContext) {
  const removers: (() => Promise<unknown>)[] = [];
  return {
    add(create: Operation, params: Path, json: Json) {
      const link = create.links.find((l) => opById(ctx, l.operationId)?.method === 'delete');
      const remover = link && opById(ctx, link.operationId);
      if (!link || !remover) return;
      const path = Object.fromEntries(
        Object.entries(link.parameters).map(([n, e]) => [n, evaluate(e, { params, json })]),
      );
      removers.unshift(() => ctx.send(ctx.request(remover, { path })));
    },
    async cleanup() {
      for (const r of removers) await r().catch(() => undefined);
    },
  };
}

/**
 * Makes a resource to read with `readId` (under `have`'s path parameters) in one of the `wanted`
 * states: its create with the body fields that its `after` takes from the request, settled, then
 * the writes whose `after` gives what is still missing (their own conditions first). Returns the
 * path, or why not.
 */
async function prepare(
  ctx: CheckContext,
  made: ReturnType<typeof createTracker>,
  readId: string,
  wanted: Record<string, Json> | undefined,
  have: Path = {},
  depth = 0,
): Promise<{ path: Path; reason?: undefined } | { path?: undefined; reason: string }> {
  if (depth > 3) return { reason: 'its condition needs too many steps' };
  const read = opById(ctx, readId);
  if (!read) return { reason: `no operation ${readId}` };
  let path: Path = { ...have };
  const parent = parentOf(ctx, read.path);
  if (parent && names(parent.path).some((n) => !(n in path))) {
    const made_ = await prepare(ctx, made, parent.operationId, undefined, path, depth + 1);
    if (!made_.path) return made_;
    path = made_.path;
  }
  const last = names(read.path).at(-1);
  if (last && !(last in path)) {
    // Its create: one whose x-state reads it by id, or reads it in the list of its collection.
    const collection = read.path.slice(0, read.path.indexOf(`/{${last}}`));
    const create = ctx.model.operations.find(
      (o) =>
        o.method === 'post' &&
        o.state &&
        !o.state.silent &&
        names(o.path).every((n) => n in path) &&
        (o.state.read === readId || (o.state.match && opById(ctx, o.state.read)?.path === collection)),
    );
    if (!create) return { reason: `nothing makes what ${readId} reads` };
    const st = create.state!;
    const body: Json = { ...(exampleOf(jsonBodyOf(create)) ?? {}) };
    for (const [field, value] of Object.entries(wanted ?? {})) {
      const from = st.after?.[field];
      if (typeof from === 'string' && from.startsWith('$request.body#/')) body[from.slice(15)] = value;
    }
    const { req, res, body: sent } = await sendWrite(ctx, create, path, body);
    if (!ok(res)) return { reason: `${create.operationId} answered ${res.status}` };
    const params = pathParamsOf(create, req);
    made.add(create, params, res.json);
    const ex = { params, body: sent, json: res.json };
    const link = create.links.find((l) => l.operationId === readId);
    if (link) for (const [n, e] of Object.entries(link.parameters)) path[n] = evaluate(e, { params, json: res.json });
    const settledItem = async () => {
      const r = await readResource(ctx, st, path, ex);
      return r.status === 200 && differences(r.item, st.settles, ex).length === 0 ? r.item : undefined;
    };
    if (st.settles && st.settles !== 'gone' && ctx.wait) {
      const settled = await ctx.wait(`${create.operationId} settled`, async () => Boolean(await settledItem()));
      if (!settled) return { reason: `what ${create.operationId} made did not settle within the wait budget` };
    }
    if (!link) {
      const item = await settledItem();
      if (item?.id === undefined || item?.id === null)
        return { reason: `${st.read} shows no id for what ${create.operationId} made` };
      path[last] = item.id;
    }
  }
  // The writes that give what is still missing (their own condition first).
  for (const [field, value] of Object.entries(wanted ?? {})) {
    const now = await readResource(ctx, { read: readId }, path, { params: path, body: {} });
    if (now.status !== 200) return { reason: `${readId} answered ${now.status}` };
    if (same(valueAt(now.item, field), value)) continue;
    const writer =
      ctx.model.operations.find(
        (o) =>
          o.state &&
          !o.state.silent &&
          (o.state.on ?? o.state.read) === readId &&
          o.method !== 'post' &&
          same(o.state.after?.[field], value),
      ) ??
      ctx.model.operations.find(
        (o) =>
          o.state && !o.state.silent && (o.state.on ?? o.state.read) === readId && same(o.state.after?.[field], value),
      );
    if (!writer) return { reason: `no write gives ${readId} ${field} ${JSON.stringify(value)}` };
    for (const need of writer.state!.requires?.slice(0, 1) ?? []) {
      const ready = await prepare(ctx, made, writer.state!.on ?? writer.state!.read, need, path, depth + 1);
      if (!ready.path) return ready;
    }
    const { res } = await sendWrite(ctx, writer, path, exampleOf(jsonBodyOf(writer)));
    if (!ok(res))
      return { reason: `${writer.operationId} (to reach ${field} ${JSON.stringify(value)}) answered ${res.status}` };
  }
  return { path };
}

async function checkTransition(ctx: CheckContext, op: Operation, st: Statement): Promise<Case> {
  if (!ctx.allowWrites) return skip(st, 'makes resources; give --allow-writes to run it');
  if (!ctx.wait) return skip(st, 'no state waits in this run');
  const made = createTracker(ctx);
  const isCreate = op.method === 'post' && op.links.some((l) => l.operationId === st.read);
  const listed = st.match !== undefined;
  try {
    // The resource the write acts on (a create: its parent), outside the condition first.
    const subjectRead = st.on ?? (isCreate || listed ? undefined : st.read);
    const target = subjectRead ?? parentOf(ctx, op.path)?.operationId;
    let path: Path = {};
    if (names(op.path).length) {
      if (!target) return skip(st, `nothing the check can make for ${op.operationId}`);
      const fresh = await prepare(ctx, made, target, undefined);
      if (!fresh.path) return skip(st, `the check could not make what ${op.operationId} acts on: ${fresh.reason}`);
      path = fresh.path;
    }
    const example = exampleOf(jsonBodyOf(op));
    const conditions: Record<string, Json>[] = st.requires ?? [];
    if (conditions.length && subjectRead) {
      const now = await readResource(ctx, { read: subjectRead }, path, { params: path, body: {} });
      const outside =
        now.status === 200 && conditions.every((c) => differences(now.item, c, { params: path, body: {} }).length);
      if (outside && st.refused) {
        const req = ctx.request(op, { path: pick(path, op), body: example });
        const res = await ctx.send(req);
        if (ok(res))
          return fail(st, `${op.operationId} was accepted (${res.status}) outside its condition: "${st.says}"`, {
            request: req,
            expected: '4xx',
            actual: res.status,
          });
      }
      const ready = await prepare(ctx, made, subjectRead, conditions[0], path);
      if (!ready.path) return skip(st, `the check could not meet the condition of "${st.says}": ${ready.reason}`);
    }
    const adds = st.adds && opById(ctx, st.adds);
    const before = adds && (await readAll(ctx, adds, { path: pick(path, adds) })).items.length;
    const sent = await sendWrite(ctx, op, path, example);
    const { req, res } = sent;
    if (!ok(res))
      return fail(st, `${op.operationId} answered ${res.status} where "${st.says}"`, {
        request: req,
        expected: '2xx',
        actual: res.status,
      });
    const params = pathParamsOf(op, req);
    const ex: Exchange = { params, body: sent.body ?? {}, json: res.json };
    if (isCreate) {
      made.add(op, params, res.json);
      const link = op.links.find((l) => l.operationId === st.read)!;
      for (const [n, e] of Object.entries(link.parameters)) path[n] = evaluate(e, { params, json: res.json });
    }
    // Right after: the answer (where it carries the fields) and the read.
    const answered = differences(res.json?.data, st.after, ex).filter(
      (d) => valueAt(res.json?.data, d.field) !== undefined,
    );
    if (answered.length)
      return fail(st, `${op.operationId} answered ${describe(answered)}: "${st.says}"`, {
        request: req,
        expected: JSON.stringify(st.after),
        actual: describe(answered),
      });
    const allowed = (item: Json) =>
      differences(item, st.after, ex).length === 0 ||
      (typeof st.settles === 'object' && differences(item, st.settles, ex).length === 0);
    const now = await readResource(ctx, st, path, ex);
    const goneAlready = st.settles === 'gone' && now.status === 404;
    if (!goneAlready && (now.status !== 200 || !allowed(now.item)))
      return fail(
        st,
        `right after ${op.operationId}, ${st.read} ${now.status === 200 ? `reads ${describe(differences(now.item, st.after, ex))}` : `answered ${now.status}`}: "${st.says}"`,
        {
          request: req,
          expected: JSON.stringify(st.after),
          actual: now.status === 200 ? JSON.stringify(now.item) : now.status,
        },
      );
    // Settling: followed with state waits; any state outside after and settles fails.
    if (st.settles) {
      let wrong: Json;
      const settled = await ctx.wait(`${op.operationId} settled`, async () => {
        const r = await readResource(ctx, st, path, ex);
        if (st.settles === 'gone') return r.status === 404;
        if (r.status !== 200) return false;
        if (!allowed(r.item)) wrong = r.item;
        return wrong !== undefined || differences(r.item, st.settles, ex).length === 0;
      });
      if (wrong !== undefined)
        return fail(
          st,
          `after ${op.operationId}, ${st.read} reads ${describe(differences(wrong, st.settles, ex))}: a state the table does not allow ("${st.says}")`,
          {
            request: req,
            expected: JSON.stringify(st.settles),
            actual: JSON.stringify(wrong),
          },
        );
      if (!settled)
        return fail(
          st,
          `after ${op.operationId}, ${st.read} did not reach ${JSON.stringify(st.settles)} within the wait budget: "${st.says}"`,
          {
            request: req,
            expected: JSON.stringify(st.settles),
            actual: 'not settled',
          },
        );
      if (st.settles === 'gone') {
        const gone = await stillFound(ctx, op, path);
        if (gone)
          return fail(st, `${op.operationId} finished (404), but ${gone}`, {
            request: req,
            expected: 'not listed',
            actual: gone,
          });
      }
    }
    if (adds) {
      const grew = await ctx.wait(
        `${op.operationId} adds to ${adds.operationId}`,
        async () => (await readAll(ctx, adds, { path: pick(path, adds) })).items.length > before!,
      );
      if (!grew)
        return fail(st, `${op.operationId} added nothing to ${adds.operationId} within the wait budget: "${st.says}"`, {
          request: req,
          expected: 'a new item',
          actual: 'none',
        });
    }
    return pass(st, { request: req });
  } finally {
    await made.cleanup();
  }
}

/** After a delete finished: the list of its collection, or the search over it, that still holds the id. */
async function stillFound(ctx: CheckContext, op: Operation, path: Path) {
  const last = names(op.path).at(-1)!;
  const collection = op.path.slice(0, op.path.indexOf(`/{${last}}`));
  const id = String(path[last]);
  const list = ctx.model.operations.find((o) => o.method === 'get' && o.path === collection);
  const search = ctx.model.operations.find((o) => o.method === 'post' && o.path === `${collection}/search`);
  for (const reader of [list, search].filter((o): o is Operation => Boolean(o))) {
    const all = await readAll(ctx, reader, { path: pick(path, reader), body: reader === search ? {} : undefined });
    if (!all.problem && all.items.some((i) => String(i?.id) === id)) return `${reader.operationId} still holds ${id}`;
  }
  return undefined;
}

export default {
  name: 'state_transitions',
  kinds: ['state'],
  doc: 'A write moves its resource as the states table says (x-state): its answer and the read right after show the `after` state, state waits follow it until it settles (or is gone: 404, not listed, not found by search) through allowed states only, a write outside its condition is refused, and `adds` lists gain an item.',
  async run(ctx: CheckContext, op: Operation) {
    const st = op.state;
    if (!st || st.silent) return [];
    return [await checkTransition(ctx, op, st)];
  },
} satisfies StatementCheck;
