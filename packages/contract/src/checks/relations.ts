// What counts_follow_lists and timestamps_move share: the `x-relation` statements about what a read
// answers (its `data`, or each item of a list), found by the schema the read answers.
import type { CheckContext, Json, Operation, Statement } from '../types';
import { valueAt } from './support';

/** The success answer's `data` schema of an operation (dereferenced). */
const dataOf = (op: Operation): Json =>
  op.responses[String(op.successStatus)]?.content?.['application/json']?.schema?.properties?.data;

/** The relation statements of `kind` about what `op` answers, and where: the data itself, or each item. */
export function relationsOf(ctx: CheckContext, op: Operation, kind: 'count' | 'timestamp' | 'segment') {
  const data = dataOf(op);
  const schemas = ctx.model.dereferenced?.components?.schemas ?? {};
  const out: { statement: Statement; each: boolean }[] = [];
  // The same component: the same property names, the stated one carrying the relation.
  const isSchema = (node: Json, name: string, field: string) =>
    node?.properties?.[field]?.['x-relation'] !== undefined &&
    Object.keys(node.properties).join() === Object.keys(schemas[name]?.properties ?? {}).join();
  for (const s of ctx.model.statements.filter((x) => x.kind === kind)) {
    if (isSchema(data, s.schema, s.field)) out.push({ statement: s, each: false });
    else if (isSchema(data?.items, s.schema, s.field)) out.push({ statement: s, each: true });
  }
  return out;
}

/** The objects of an answer a relation is about: its `data`, or each item of it. */
export const subjectsOf = (json: Json, each: boolean): Json[] =>
  each ? (Array.isArray(json?.data) ? json.data : []) : json?.data && typeof json.data === 'object' ? [json.data] : [];

export { valueAt };
