/**
 * list_search: a list's search (`x-list.search`) matches the fields it names. A word is taken
 * from an item's first search field; every item answered holds it in one of the fields (case
 * aside), and every item of the unsearched list that holds it exactly is answered.
 */

import type { CheckContext, Json, Operation, Statement, StatementCheck } from '../types';
import { fail, fill, keyOf, pass, readAll, skip, valueAt } from './support';

const texts = (item: Json, fields: string[]) =>
  fields.map((f) => valueAt(item, f)).filter((v) => typeof v === 'string');

async function checkSearch(ctx: CheckContext, op: Operation, statement: Statement) {
  const all = await readAll(ctx, op);
  if (all.problem) return skip(statement, `the unsearched list: ${all.problem}`);
  const fields = statement.fields ?? [];
  // A word of at least 4 letters from the first field that has one, not held by every item.
  const words = all.items.flatMap((i) => texts(i, fields.slice(0, 1)).flatMap((t) => t.match(/[A-Za-z]{4,}/g) ?? []));
  const text = words.find((w) => all.items.some((i) => !texts(i, fields).some((t) => t.includes(w)))) ?? words[0];
  if (!text) return skip(statement, `no item has a word in ${fields[0]} to search for`);
  const got = await readAll(ctx, op, {
    query: fill(statement.query ?? {}, text),
    body: statement.body && fill(statement.body, text),
  });
  if (got.problem) return fail(statement, `search ${JSON.stringify(text)}: ${got.problem}`, { request: got.request });
  const lower = text.toLowerCase();
  const wrong = got.items.filter((i) => !texts(i, fields).some((t) => t.toLowerCase().includes(lower)));
  if (wrong.length)
    return fail(
      statement,
      `search ${JSON.stringify(text)}: ${wrong.length} of ${got.items.length} items hold it in none of ${fields.join(', ')}`,
      {
        request: got.request,
        expected: `items holding ${JSON.stringify(text)}`,
        actual: `${wrong.length} that do not`,
      },
    );
  const answered = new Set(got.items.map(keyOf));
  const missing = all.items.filter((i) => texts(i, fields).some((t) => t.includes(text)) && !answered.has(keyOf(i)));
  if (missing.length)
    return fail(
      statement,
      `search ${JSON.stringify(text)}: ${missing.length} items that hold it in ${fields.join(', ')} are not answered`,
      {
        request: got.request,
        expected: `${got.items.length + missing.length} items`,
        actual: `${got.items.length} items`,
      },
    );
  return pass(statement);
}

export default {
  name: 'list_search',
  kinds: ['search'],
  doc: 'A list search stated in x-list.search finds exactly the items that hold the text in one of its fields.',
  async run(ctx: CheckContext, op: Operation) {
    return op.list?.search ? [await checkSearch(ctx, op, op.list.search)] : [];
  },
} satisfies StatementCheck;
