#!/usr/bin/env node
// Writes packages/cli/src/generated/operations.ts, the CLI's commands, from the bundled spec: per operation its
// path arguments, its query and body fields as typed flags, its help and how `--wait` follows it. Names no operation.
import { loadModel } from '@hosting-api/openapi/model';
import { failOn, firstSentence, unwrap, writeGenerated } from '../shared/spec-text.mjs';

/** Options the CLI itself defines on every command; a spec field with one of these names would be ambiguous. */
const RESERVED = new Set(['help', 'json', 'data', 'wait', 'timeout', 'paginate', 'base-url', 'auth-url', 'columns']);
const SCALARS = new Set(['string', 'integer', 'number', 'boolean']);

const [model, problems] = [await loadModel(), []];

/** How a value of this schema is read from the command line. */
function fieldType(schema = {}) {
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
    const alternatives = (schema.anyOf ?? schema.oneOf).map((s) => fieldType(s));
    if (alternatives.every((a) => a.kind === 'scalar'))
      return { kind: 'union', types: alternatives.map((a) => a.type), nullable: alternatives.some((a) => a.nullable) };
    return { kind: 'json' };
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  const nullable = types.includes('null') || (Array.isArray(schema.enum) && schema.enum.includes(null));
  const base = types.filter((t) => t !== 'null');
  if (base.length === 1 && SCALARS.has(base[0])) {
    const out = { kind: 'scalar', type: base[0] };
    if (nullable) out.nullable = true;
    if (Array.isArray(schema.enum)) out.enum = schema.enum.filter((v) => v !== null);
    if (typeof schema.minimum === 'number') out.minimum = schema.minimum;
    if (typeof schema.maximum === 'number') out.maximum = schema.maximum;
    return out;
  }
  if (base.length === 1 && base[0] === 'array') {
    const items = fieldType(schema.items);
    return items.kind === 'scalar' ? { kind: 'array', items } : { kind: 'json' };
  }
  return { kind: 'json' };
}

const dataSchema = (o) => o.responses[String(o.successStatus)]?.content?.['application/json']?.schema?.properties?.data;
const stateField = (schema) =>
  ['state', 'status'].find((f) => schema?.properties?.[f] && fieldType(schema.properties[f]).type === 'string');
const pathParams = (path) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);

/**
 * How `--wait` follows a write that answers a resource with a `state` or `status` the spec can read back:
 * a POST answering a new resource with a non-null `id`, through the GET at a prefix of its path plus one
 * parameter (`POST /sites` → `GET /sites/{site_id}`); a DELETE, through the GET at its path. It is followed
 * until the field leaves the value the write answered (or the read answers 404 after a DELETE). PUTs answer
 * the state they set.
 */
function waitRule(o, gets) {
  const data = dataSchema(o);
  const field = stateField(data);
  if (!field) return undefined;
  const sameField = (g) => stateField(dataSchema(g)) === field;
  if (o.method === 'delete') {
    const read = gets.find((g) => g.path === o.path && sameField(g));
    return read && { read: read.operationId, field, idParam: undefined, gone: true };
  }
  if (o.method !== 'post') return undefined;
  const id = fieldType(data.properties.id);
  if (id.kind !== 'scalar' || id.nullable) return undefined;
  const segments = o.path.split('/');
  for (let n = segments.length; n > 1; n--) {
    const prefix = segments.slice(0, n).join('/');
    const read = gets.find(
      (g) => g.path.startsWith(`${prefix}/{`) && /^\{[^}/]+\}$/.test(g.path.slice(prefix.length + 1)) && sameField(g),
    );
    const params = read ? pathParams(read.path) : [];
    if (read && params.slice(0, -1).every((p) => prefix.includes(`{${p}}`)))
      return { read: read.operationId, field, idParam: params.at(-1), gone: false };
  }
  return undefined;
}

/** A query or body field as a flag. */
const flag = (name, where, required, schema = {}, text = schema.description) => ({
  name,
  in: where,
  required,
  description: firstSentence(text),
  ...fieldType(schema),
});

const [gets, operations, seen] = [model.operations.filter((o) => o.method === 'get'), [], new Map()];
for (const o of model.operations.filter((o) => !o.clientMethod))
  problems.push(`${o.operationId} has no x-client-method`);
for (const o of model.operations.filter((o) => o.clientMethod)) {
  const args = o.parameters
    .filter((p) => p.in === 'path')
    .map((p) => ({
      name: p.name,
      type: fieldType(p.schema).type === 'integer' ? 'integer' : 'string',
      description: firstSentence(p.description),
    }));
  const options = o.parameters
    .filter((p) => p.in === 'query')
    .map((p) => flag(p.name, 'query', p.required === true, p.schema, p.description ?? p.schema?.description));
  const media = o.requestMediaTypes[0];
  const schema = media ? (o.requestBody.content[media].schema ?? {}) : {};
  const encoding = media === 'application/x-www-form-urlencoded' ? 'form' : 'json';
  const description = firstSentence(o.requestBody?.description ?? schema.description);
  const body = media && { encoding, required: o.requestBodyRequired, description };
  for (const [name, s] of Object.entries(schema.properties ?? {}))
    options.push(flag(name, 'body', (schema.required ?? []).includes(name), s));
  for (const opt of options)
    if (RESERVED.has(opt.name) && !(opt.name === 'paginate' && opt.in === 'query'))
      problems.push(`${o.operationId}: the field ${opt.name} has the name of an option of the CLI`);
  const [words, key] = [o.clientMethod.split('.'), o.clientMethod.replaceAll('.', ' ')];
  if (seen.has(key)) problems.push(`${o.operationId} and ${seen.get(key)} are both \`${key}\``);
  seen.set(key, o.operationId);
  const item = dataSchema(o)?.type === 'array' ? dataSchema(o).items : undefined;
  const wait = waitRule(o, gets);
  operations.push({
    id: o.operationId,
    words,
    method: o.method.toUpperCase(),
    path: o.path,
    tag: o.tags[0],
    summary: o.summary,
    description: unwrap(o.operation.description),
    args,
    options,
    ...(body ? { body } : {}),
    ...(item?.properties ? { columns: Object.keys(item.properties) } : {}),
    ...(wait ? { wait } : {}),
  });
}
// A word that is both a command and a group of commands cannot be parsed.
for (const a of operations)
  for (const b of operations)
    if (a !== b && b.words.length > a.words.length && a.words.every((w, i) => b.words[i] === w))
      problems.push(`\`${a.words.join(' ')}\` is both a command (${a.id}) and a group (${b.id})`);
failOn(problems, 'generate: the spec gives an ambiguous command line');

const tags = Object.fromEntries((model.document.tags ?? []).map((t) => [t.name, firstSentence(t.description)]));
writeGenerated(
  'packages/cli/src/generated/operations.ts',
  'generators/cli/commands.mjs',
  `import type { CommandSpec } from '../spec';

export const apiUrl = ${JSON.stringify(model.apiUrl)};
export const authUrl = ${JSON.stringify(model.authUrl ?? null)};
export const title = ${JSON.stringify(model.document.info?.title ?? '')};
export const tags: Record<string, string> = ${JSON.stringify(tags, null, 1)};
export const operations: readonly CommandSpec[] = ${JSON.stringify(operations, null, 1)};
`,
);
const waits = operations.filter((o) => o.wait).map((o) => o.id);
console.log(`generate: ${operations.length} commands (${waits.length} with --wait: ${waits.join(', ')})`);
