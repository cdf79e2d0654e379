#!/usr/bin/env node
// Writes src/generated/operations.ts: the command table of the CLI, read from the bundled spec
// (@hosting-api/openapi/model). One entry per operation with an `x-client-method`: its path
// arguments, its query and body fields as typed flags, its help texts, and how `--wait` follows it.
// Nothing here names an operation: every fact comes from the spec, so a new operation in the spec
// is a new command after the next build. Run by turbo before `build` (after the spec's bundle).
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadModel } from '@hosting-api/openapi/model';

/** Options the CLI itself defines on every command; a spec field with one of these names would be ambiguous. */
const RESERVED = new Set(['help', 'json', 'data', 'wait', 'timeout', 'paginate', 'base-url', 'auth-url', 'columns']);
const SCALARS = new Set(['string', 'integer', 'number', 'boolean']);

const model = await loadModel();
const problems = [];

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

const firstSentence = (text = '') => {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = flat.search(/\.(\s|$)/);
  return end === -1 ? flat : flat.slice(0, end + 1);
};

/** The spec's Markdown with its source line breaks joined (list items keep theirs), for the terminal to wrap. */
const unwrap = (text = '') =>
  text
    .trim()
    .split(/\n\s*\n/)
    .map((para) => para.replace(/\n(?!\s*- )\s*/g, ' '))
    .join('\n\n');

const json = (o) => o.responses[String(o.successStatus)]?.content?.['application/json']?.schema;
const dataSchema = (o) => json(o)?.properties?.data;
const stateField = (schema) =>
  ['state', 'status'].find((f) => schema?.properties?.[f] && fieldType(schema.properties[f]).type === 'string');
const pathParams = (path) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);

/**
 * How `--wait` follows a write, when the spec lets it: the write answers a resource with a `state`
 * or `status` and the resource can be read back with a GET of the spec.
 * - a POST that answers a new resource with a non-null `id`: the GET at a prefix of the POST's path
 *   plus one path parameter (`POST /sites` → `GET /sites/{site_id}`), given that `id`;
 * - a DELETE that answers the resource being deleted: the GET at the same path.
 * It is followed until that field leaves the value the write answered (or the read answers 404
 * after a DELETE). PUTs are not followed: they answer the state they set.
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
    if (read) {
      const idParam = pathParams(read.path).at(-1);
      const known = new Set(pathParams(prefix));
      if (
        pathParams(read.path)
          .slice(0, -1)
          .every((p) => known.has(p))
      )
        return { read: read.operationId, field, idParam, gone: false };
    }
  }
  return undefined;
}

const gets = model.operations.filter((o) => o.method === 'get');
const operations = [];
const seen = new Map();
for (const o of model.operations) {
  if (!o.clientMethod) {
    problems.push(`${o.operationId} has no x-client-method`);
    continue;
  }
  const args = o.parameters
    .filter((p) => p.in === 'path')
    .map((p) => ({
      name: p.name,
      type: fieldType(p.schema).type === 'integer' ? 'integer' : 'string',
      description: firstSentence(p.description),
    }));
  const options = [];
  for (const p of o.parameters.filter((p) => p.in === 'query')) {
    options.push({
      name: p.name,
      in: 'query',
      required: p.required === true,
      description: firstSentence(p.description ?? p.schema?.description),
      ...fieldType(p.schema),
    });
  }
  let body;
  const media = o.requestMediaTypes[0];
  if (media) {
    const schema = o.requestBody.content[media].schema ?? {};
    body = {
      encoding: media === 'application/x-www-form-urlencoded' ? 'form' : 'json',
      required: o.requestBodyRequired,
      description: firstSentence(o.requestBody.description ?? schema.description),
    };
    for (const [name, s] of Object.entries(schema.properties ?? {})) {
      options.push({
        name,
        in: 'body',
        required: (schema.required ?? []).includes(name),
        description: firstSentence(s.description),
        ...fieldType(s),
      });
    }
  }
  for (const opt of options)
    if (RESERVED.has(opt.name) && !(opt.name === 'paginate' && opt.in === 'query'))
      problems.push(`${o.operationId}: the field ${opt.name} has the name of an option of the CLI`);
  const words = o.clientMethod.split('.');
  const key = words.join(' ');
  if (seen.has(key)) problems.push(`${o.operationId} and ${seen.get(key)} are both \`${key}\``);
  seen.set(key, o.operationId);
  const item = dataSchema(o)?.type === 'array' ? dataSchema(o).items : undefined;
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
    ...(waitRule(o, gets) ? { wait: waitRule(o, gets) } : {}),
  });
}
// A word that is both a command and a group of commands cannot be parsed.
for (const a of operations)
  for (const b of operations)
    if (a !== b && b.words.length > a.words.length && a.words.every((w, i) => b.words[i] === w))
      problems.push(`\`${a.words.join(' ')}\` is both a command (${a.id}) and a group (${b.id})`);
if (problems.length) {
  console.error(`generate: the spec gives an ambiguous command line:\n  - ${problems.join('\n  - ')}`);
  process.exit(1);
}

const out = new URL('../src/generated/', import.meta.url);
mkdirSync(out, { recursive: true });
writeFileSync(
  new URL('operations.ts', out),
  `// Generated by scripts/generate.mjs from the bundled spec. Do not edit: change the spec or the generator.
import type { CommandSpec } from '../spec';

export const apiUrl = ${JSON.stringify(model.apiUrl)};
export const authUrl = ${JSON.stringify(model.authUrl ?? null)};
export const title = ${JSON.stringify(model.document.info?.title ?? '')};
export const tags: Record<string, string> = ${JSON.stringify(Object.fromEntries((model.document.tags ?? []).map((t) => [t.name, firstSentence(t.description)])), null, 1)};
export const operations: readonly CommandSpec[] = ${JSON.stringify(operations, null, 1)};
`,
);
console.log(
  `generate: ${operations.length} commands (${operations.filter((o) => o.wait).length} with --wait: ${operations
    .filter((o) => o.wait)
    .map((o) => o.id)
    .join(', ')})`,
);
