/**
 * paging_consistency: a paged list (`x-list.paging`) walked page by page at a small page size has
 * no item twice, holds `totalItems` items in all, and `lastPage`, `nextPage`, `currentPage` and
 * `perPage` agree with it. Where stated: paging only when asked (`optIn`), the default page size,
 * the maximum, and a larger size applied as the maximum (`overMaximum: clamp`), not refused.
 */

import type { CheckContext, Operation, Req, Statement, StatementCheck } from '../types';
import { addItems, fail, itemsOf, keyOf, optInOf, ownContext, pass, skip, withPaging } from './support';

/** A walk over every page: the total it states, its first request, or what went wrong. */
interface Walked {
  total?: number;
  request?: Req | undefined;
  problem?: string;
}

async function walk(ctx: CheckContext, op: Operation, statement: Statement, size: number): Promise<Walked> {
  const seen: string[] = [];
  let total: number | undefined;
  let request: Req | undefined;
  for (let page = 1; page <= 60; page++) {
    const parts = withPaging(
      statement,
      {},
      { ...optInOf(statement), [statement.page]: page, [statement.perPage]: size },
    );
    const req = ctx.request(op, { query: parts.query, body: parts.body });
    request ??= req;
    const res = await ctx.send(req);
    const p = res.json?.page;
    const items = itemsOf(res.json, op.list?.items);
    const at = `page ${page} at ${statement.perPage} ${size}`;
    if (res.status !== 200 || !p || !items)
      return {
        problem: `${at}: answered ${res.status}${p ? '' : ' without a page block'}${items ? '' : ' without a list'}`,
        request: req,
      };
    total ??= p.totalItems;
    // A long list is walked again at a page size that needs at most 60 pages, within the stated maximum.
    const fitting = Math.min(statement.maximum ?? Number.POSITIVE_INFINITY, Math.ceil(total / 60));
    if (page === 1 && fitting > size) return walk(ctx, op, statement, fitting);
    const last = Math.max(1, Math.ceil(total / size));
    const problem =
      (items.length > size && `${at}: ${items.length} items`) ||
      (p.perPage !== size && `${at}: page.perPage is ${p.perPage}`) ||
      (p.currentPage !== page && `${at}: page.currentPage is ${p.currentPage}`) ||
      (p.totalItems !== total && `${at}: totalItems ${p.totalItems}, page 1 said ${total}`) ||
      (p.lastPage !== last && `${at}: lastPage ${p.lastPage}, but ${total} items at ${size} a page make ${last}`) ||
      (p.nextPage !== (page < last ? page + 1 : null) &&
        `${at}: nextPage ${p.nextPage}, expected ${page < last ? page + 1 : null}`) ||
      (page < last && items.length !== size && `${at}: ${items.length} items on a page before the last`);
    if (problem) return { problem, request: req };
    seen.push(...items.map(keyOf));
    if (page >= last) break;
  }
  if (new Set(seen).size !== seen.length)
    return { problem: `an item is on two pages (walked at ${size} a page)`, request };
  // More pages than the walk reads (a list longer than 60 pages at the maximum): the union is not counted.
  if (seen.length !== total && Math.ceil((total ?? 0) / size) <= 60)
    return { problem: `the pages hold ${seen.length} items, totalItems is ${total}`, request };
  return { total, request };
}

/** A walk, again once if the list changed under it (a server whose clock runs ages entries out). */
async function walkSteady(ctx: CheckContext, op: Operation, statement: Statement, size: number): Promise<Walked> {
  const walked = await walk(ctx, op, statement, size);
  return walked.problem?.includes(', page 1 said ') ? walk(ctx, op, statement, size) : walked;
}

async function checkPaging(ctx: CheckContext, op: Operation, statement: Statement) {
  const first = await walkSteady(ctx, op, statement, 2);
  // Too few items to page: the run makes some where a create links to the list, and deletes them after.
  if (!first.problem && (first.total ?? 0) < 2) {
    const more = await addItems(ctx, op, 2 - (first.total ?? 0));
    try {
      if (more.made) return await checkWalked(ctx, op, statement, await walkSteady(ctx, op, statement, 1));
    } finally {
      await more.cleanup();
    }
  }
  return checkWalked(ctx, op, statement, first);
}

async function checkWalked(ctx: CheckContext, op: Operation, statement: Statement, walked: Walked) {
  let first = walked;
  // Two items make two pages of one.
  if (!first.problem && first.total === 2) first = await walkSteady(ctx, op, statement, 1);
  if (first.problem) return fail(statement, first.problem, { request: first.request });
  if ((first.total ?? 0) < 2) return skip(statement, `${first.total} item(s): too few to see paging (needs 2)`);
  const problems: string[] = [];
  let request: Req | undefined;
  const ask = async (extra: Record<string, unknown>, withOptIn = true) => {
    const parts = withPaging(statement, {}, { ...(withOptIn ? optInOf(statement) : {}), ...extra });
    request = ctx.request(op, { query: parts.query, body: parts.body });
    return ctx.send(request);
  };
  if (statement.optIn) {
    const res = await ask({}, false);
    const items = itemsOf(res.json, op.list?.items);
    if (res.status !== 200 || res.json?.page !== undefined || items?.length !== first.total)
      problems.push(
        `without asking for paging: answered ${res.status}, ${res.json?.page ? 'with' : 'without'} a page block, ${items?.length} of ${first.total} items (paging is only when asked)`,
      );
  }
  if (!problems.length && statement.default !== undefined) {
    const res = await ask({ [statement.page]: 1 });
    if (res.json?.page?.perPage !== statement.default)
      problems.push(
        `without ${statement.perPage}: page.perPage is ${res.json?.page?.perPage}, the default is ${statement.default}`,
      );
  }
  if (!problems.length && statement.maximum !== undefined) {
    const over = statement.overMaximum === 'clamp';
    const res = await ask({
      [statement.page]: 1,
      [statement.perPage]: over ? statement.maximum + 1 : statement.maximum,
    });
    if (over && (res.status !== 200 || res.json?.page?.perPage !== statement.maximum))
      problems.push(
        `${statement.perPage} ${statement.maximum + 1} is applied as ${statement.maximum}, but it answered ${res.status} with page.perPage ${res.json?.page?.perPage}`,
      );
    if (!over && (res.status !== 200 || (itemsOf(res.json, op.list?.items)?.length ?? 0) > statement.maximum))
      problems.push(`${statement.perPage} ${statement.maximum} (the maximum) answered ${res.status}`);
  }
  return problems.length ? fail(statement, problems[0]!, { request }) : pass(statement);
}

export default {
  name: 'paging_consistency',
  kinds: ['paging'],
  doc: 'Walking a paged list page by page: no repeats, the pages hold totalItems items, lastPage/nextPage/perPage agree; stated defaults, maxima, clamps and opt-in paging hold.',
  async run(ctx: CheckContext, op: Operation) {
    if (!op.list?.paging) return [];
    const found = await checkPaging(ctx, op, op.list.paging);
    // Too few items where the list was read: the same list of what the run made (its own site).
    const own = found.outcome === 'skip' && ownContext(ctx, op);
    return [own ? await checkPaging(own, op, op.list.paging) : found];
  },
} satisfies StatementCheck;
