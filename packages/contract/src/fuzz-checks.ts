// The fuzz phase's own checks (checks.ts): negative_data_rejection, positive_data_acceptance,
// ignored_auth, ensure_resource_availability, use_after_delete, filter_semantics. Each takes an
// operation, sends generated or example input through the phase's requests (fuzz.ts), and records
// its case (fuzz-results.ts).
import fc from 'fast-check';
import type { Results } from './fuzz-results';
import { bodyMutations, breaking, valid } from './generate';
import { cannotPutBack } from './ledger';
import { changesEveryItem } from './live-plan';
import { isRead, needsWrites, READ_ONLY_REASON } from './safety';
import type { Failure, Json, Operation, Req, RequestParts, Res } from './types';

/** A generated change of a request: a body mutation (generate.ts), a query or a path parameter. */
interface Input {
  what: string;
  apply?: (body: Json) => unknown;
  query?: Record<string, unknown>;
  path?: Record<string, unknown>;
}
/** What a list is read with (walk, pagingProblems). */
interface ListRequest {
  query?: Record<string, unknown>;
  body?: Json;
  path?: Record<string, unknown> | undefined;
}

export const jsonBody = (op: Operation) => op.requestBody?.content?.['application/json'];
export const example = (media: Json) => media?.example ?? Object.values<Json>(media?.examples ?? {})[0]?.value;

export function createFuzzChecks({
  byPath,
  CHECKS,
  live,
  allowWrites,
  writeParams,
  send,
  requestOf,
  responseFailures,
  reset,
  quiet,
  results: { property, record, skip },
}: {
  byPath: Map<string, Operation>;
  CHECKS: Set<string>;
  live: boolean;
  allowWrites: boolean;
  writeParams: Record<string, Json> | null | undefined;
  send: (req: Req) => Promise<Res>;
  requestOf: (op: Operation, parts?: RequestParts) => Req;
  responseFailures: (op: Operation, res: Res, o?: { expect?: string }) => Failure[];
  reset: () => unknown;
  /** Waits until queued work the run caused has landed, before a before/after comparison through `read` (fuzz.ts). */
  quiet: (read: Operation | undefined) => Promise<void>;
  results: Results;
}) {
  /** The read that shows whether a write changed something: GET of the same path, else of its parent. */
  function readOf(op: Operation) {
    if (op.method === 'get') return op;
    let path = op.path;
    while (path) {
      const found = byPath.get(`get ${path}`);
      if (found) return found;
      path = path.replace(/\/[^/]+$/, '');
    }
    return undefined;
  }
  const snapshot = async (read: Operation | undefined) => (read ? (await send(requestOf(read))).text : undefined);

  const created = new Map<string, Json[]>(); // path parameter name → ids the run created (live runs touch only those)

  /** Path parameters of reads that look at what a write changed: the ids the writes went to. */
  const writtenPath = (more = {}) => ({ ...(live && writeParams ? writeParams : {}), ...more });

  /** Live runs change only what they created: the last path parameter must be one of those. */
  function writeAllowed(op: Operation) {
    if (!needsWrites(op)) return { ok: true };
    if (!allowWrites) return { ok: false, reason: READ_ONLY_REASON };
    if (!live) return { ok: true };
    if (changesEveryItem(op.operationId))
      return { ok: false, reason: 'changes every item of its list, those that existed before the run too' };
    const last = op.path.match(/\{([^}]+)\}$/)?.[1];
    const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
    const lacking = names.filter((n) => n !== last && writeParams && writeParams[n] === undefined);
    if (lacking.length) return { ok: false, reason: `no ${lacking.join(', ')} the run created to write to` };
    // A write of the account that nothing undoes (ledger.ts) is not sent.
    const why = names.length ? undefined : cannotPutBack(op);
    if (why) return { ok: false, reason: `not sent to what existed before the run: ${why}` };
    const isCreate = op.method === 'post' && [...byPath.keys()].some((k) => k.startsWith(`get ${op.path}/{`));
    if (isCreate || !last) return { ok: true };
    const ids = created.get(last) ?? (writeParams?.[last] !== undefined ? [writeParams[last]] : undefined);
    return ids?.length
      ? { ok: true, path: { [last]: ids.at(-1) } }
      : { ok: false, reason: `touches a ${last} the run did not create` };
  }

  async function negativeDataRejection(op: Operation) {
    const media = jsonBody(op);
    const base = example(media) ?? {};
    const documented4xx = Object.keys(op.responses).filter((s) => /^4\d\d$/.test(s) && s !== '401' && s !== '403');
    const arbs: fc.Arbitrary<Input>[] = media?.schema ? bodyMutations(media.schema) : [];
    for (const p of op.parameters.filter((p) => p.in === 'query' && p.schema)) {
      const schema = p.schema;
      const t = Array.isArray(schema.type) ? schema.type : [schema.type];
      const queryArbs = breaking(schema, `query ${p.name}`).filter(
        (_, i) => i > 0 || t.some((x: string) => ['integer', 'number', 'boolean'].includes(x)),
      );
      for (const arb of queryArbs)
        arbs.push(
          arb
            .filter(({ value }) => ['string', 'number', 'boolean'].includes(typeof value))
            .map(({ what, value }) => ({ what, query: { [p.name]: value } })),
        );
    }
    for (const p of op.parameters.filter((p) => p.in === 'path' && ['integer', 'number'].includes(p.schema?.type)))
      arbs.push(
        fc.string({ maxLength: 6 }).map((s) => ({ what: `path ${p.name} not a number`, path: { [p.name]: `x${s}` } })),
      );
    if (!arbs.length) return skip('negative_data_rejection', op, 'declares no body or query constraint to break');
    if (!documented4xx.length) return skip('negative_data_rejection', op, 'documents no 4xx for invalid input');
    // Refused writes must change nothing: a read before and after each (reads change nothing by
    // definition, and a read that answers differently each time proves nothing).
    let read = isRead(op) ? undefined : readOf(op);
    await quiet(read);
    const [first, second] = read ? [await snapshot(read), await snapshot(read)] : [];
    if (first !== second) read = undefined;
    await property('negative_data_rejection', op, fc.oneof(...arbs), async (mutation) => {
      const req = requestOf(op, {
        path: mutation.path,
        query: mutation.query,
        body: mutation.apply ? mutation.apply(base) : media ? base : undefined,
      });
      await quiet(read);
      const before = await snapshot(read);
      const res = await send(req);
      const after = await snapshot(read);
      const failures = [];
      if (!documented4xx.includes(String(res.status)))
        failures.push({
          check: 'negative_data_rejection',
          message: `${mutation.what}: answered ${res.status}, expected a documented 4xx (${documented4xx.join(', ')})`,
        });
      else failures.push(...responseFailures(op, res));
      if (before !== after)
        failures.push({
          check: 'negative_data_rejection',
          message: `${mutation.what}: refused, but ${read!.method.toUpperCase()} ${read!.path} reads differently afterwards: ${whatChanged(before, after)}`,
        });
      return {
        failures: failures.filter((f) => CHECKS.has(f.check)),
        what: mutation.what,
        request: req,
        expected: documented4xx.join(' or '),
        actual: res.status,
        answer: res.text.slice(0, 300),
      };
    });
  }

  /** What differs between two answers, field by field (at most 5), for a before/after failure. */
  function whatChanged(before: string | undefined, after: string | undefined) {
    let a: Json;
    let b: Json;
    try {
      a = JSON.parse(before as string);
      b = JSON.parse(after as string);
    } catch {
      return `${String(before).slice(0, 120)} → ${String(after).slice(0, 120)}`;
    }
    const out: string[] = [];
    const walk = (x: Json, y: Json, at: string) => {
      if (out.length >= 5) return;
      if (x && y && typeof x === 'object' && typeof y === 'object') {
        for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) walk(x[k], y[k], at ? `${at}/${k}` : k);
      } else if (JSON.stringify(x) !== JSON.stringify(y))
        out.push(`${at || 'the body'}: ${JSON.stringify(x)?.slice(0, 80)} → ${JSON.stringify(y)?.slice(0, 80)}`);
    };
    walk(a, b, '');
    return out.join('; ') || 'the same JSON, different text';
  }

  async function positiveDataAcceptance(op: Operation) {
    const allowed = writeAllowed(op);
    if (!allowed.ok) return skip('positive_data_acceptance', op, allowed.reason);
    const media = jsonBody(op);
    const queryParams = op.parameters.filter((p) => p.in === 'query' && p.schema);
    const arb = fc.record({
      body: media?.schema ? valid(media.schema) : fc.constant(undefined),
      query: fc.record<Record<string, unknown>>(Object.fromEntries(queryParams.map((p) => [p.name, valid(p.schema)])), {
        requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name),
      }),
    });
    await property('positive_data_acceptance', op, arb, async (input) => {
      await reset();
      const req = requestOf(op, {
        path: allowed.path,
        query: input.query,
        body: op.requestBody ? input.body : undefined,
      });
      const res = await send(req);
      const failures = [];
      if (res.status >= 500 || !(String(res.status) in op.responses))
        failures.push({
          check: 'positive_data_acceptance',
          message: `valid input answered ${res.status}; documented: ${Object.keys(op.responses).join(', ')}`,
        });
      else failures.push(...responseFailures(op, res));
      return {
        failures: failures.filter((f) => CHECKS.has(f.check)),
        what: JSON.stringify(input),
        request: req,
        expected: Object.keys(op.responses).join(', '),
        actual: res.status,
        answer: res.text.slice(0, 300),
      };
    });
  }

  async function ignoredAuth(op: Operation) {
    if (!op.requiresToken || !('401' in op.responses)) return;
    if (needsWrites(op) && !allowWrites) return skip('ignored_auth', op, READ_ONLY_REASON);
    const t0 = Date.now();
    const failures = [];
    let req: Req | undefined;
    for (const auth of ['none', 'garbage']) {
      req = requestOf(op, { auth, body: example(jsonBody(op)) });
      const res = await send(req);
      if (res.status !== 401)
        failures.push({
          check: 'ignored_auth',
          message: `${auth === 'none' ? 'no token' : 'a garbage token'}: answered ${res.status}, expected 401`,
        });
      else failures.push(...responseFailures(op, res).filter((f) => CHECKS.has(f.check)));
      if (failures.length) break;
    }
    record('ignored_auth', op, `ignored_auth ${op.operationId}`, failures.length ? 'fail' : 'pass', {
      ms: Date.now() - t0,
      failures: failures.length ? failures : undefined,
      errors: failures.length ? failures.map((f) => f.message) : undefined,
      request: failures.length ? req : undefined,
      expected: '401',
    });
  }

  /** The id of a created resource in a create's answer: `data.id`, or the path parameter's field. */
  const idOf = (res: Res, param: string) => res.json?.data?.id ?? res.json?.data?.[param.replace(/_id$/, 'Id')];

  async function ensureResourceAvailability(op: Operation) {
    const itemPath = [...byPath.values()].find(
      (o) => o.method === 'get' && o.path.startsWith(`${op.path}/{`) && !o.path.slice(op.path.length + 1).includes('/'),
    );
    if (op.method !== 'post' || !itemPath) return;
    const allowed = writeAllowed(op);
    if (!allowed.ok) return skip('ensure_resource_availability', op, allowed.reason);
    const param = itemPath.path.match(/\{([^}]+)\}$/)![1]!;
    const t0 = Date.now();
    await reset();
    const req = requestOf(op, { body: example(jsonBody(op)) });
    const res = await send(req);
    const fail = (message: string, more = {}) =>
      record('ensure_resource_availability', op, `ensure_resource_availability ${op.operationId}`, 'fail', {
        ms: Date.now() - t0,
        failures: [{ check: 'ensure_resource_availability', message }],
        errors: [message],
        request: req,
        ...more,
      });
    if (!/^2/.test(String(res.status)))
      return skip('ensure_resource_availability', op, `the create with the spec's example answered ${res.status}`);
    const id = idOf(res, param);
    if (id === undefined)
      return skip(
        'ensure_resource_availability',
        op,
        `the answer (${res.status}) names no id of the new resource (queued work)`,
      );
    created.set(param, [...(created.get(param) ?? []), id]);
    const read = await send(requestOf(itemPath, { path: writtenPath({ [param]: id }) }));
    if (read.status !== 200)
      return fail(`created ${param} ${id}, but ${itemPath.path} answered ${read.status}`, {
        expected: 200,
        actual: read.status,
      });
    const list = byPath.get(`get ${op.path}`);
    if (list) {
      const items = await walk(list, { path: writtenPath() });
      if (!items.some((item) => String(item?.id) === String(id)))
        return fail(`created ${param} ${id}, but GET ${op.path} does not list it`, {
          expected: `an item with id ${id}`,
          actual: `${items.length} items`,
        });
    }
    record('ensure_resource_availability', op, `ensure_resource_availability ${op.operationId}`, 'pass', {
      ms: Date.now() - t0,
    });
  }

  async function useAfterDelete(op: Operation) {
    const read = byPath.get(`get ${op.path}`);
    if (op.method !== 'delete' || !read) return;
    const allowed = writeAllowed(op);
    if (!allowed.ok) return skip('use_after_delete', op, allowed.reason);
    const t0 = Date.now();
    await reset();
    const req = requestOf(op, { path: allowed.path, body: example(jsonBody(op)) });
    const res = await send(req);
    if (res.status !== 200 && res.status !== 204)
      return skip('use_after_delete', op, `the delete answered ${res.status}, not a delete done at once (200 or 204)`);
    // A delete that answers the resource in a state ("deleting") is a transition, not a removal.
    const state = res.json?.data?.status ?? res.json?.data?.state;
    if (typeof state === 'string')
      return skip('use_after_delete', op, `the delete answered the resource as ${state}: it is removed later`);
    if (!/\}$/.test(op.path))
      return skip(
        'use_after_delete',
        op,
        'a single sub-resource (no id of its own): its read does not 404 once deleted',
      );
    const after = await send(requestOf(read, { path: writtenPath(allowed.path) }));
    const ok = after.status === 404;
    const message = `deleted (${res.status}), but ${read.method.toUpperCase()} ${read.path} then answered ${after.status}, expected 404`;
    record('use_after_delete', op, `use_after_delete ${op.operationId}`, ok ? 'pass' : 'fail', {
      ms: Date.now() - t0,
      ...(ok
        ? {}
        : {
            failures: [{ check: 'use_after_delete', message }],
            errors: [message],
            request: req,
            expected: 404,
            actual: after.status,
          }),
    });
  }

  /** The items of a list answer: `data`, or the one array inside it (`{name, email, sites}`). */
  function itemsOf(json: Json): Json[] | undefined {
    const data = json?.data;
    if (Array.isArray(data)) return data;
    const arrays = data && typeof data === 'object' ? Object.values(data).filter(Array.isArray) : [];
    return arrays.length === 1 ? arrays[0] : undefined;
  }

  /** The query that asks for a page: per_page and page, and paginate=true where the list is whole unless asked. */
  const pageQuery = (op: Operation, perPage: number, page: number) => ({
    ...(op.parameters.some((p) => p.name === 'paginate') ? { paginate: true } : {}),
    per_page: perPage,
    page,
  });

  /** Every item of a paged list (per_page 50, at most 20 pages), or of an unpaged one. */
  async function walk(op: Operation, { query = {}, body, path }: ListRequest = {}) {
    const paged = op.parameters.some((p) => p.name === 'per_page');
    const items: Json[] = [];
    for (let page = 1; page <= 20; page++) {
      const res = await send(
        requestOf(op, {
          path,
          query: paged ? { ...query, ...pageQuery(op, 50, page) } : query,
          body: body && { ...body, per_page: 50, page },
        }),
      );
      const found = itemsOf(res.json);
      if (!found) break;
      items.push(...found);
      if (!res.json!.page?.nextPage) break;
    }
    return items;
  }

  /** Paging: perPage holds, totalItems and lastPage agree, the pages add up without repeats. */
  async function pagingProblems(op: Operation, { query = {}, body }: ListRequest = {}) {
    const problems: string[] = [];
    const ids: string[] = [];
    let total: number | undefined;
    for (let page = 1; page <= 20; page++) {
      const res = await send(
        requestOf(op, {
          query: body ? query : { ...query, ...pageQuery(op, 2, page) },
          body: body && { ...body, per_page: 2, page },
        }),
      );
      const p = res.json?.page;
      const items = itemsOf(res.json);
      if (res.status !== 200 || !p || !items)
        return [
          `page ${page} with per_page 2: answered ${res.status}${p ? '' : ' without a page block'}${items ? '' : ' without a list'}`,
        ];
      if (items.length > 2) problems.push(`page ${page}: ${items.length} items, per_page was 2`);
      if (p.perPage !== 2) problems.push(`page ${page}: page.perPage is ${p.perPage}, per_page was 2`);
      if (p.currentPage !== page) problems.push(`page ${page}: page.currentPage is ${p.currentPage}`);
      total ??= p.totalItems;
      if (p.totalItems !== total) problems.push(`page ${page}: totalItems ${p.totalItems}, page 1 said ${total}`);
      const last = Math.ceil(p.totalItems / 2);
      if (p.lastPage !== last && !(p.totalItems === 0 && p.lastPage === 1))
        problems.push(
          `page ${page}: lastPage ${p.lastPage} with totalItems ${p.totalItems} and perPage 2 (expected ${last})`,
        );
      ids.push(...items.map((item) => JSON.stringify(item?.id ?? item)));
      const expectedNext = page < p.lastPage! ? page + 1 : null;
      if (p.nextPage !== expectedNext) problems.push(`page ${page}: nextPage ${p.nextPage}, expected ${expectedNext}`);
      if (problems.length || page >= p.lastPage!) break;
    }
    if (!problems.length && total! <= 40 && ids.length !== total)
      problems.push(`the pages hold ${ids.length} items, totalItems is ${total}`);
    if (!problems.length && new Set(ids).size !== ids.length) problems.push('an item is on two pages');
    return problems;
  }

  /** Filters whose meaning the API documentation states: each item must match what was asked. */
  const FILTERS: Record<string, (items: Json[]) => { what: string; body: Json; matches: (i: Json) => boolean }[]> = {
    // POST /sites/search: filters [{key, value}]; keys seen: name, state.
    searchSites: (items: Json[]) =>
      ['state', 'name'].flatMap((key) => {
        const value = items.find((i) => typeof i?.[key] === 'string')?.[key];
        return value === undefined
          ? []
          : [
              {
                what: `${key} = ${value}`,
                body: { filters: [{ key, value }] },
                matches: (i: Json) => i?.[key] === value || String(i?.[key] ?? '').includes(value),
              },
            ];
      }),
  };

  async function filterSemantics(op: Operation) {
    const paged = op.parameters.some((p) => p.name === 'per_page') || jsonBody(op)?.schema?.properties?.per_page;
    if (!isRead(op) || !paged) return;
    if (needsWrites(op) && !allowWrites) return skip('filter_semantics', op, READ_ONLY_REASON);
    const t0 = Date.now();
    const body = jsonBody(op) ? {} : undefined;
    const problems = (await pagingProblems(op, { body })).map((p) => `paging: ${p}`);
    const all = problems.length ? [] : await walk(op, { body });
    for (const filter of FILTERS[op.operationId]?.(all) ?? []) {
      const got = await walk(op, { body: { ...body, ...filter.body } });
      const wrong = got.filter((i) => !filter.matches(i));
      const expected = all.filter(filter.matches).length;
      if (wrong.length) problems.push(`filter ${filter.what}: ${wrong.length} of ${got.length} items do not match`);
      else if (got.length !== expected)
        problems.push(
          `filter ${filter.what}: ${got.length} items, but ${expected} of the unfiltered ${all.length} match`,
        );
    }
    const failures = problems.map((message) => ({ check: 'filter_semantics', message }));
    record('filter_semantics', op, `filter_semantics ${op.operationId}`, failures.length ? 'fail' : 'pass', {
      ms: Date.now() - t0,
      ...(failures.length
        ? {
            failures,
            errors: problems,
            request: requestOf(op, { query: body ? {} : pageQuery(op, 2, 1), body: body && { per_page: 2, page: 1 } }),
          }
        : {}),
    });
  }

  return {
    negativeDataRejection,
    positiveDataAcceptance,
    ignoredAuth,
    ensureResourceAvailability,
    useAfterDelete,
    filterSemantics,
  };
}
