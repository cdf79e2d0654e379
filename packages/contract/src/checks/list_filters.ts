/**
 * list_filters: every filter a list states (`x-list.filters`) does what it says. A value is taken
 * from the unfiltered list (a part of one for `contains`), the filter applied: every item answered
 * matches (case aside, which the documentation does not state), every item of the unfiltered list
 * that matches exactly is answered, and a paged answer's `totalItems` counts the filtered items.
 * A fixed-value filter (`value`) holds for each item, and with `default: true` without the
 * parameter too; `all` values give the unfiltered list; `otherValues: empty` gives no item.
 *
 * The target's clock runs: queued work (the run's own, or another client's) adds, changes and
 * removes items between the reads. An item counts against the filter only when a second unfiltered
 * read, taken after the filtered one, agrees with the first about it; what changed in between is
 * concurrent. A failure that does not happen again when the check runs again is `flaky` (flaky.ts).
 */

import { judgeCase } from '../flaky';
import type { CheckContext, Json, Operation, Statement, StatementCheck } from '../types';
import { fail, fill, keyOf, matches, pass, readAll, skip, valueAt } from './support';

type Read = Awaited<ReturnType<typeof readAll>>;

/** A value to filter by: one that some but not all items have, a part of it for `contains`. */
function pickValue(items: Json[], field: string, operator: string) {
  const values = items.map((i) => valueAt(i, field)).filter((v) => typeof v === 'string' && v.length);
  if (!values.length) return undefined;
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const chosen = [...counts.keys()].find((v) => (counts.get(v) ?? 0) < items.length) ?? values[0];
  if (operator !== 'contains' || chosen.length < 3) return chosen;
  return chosen.slice(1, -1);
}

/**
 * Where `got`, a read that should answer the whole list, and the unfiltered list disagree: items
 * left out that the unfiltered reads before and after it both have, and items answered that neither
 * has. Items created or deleted between the reads are concurrent, not a disagreement.
 */
async function unlike(ctx: CheckContext, op: Operation, before: Read, got: Read) {
  // A list read in part (readAll's page limit) is not compared.
  if (before.truncated || got.truncated) return { missing: [], extra: [] };
  const had = new Set(before.items.map(keyOf));
  const answered = new Set(got.items.map(keyOf));
  const missing = [...had].filter((k) => !answered.has(k));
  const extra = [...answered].filter((k) => !had.has(k));
  if (!missing.length && !extra.length) return { missing, extra };
  const after = await readAll(ctx, op);
  if (after.problem || after.truncated) return { missing, extra };
  const now = new Set(after.items.map(keyOf));
  return { missing: missing.filter((k) => now.has(k)), extra: extra.filter((k) => !now.has(k)) };
}

async function checkFilter(ctx: CheckContext, op: Operation, statement: Statement) {
  const all = await readAll(ctx, op);
  if (all.problem) return skip(statement, `the unfiltered list: ${all.problem}`);
  const operator = statement.operator ?? 'equals-or-contains';
  const apply = (value: Json) => ({
    query: fill(statement.query ?? {}, value),
    body: statement.body && fill(statement.body, value),
  });
  const fixed = 'value' in statement;
  const value = fixed ? statement.value : pickValue(all.items, statement.field, operator);
  if (value === undefined) return skip(statement, `no item of the list has a ${statement.field} to filter by`);
  const got = await readAll(ctx, op, apply(value));
  if (got.problem)
    return fail(statement, `filter ${statement.field} ${operator} ${JSON.stringify(value)}: ${got.problem}`, {
      request: got.request,
      status: got.first?.status,
    });
  const where = `filter ${statement.field} ${operator} ${JSON.stringify(value)}`;
  const wrong = got.items.filter((i) => !matches(valueAt(i, statement.field), value, operator, false));
  if (wrong.length)
    return fail(
      statement,
      `${where}: ${wrong.length} of ${got.items.length} items do not match (first: ${statement.field} = ${JSON.stringify(valueAt(wrong[0], statement.field))})`,
      {
        request: got.request,
        status: got.first?.status,
        expected: `every item's ${statement.field} ${operator} ${JSON.stringify(value)}`,
        actual: `${wrong.length} items that do not`,
      },
    );
  const answered = new Set(got.items.map(keyOf));
  const expected = all.items.filter((i) =>
    matches(valueAt(i, statement.field), value, operator === 'contains' ? 'contains' : 'equals', true),
  );
  // A list longer than readAll's page limit (a shared account's activity log after many runs) is
  // read in part: what it holds is checked, the counts are not.
  const partial = got.truncated || all.truncated;
  let missing = fixed || partial ? [] : expected.filter((i) => !answered.has(keyOf(i)));
  // Missing only if the list still has it, still matching, after the filtered read.
  const after = missing.length ? await readAll(ctx, op) : undefined;
  if (after && !after.problem && !after.truncated) {
    const now = new Map(after.items.map((i) => [keyOf(i), i]));
    missing = missing.filter((i) => {
      const later = now.get(keyOf(i));
      return (
        later && matches(valueAt(later, statement.field), value, operator === 'contains' ? 'contains' : 'equals', true)
      );
    });
  }
  if (missing.length)
    return fail(
      statement,
      `${where}: ${missing.length} of the ${expected.length} matching items of the unfiltered list are not answered`,
      {
        request: got.request,
        status: got.first?.status,
        expected: `at least ${expected.length} items`,
        actual: `${got.items.length} items`,
      },
    );
  if (got.total !== undefined && !partial && got.total !== got.items.length)
    return fail(
      statement,
      `${where}: page.totalItems is ${got.total}, but the filtered pages hold ${got.items.length} items`,
      {
        request: got.request,
        status: got.first?.status,
        expected: got.items.length,
        actual: got.total,
      },
    );
  if (fixed && statement.default) {
    const off = all.items.filter((i) => !matches(valueAt(i, statement.field), value, 'equals', true));
    if (off.length)
      return fail(
        statement,
        `without the filter (default ${statement.field} = ${JSON.stringify(value)}), ${off.length} items have another ${statement.field}`,
        {
          request: all.request,
          status: all.first?.status,
        },
      );
  }
  for (const everything of statement.all ?? []) {
    const res = await readAll(ctx, op, apply(everything));
    const off = res.problem ? undefined : await unlike(ctx, op, all, res);
    if (res.problem || off?.missing.length || off?.extra.length)
      return fail(
        statement,
        `${statement.field} = ${JSON.stringify(everything)} means no filter, but it answered ${
          res.problem ??
          `${res.items.length} items of ${all.items.length}: ${off!.missing.length} items of the unfiltered list left out, ${off!.extra.length} not in it`
        }`,
        {
          request: res.request,
          status: res.first?.status,
          expected: all.items.length,
          actual: res.problem ? res.first?.status : res.items.length,
        },
      );
  }
  if (statement.otherValues === 'empty') {
    const other = `no-such-${statement.field}-${Date.now().toString(36)}`;
    const res = await readAll(ctx, op, apply(other));
    if (res.problem || res.items.length)
      return fail(
        statement,
        `${statement.field} = ${JSON.stringify(other)} (not a documented value) must give an empty list, but it answered ${res.problem ?? `${res.items.length} items`}`,
        {
          request: res.request,
          status: res.first?.status,
          expected: 0,
          actual: res.problem ? res.first?.status : res.items.length,
        },
      );
  }
  return pass(statement);
}

export default {
  name: 'list_filters',
  kinds: ['filter'],
  doc: 'Every filter a list states in x-list.filters (field, operator, parameter) does what it says: every item answered matches, every matching item is answered, totalItems counts the filtered items; "all" and other values as stated.',
  async run(ctx: CheckContext, op: Operation) {
    const cases = [];
    for (const statement of op.list?.filters ?? []) {
      const again = () => checkFilter(ctx, op, statement);
      cases.push(await judgeCase('list_filters', await again(), again));
    }
    return cases;
  },
} satisfies StatementCheck;
