/**
 * list_order: a list answers in the order it states (`x-list.order`: sort keys, most significant
 * first; "favorites first", "newest first"), across every page. An order whose items carry no
 * field for it (restores "newest first") cannot be observed and is skipped.
 */

import type { Case, CheckContext, Json, Operation, Statement, StatementCheck } from '../types';
import { addItems, fail, ownContext, pass, readAll, skip, valueAt } from './support';

/** -1, 0 or 1: `a` before, with or after `b` by one key. */
function compare(a: Json, b: Json) {
  if (a === b) return 0;
  if (typeof a === 'boolean' || typeof b === 'boolean') return Number(Boolean(a)) - Number(Boolean(b));
  const [x, y] = [Date.parse(a), Date.parse(b)];
  if (
    typeof a === 'string' &&
    typeof b === 'string' &&
    !Number.isNaN(x) &&
    !Number.isNaN(y) &&
    /\d{4}-\d\d-\d\d/.test(a)
  )
    return Math.sign(x - y);
  if (typeof a === 'number' && typeof b === 'number') return Math.sign(a - b);
  return String(a).localeCompare(String(b));
}

export default {
  name: 'list_order',
  kinds: ['order'],
  doc: 'A list answers in the order stated in x-list.order (favorites first, newest first), across every page.',
  async run(ctx: CheckContext, op: Operation) {
    const keys: Statement[] = Array.isArray(op.list?.order) ? op.list.order : [];
    if (!keys.length) return [];
    const observable = keys.filter((k) => k.field);
    if (!observable.length)
      return keys.map((k) => skip(k, `"${k.says ?? k.direction}": the items carry no field to observe it`));
    let all = await readAll(ctx, op, { perPage: 2 });
    // Too few items where the list was read: the same list of what the run made (its own site),
    // with items added through the create that lists them when it holds fewer than three.
    let reader: CheckContext = ctx;
    const own = !all.problem && all.items.length < 3 && ownContext(ctx, op);
    if (own) {
      reader = own;
      all = await readAll(own, op, { perPage: 2 });
    }
    const added = !all.problem && all.items.length < 3 ? await addItems(reader, op, 3 - all.items.length) : undefined;
    try {
      if (added?.made) all = await readAll(reader, op, { perPage: 2 });
      // An opt-in paged list is also read page by page (two items a page): the order holds across pages.
      const whole = orderCases(keys, all);
      const pages = !all.problem && op.list?.paging?.optIn && (await readAll(reader, op, { perPage: 2, optIn: true }));
      if (!pages || pages.problem || pages.items.length < 3) return whole;
      const paged = orderCases(keys, pages);
      return whole.map((c, i) => (c.outcome === 'fail' ? c : paged[i]!));
    } finally {
      await added?.cleanup();
    }
  },
} satisfies StatementCheck;

/** A case per sort key: the items of `all` (in the order read) keep it. */
function orderCases(keys: Statement[], all: Awaited<ReturnType<typeof readAll>>) {
  if (all.problem) return keys.map((k) => skip(k, all.problem!));
  if (all.items.length < 2) return keys.map((k) => skip(k, `${all.items.length} item(s): no order to see`));
  const cases: Case[] = [];
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    if (!key.field) {
      cases.push(skip(key, `"${key.says ?? key.direction}": the items carry no field to observe it`));
      continue;
    }
    const before = keys.slice(0, k).filter((p) => p.field);
    let broken: number | undefined;
    for (let i = 1; i < all.items.length && !broken; i++) {
      const [a, b] = [all.items[i - 1], all.items[i]];
      // Only pairs that the more significant keys leave equal.
      if (before.some((p) => compare(valueAt(a, p.field), valueAt(b, p.field)) !== 0)) continue;
      const c = compare(valueAt(a, key.field), valueAt(b, key.field));
      if (key.direction === 'desc' ? c < 0 : c > 0) broken = i;
    }
    const distinct = new Set(all.items.map((i) => JSON.stringify(valueAt(i, key.field)))).size;
    if (broken)
      cases.push(
        fail(
          key,
          `"${key.says ?? `${key.field} ${key.direction}`}" does not hold: item ${broken} has ${key.field} ${JSON.stringify(valueAt(all.items[broken - 1], key.field))}, item ${broken + 1} has ${JSON.stringify(valueAt(all.items[broken], key.field))}`,
          {
            request: all.request,
            expected: `${key.field} ${key.direction}`,
            actual: all.items
              .map((i) => JSON.stringify(valueAt(i, key.field)))
              .slice(0, 10)
              .join(', '),
          },
        ),
      );
    else if (distinct < 2) cases.push(skip(key, `every item has the same ${key.field}: no order to see`));
    else cases.push(pass(key));
  }
  return cases;
}
