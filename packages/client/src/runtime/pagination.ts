// Async iteration over every item of a paginated operation, following `page.nextPage`.
import type { CallOptions, Operation } from './operation';

export interface PaginateOptions extends Omit<CallOptions, 'raw'> {
  /** Stop after this many items. */
  maxItems?: number;
}

interface PageBlock {
  nextPage?: number | null;
}

/** Any generated method whose result is `{ data: Item[], page }`. */
export type PaginatedOperation<A extends unknown[], I> = Operation<A, { data: I[]; page?: PageBlock | null }, unknown>;

/**
 * Iterates over the items of every page: `for await (const note of paginate(client.sites.notes.list, siteId))`.
 * Arguments are the method's own (path parameters, input), then `PaginateOptions`.
 */
export async function* paginate<A extends unknown[], I>(
  method: PaginatedOperation<A, I>,
  ...args: [...A, PaginateOptions?]
): AsyncGenerator<I, void, undefined> {
  const meta = method.meta;
  if (!meta?.paginated) throw new TypeError(`${meta?.id ?? 'this method'} is not a paginated operation`);
  const n = meta.pathParams.length;
  const path = args.slice(0, n);
  const input = { ...((args[n] as Record<string, unknown> | undefined) ?? {}) };
  const { maxItems = Infinity, ...options } = (args[n + 1] as PaginateOptions | undefined) ?? {};
  if (meta.paginateParam) input[meta.paginateParam] = true; // e.g. GET /sites pages only when asked
  let page = typeof input.page === 'number' ? input.page : 1;
  let count = 0;
  if (count >= maxItems) return;
  const call = method as unknown as (...a: unknown[]) => Promise<{ data: I[]; page?: PageBlock | null }>;
  for (;;) {
    const result = await call(...path, { ...input, page }, options);
    for (const item of result.data ?? []) {
      yield item;
      if (++count >= maxItems) return;
    }
    const next = result.page?.nextPage;
    if (next === undefined || next === null || next <= page) return;
    page = next;
  }
}
