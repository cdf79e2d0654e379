// What the statement checks share: reading items and fields of answers, walking a list's pages,
// and making the resources a write needs by following the create responses' `links`.
// A check gets a context from the phase that runs it:
//   { model, live, allowWrites, request(op, {path, query, body, auth}), send(req), reset(),
//     authUrl, client: {id, secret} }
// and returns its cases: [{ statement, outcome: 'pass'|'fail'|'skip', message, reason, request,
// expected, actual }], one per statement it read (every failure names its statement's source).
import type { Case, CheckContext, Json, Operation, Req, Res, SpecModel, Statement } from '../types';

/** The parts of a request a check sets: path parameters, query, body. */
type Parts = { path?: Record<string, unknown>; query?: Record<string, unknown>; body?: Json };
/** What readAll found: every item, the first answer and request, the total it states, or why it stopped. */
interface ReadAll {
  items: Json[];
  first: Res | undefined;
  request: Req | undefined;
  total?: number | undefined;
  problem?: string;
  /** It stopped at its page limit with pages left: `items` is not the whole list. */
  truncated?: boolean;
}
/** A resource provide() made (and how to delete it), or why it made none. */
type Provided =
  | {
      path: Record<string, Json>;
      created: Operation;
      request: Req;
      answer: Res;
      cleanup(): Promise<void>;
      reason?: undefined;
    }
  | { reason: string; path?: undefined; created?: undefined; cleanup?: undefined };

/** The value at a dotted path (`data.sites`, `sites.0.favorite`, `site.name`). */
function valueAt(value: Json, path: string | undefined): Json {
  if (!path) return value;
  return String(path)
    .split('.')
    .reduce((at, key) => (at === null || at === undefined ? undefined : at[key]), value);
}

/** The list items of an answer, at the statement's `items` path (default `data`). */
function itemsOf(json: Json, items = 'data'): Json[] | undefined {
  const found = valueAt(json, items);
  return Array.isArray(found) ? found : undefined;
}

/** A copy of a template with every `$value` replaced by `value`. */
function fill(template: Json, value: Json): Json {
  if (template === '$value') return value;
  if (Array.isArray(template)) return template.map((t) => fill(t, value));
  if (template && typeof template === 'object')
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, fill(v, value)]));
  return template;
}

/** How an item is told apart: its `id`, else the whole item. */
const keyOf = (item: Json) => JSON.stringify(item?.id ?? item);

/** The example of a media type or parameter, as the spec gives it. */
const exampleOf = (media: Json) => media?.example ?? Object.values<Json>(media?.examples ?? {})[0]?.value;
const jsonBodyOf = (op: Operation) => op.requestBody?.content?.['application/json'];

/** A query and body that merge `extra` into where the list takes its paging (`in: query|body`). */
function withPaging(
  paging: Statement | undefined,
  { query = {}, body }: Parts = {},
  extra: Record<string, unknown> = {},
) {
  if (paging?.in === 'body') return { query, body: { ...(body ?? {}), ...extra } };
  return { query: { ...query, ...extra }, body };
}

/** The opt-in a paged list needs before it pages (`paginate=true`), or nothing. */
const optInOf = (paging: Statement | undefined): Record<string, unknown> => {
  const optIn = paging?.optIn;
  if (!optIn || optIn.anyOf) return {};
  return optIn;
};

/**
 * Every item of a list: one request for an unpaged list (or an opt-in one, not opted in: `optIn`), else
 * every page (up to 40) at `perPage` items (default the smaller of 50 and the stated maximum).
 * Returns { items, first (the first answer), request (the first request), total, problem }.
 */
async function readAll(
  ctx: CheckContext,
  op: Operation,
  {
    path,
    query = {},
    body,
    perPage,
    page: pageOnly,
    optIn,
  }: Parts & { perPage?: number; page?: number; optIn?: boolean } = {},
): Promise<ReadAll> {
  const paging = op.list?.paging;
  const size = perPage ?? Math.min(50, paging?.maximum ?? 50);
  // An opt-in list pages only when asked (`optIn`: its opt-in is sent, and the pages are walked).
  const paged = paging && (!paging.optIn || optIn);
  if (paged && optIn) ({ query, body } = withPaging(paging, { query, body }, optInOf(paging)));
  const items: Json[] = [];
  let first: Res | undefined;
  let firstRequest: Req | undefined;
  let truncated = false;
  for (let page = 1; page <= (pageOnly ?? 40); page++) {
    const parts = paged
      ? withPaging(paging, { query, body }, { [paging.page]: page, [paging.perPage]: size })
      : { query, body };
    const req = ctx.request(op, { path, query: parts.query, body: parts.body });
    const res = await ctx.send(req);
    first ??= res;
    firstRequest ??= req;
    if (res.status !== 200)
      return { items, first, request: req, problem: `${req.method} ${req.url} answered ${res.status}` };
    const found = itemsOf(res.json, op.list?.items);
    if (!found) return { items, first, request: req, problem: `the answer has no list at ${op.list?.items ?? 'data'}` };
    items.push(...found);
    if (!paged || !res.json?.page?.nextPage || found.length === 0) break;
    truncated = page === (pageOnly ?? 40);
  }
  return { items, first, request: firstRequest, total: first?.json?.page?.totalItems, truncated };
}

/** Case-insensitive text of a value, for "every item matches" (the seed states no case). */
const loose = (v: unknown) => String(v ?? '').toLowerCase();

/** Whether `actual` matches `value` under `operator`; `exact` keeps the case. */
function matches(actual: unknown, value: unknown, operator: string, exact: boolean) {
  if (actual === null || actual === undefined) return false;
  if (typeof value !== 'string') return actual === value;
  const [a, v] = exact ? [String(actual), value] : [loose(actual), loose(value)];
  return operator === 'equals' ? a === v : a.includes(v);
}

/** A case of a statement. */
const caseOf = (statement: Statement, outcome: Case['outcome'], more: Partial<Case> = {}): Case => ({
  statement,
  outcome,
  ...more,
});
const fail = (statement: Statement, message: string, more: Partial<Case> = {}) =>
  caseOf(statement, 'fail', { message: `${message} (${statement.source})`, ...more });
const skip = (statement: Statement, reason: string) => caseOf(statement, 'skip', { reason });
const pass = (statement: Statement, more: Partial<Case> = {}) => caseOf(statement, 'pass', more);

/** A short tag of letters only (a digit in free text is a value some targets treat apart). */
const letters = () =>
  Date.now()
    .toString(36)
    .slice(-6)
    .replace(/\d/g, (d) => 'abcdefghij'[Number(d)] ?? d);

/** The path parameters a request was made with: its URL against the operation's path template. */
function pathParamsOf(op: Operation, req: Req) {
  const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const pattern = new RegExp(`${op.path.replace(/\{[^}]+\}/g, '([^/]+)').replaceAll('/', '\\/')}$`);
  const found = new URL(req.url).pathname.match(pattern);
  return Object.fromEntries(names.map((n, i) => [n, found ? decodeURIComponent(found[i + 1] ?? '') : undefined]));
}

/** A runtime expression of a link (`$request.path.site_id`, `$response.body#/data/id`). */
function evaluate(expression: Json, { params, json }: { params: Record<string, unknown>; json: Json }): Json {
  if (typeof expression !== 'string') return expression;
  if (expression.startsWith('$request.path.')) return params[expression.slice('$request.path.'.length)];
  if (expression.startsWith('$response.body#'))
    return expression
      .slice('$response.body#'.length)
      .split('/')
      .slice(1)
      .map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce((at, k) => (at === null || at === undefined ? undefined : at[k]), json);
  return expression;
}

/** The create operation whose success links to `op` (createSiteNote → updateSiteNote), and its link. */
function producerOf(model: SpecModel, op: Operation) {
  for (const create of model.operations)
    for (const link of create.links ?? []) if (link.operationId === op.operationId) return { create, link };
  return undefined;
}

/**
 * The example's free-text fields made unique (a suffix; before a URL's file extension), for a
 * create that refuses a second resource with the example's name or path.
 */
function uniqueBody(create: Operation, body: Json) {
  const props = jsonBodyOf(create)?.schema?.properties ?? {};
  const tag = `g${letters()}`;
  const out = { ...body };
  for (const [name, value] of Object.entries(body ?? {})) {
    const schema = props[name] ?? {};
    if (typeof value !== 'string' || schema.enum || value.includes('@')) continue;
    if (/^https?:\/\//.test(value)) out[name] = value.replace(/(\.[a-z0-9]+)?$/i, `-${tag}$1`);
    else if (!(schema.examples ?? []).includes(value)) out[name] = `${value}-${tag}`;
  }
  return out;
}

/** Sends a create with `body`; a 4xx is tried once more with the free-text fields made unique. */
async function sendCreate(ctx: CheckContext, create: Operation, body: Json) {
  let req = ctx.request(create, { body });
  let res = await ctx.send(req);
  if (res.status >= 400 && res.status < 500 && body && typeof body === 'object') {
    req = ctx.request(create, { body: uniqueBody(create, body) });
    res = await ctx.send(req);
  }
  return { req, res, body: req.body === undefined ? undefined : JSON.parse(req.body) };
}

/**
 * A new resource for `op` to work on, made by the run: the create that links to `op` is sent with
 * its example body (and `body` over it), the link's parameters give `op`'s path. `cleanup()` deletes
 * it through the create's link to a delete. Returns { path, created, answer, cleanup } or { reason }.
 */
async function provide(ctx: CheckContext, op: Operation, { body }: { body?: Json } = {}): Promise<Provided> {
  const found = producerOf(ctx.model, op);
  if (!found) return { reason: `no create links to ${op.operationId}: nothing the run can make for it` };
  if (!ctx.allowWrites) return { reason: 'makes a resource; give --allow-writes to run it' };
  const { create, link } = found;
  const { req, res } = await sendCreate(ctx, create, { ...(exampleOf(jsonBodyOf(create)) ?? {}), ...(body ?? {}) });
  if (!/^2/.test(String(res.status)))
    return {
      reason: `${create.operationId} with the spec's example answered ${res.status}${res.json?.errors?.[0] ? ` (${res.json.errors[0]})` : ''}`,
    };
  const params = pathParamsOf(create, req);
  const path = Object.fromEntries(
    Object.entries(link.parameters).map(([name, expr]) => [name, evaluate(expr, { params, json: res.json })]),
  );
  if (Object.values(path).some((v) => v === undefined || v === null))
    return { reason: `${create.operationId}'s answer names no id for ${op.operationId} (${link.source})` };
  const remover = (create.links ?? [])
    .map((l) => ({ l, target: ctx.model.operations.find((o) => o.operationId === l.operationId) }))
    .find(({ target }) => target?.method === 'delete');
  let cleaned = false;
  return {
    path,
    created: create,
    request: req,
    answer: res,
    async cleanup() {
      if (cleaned || !remover) return;
      cleaned = true;
      const p = Object.fromEntries(
        Object.entries(remover.l.parameters).map(([name, expr]) => [name, evaluate(expr, { params, json: res.json })]),
      );
      await ctx.send(ctx.request(remover.target!, { path: p })).catch(() => undefined);
    },
  };
}

/**
 * A value for a request field different from `current`, valid for the field's schema: the spec's
 * example for it, an enum value or a schema example, else one made up for its type.
 */
function otherValue(schema: Json = {}, current: unknown, tag = 'gate', example: unknown = undefined) {
  const known = [
    example,
    ...(schema.enum ?? []),
    ...(schema.examples ?? []),
    ...(schema.anyOf ?? []).flatMap((s: Json) => [...(s.enum ?? []), ...(s.examples ?? [])]),
  ].filter((v) => v !== undefined && v !== null && typeof v !== 'object');
  const found = known.find((v) => v !== current);
  if (found !== undefined) return found;
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  if (type === 'boolean') return !current;
  if (type === 'integer' || type === 'number') return (Number(current) || 0) + 1;
  return `${tag}-check-${letters()}`;
}

/**
 * Makes `count` more items of a list through the creates that link to it or state it lists what they create (mu-plugins; notes of the run's own site),
 * for a check that needs more than the target holds. Returns { made, cleanup }.
 */
async function addItems(ctx: CheckContext, list: Operation, count: number) {
  const creates = ctx.model.operations.filter(
    (o) =>
      (o.links ?? []).some((l) => l.operationId === list.operationId) ||
      (o.effects ?? []).some((e) => e.kind === 'created' && e.list === list.operationId),
  );
  const cleanups: (() => Promise<unknown>)[] = [];
  let made = 0;
  // A create under a path parameter only where the run's own resource is its parent (ownContext).
  if (ctx.allowWrites)
    for (const create of creates.filter((c) => ctx.own || !c.path.includes('{')).slice(0, 1))
      for (let i = 0; i < count; i++) {
        const { req, res } = await sendCreate(ctx, create, uniqueBody(create, exampleOf(jsonBodyOf(create)) ?? {}));
        if (!/^2/.test(String(res.status))) break;
        made++;
        const params = pathParamsOf(create, req);
        const remover = (create.links ?? [])
          .map((l) => ({ l, target: ctx.model.operations.find((o) => o.operationId === l.operationId) }))
          .find(({ target }) => target?.method === 'delete');
        if (remover)
          cleanups.push(() =>
            ctx.send(
              ctx.request(remover.target!, {
                path: Object.fromEntries(
                  Object.entries(remover.l.parameters).map(([n, e]) => [n, evaluate(e, { params, json: res.json })]),
                ),
              }),
            ),
          );
      }
  return {
    made,
    async cleanup() {
      for (const c of cleanups) await c().catch(() => undefined);
    },
  };
}

const pathNames = (op: Operation) => [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

/**
 * Live runs: the context with every request of `op` sent to what the run made (`ctx.writePath`,
 * the run's own site and children), for a check that finds too little in what existed before.
 * Undefined where the run made none of `op`'s path parameters.
 */
function ownContext(ctx: CheckContext, op: Operation): CheckContext | undefined {
  const names = pathNames(op);
  const own = ctx.writePath;
  if (!ctx.live || !own || !names.length || names.some((n) => own[n] === undefined)) return undefined;
  const path = Object.fromEntries(names.map((n) => [n, own[n]]));
  return {
    ...ctx,
    own: true,
    request: (o, options = {}) => ctx.request(o, { ...options, path: { ...path, ...options.path } }),
  };
}

/**
 * Live runs: the path of `op` on something the run made or caused, for a write no create links
 * to. Every path parameter the run made (`ctx.writePath`), or all but the last, whose item is
 * found in its list (the GET before it) as one about the run's own site (`site.id`, `siteId`: an
 * alert the run's queued work raised) for which `wanted(item)` holds. Returns { path } or { reason }.
 */
async function ownPath(
  ctx: CheckContext,
  op: Operation,
  wanted: (item: Json) => boolean = () => true,
): Promise<{ path: Record<string, unknown>; reason?: undefined } | { path?: undefined; reason: string }> {
  const own = ctx.writePath ?? {};
  const names = pathNames(op);
  const last = names.at(-1);
  const lacking = names.filter((n) => own[n] === undefined);
  const path = Object.fromEntries(names.filter((n) => own[n] !== undefined).map((n) => [n, own[n]]));
  if (!ctx.live || !ctx.writePath || !names.length || !last) return { reason: 'it writes to nothing the run made' };
  if (!lacking.length) return { path };
  const collection = op.path.slice(0, op.path.indexOf(`/{${last}}`));
  const list = ctx.model.operations.find((o) => o.method === 'get' && o.path === collection);
  if (lacking.length > 1 || lacking[0] !== last || !list || own.site_id === undefined)
    return { reason: `the run made no ${lacking.join(', ')} to write to` };
  const { items } = await readAll({ ...ctx, request: (o, options) => ctx.request(o, { ...options, path }) }, list);
  const mine = items.find(
    (item: Json) => String(item?.site?.id ?? item?.siteId) === String(own.site_id) && item?.id != null && wanted(item),
  );
  if (!mine) return { reason: `no item of ${collection} about the run's site ${own.site_id} to write to` };
  return { path: { ...path, [last]: mine.id } };
}

export {
  addItems,
  caseOf,
  evaluate,
  exampleOf,
  fail,
  fill,
  itemsOf,
  jsonBodyOf,
  keyOf,
  matches,
  optInOf,
  otherValue,
  ownContext,
  ownPath,
  pass,
  pathParamsOf,
  producerOf,
  provide,
  readAll,
  sendCreate,
  skip,
  uniqueBody,
  valueAt,
  withPaging,
};
