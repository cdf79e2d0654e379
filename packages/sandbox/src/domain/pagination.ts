// The `page` block (part 1): currentPage, nextPage (null on the last page), lastPage, perPage
// (the applied size), totalItems. A page past the end is empty, not an error.
import type { Page } from './types.js';

/** Items per page when a list request names none (part 1). */
export const DEFAULT_PER_PAGE = 20;

export function paginate<T>(items: readonly T[], page = 1, perPage = DEFAULT_PER_PAGE): { items: T[]; page: Page } {
  const lastPage = Math.max(1, Math.ceil(items.length / perPage));
  const start = (page - 1) * perPage;
  return {
    items: items.slice(start, start + perPage),
    page: {
      currentPage: page,
      nextPage: page < lastPage ? page + 1 : null,
      lastPage,
      perPage,
      totalItems: items.length,
    },
  };
}
