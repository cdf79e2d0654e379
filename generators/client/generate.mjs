#!/usr/bin/env node
// Writes packages/client/src/generated/client.ts (types, grouped methods, the runtime's `meta`) from the spec.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadModel } from '@hosting-api/openapi/model';
import config from './client.config.mjs';

const str = JSON.stringify;
const pascal = (s) => s.replace(/(^|[^A-Za-z0-9])([A-Za-z0-9])/g, (_, __, c) => c.toUpperCase());
const SCALARS = { integer: 'number', number: 'number', string: 'string' };
const camel = (s) => s.replace(/[-_]+([A-Za-z0-9])/g, (_, c) => c.toUpperCase());
// The portal's anchor of an operation (Redocly build-docs): `#/<tag slug>/<operationid>`, lower case.
export const tagSlug = (tag) => (tag.toLowerCase().match(/[a-z0-9]+/g) ?? []).join('-');

/** The spec model's operations with what the client derives; throws with every problem lint does not report. */
export async function buildModel(spec, cfg = config) {
  const [operations, problems] = [[], []];
  for (const m of (await loadModel(spec)).operations) {
    const { operationId: id, method, path, clientMethod: name } = m;
    const problem = (message) => problems.push(`${method.toUpperCase()} ${path}: ${message}`);
    const [segments, query] = [String(name).split('.'), m.parameters.filter((p) => p.in === 'query')];
    const schema = m.requestBody?.content[m.requestMediaTypes[0]].schema ?? {};
    if (cfg.reserved.includes(segments[0])) problem(`x-client-method may not start with \`${segments[0]}\` (reserved)`);
    if (m.requestBody && query.length && schema.type !== 'object' && !schema.properties)
      problem('a non-object body cannot be merged with query parameters into one input');
    if (query.some((q) => q.name in (schema.properties ?? {})))
      problem('query parameter and body property share a name; the merged input would be ambiguous');
    const toggles = /^toggle/.test(id) || /\.toggle$/.test(name);
    operations.push({
      ...m,
      segments,
      query,
      contentType: m.requestMediaTypes[0],
      inputRequired: query.some((q) => q.required) || (m.requestBodyRequired && !!schema.required?.length),
      paginated: !!m.responses[m.successStatus]?.content?.['application/json']?.schema?.properties?.page,
      idempotent: m.operation['x-idempotent'] ?? (cfg.idempotentVerbs.includes(method) && !toggles),
    });
  }
  for (const { clientMethod: name } of operations) {
    const group = operations.find((o) => String(o.clientMethod).startsWith(`${name}.`))?.clientMethod;
    if (group) problems.push(`x-client-method \`${name}\` is both a method and a group (see \`${group}\`)`);
  }
  if (problems.length) throw new Error(`the spec cannot be turned into a client:\n  - ${problems.join('\n  - ')}`);
  return operations;
}

export function renderDoc(o, cfg = config, pad = '') {
  const id = o.operationId;
  const link = `@see {@link ${cfg.docsUrl}#/${tagSlug(o.tags[0] ?? '')}/${id.toLowerCase()} | ${id} in the API reference}`;
  const where = `\`${o.method.toUpperCase()} ${o.path}\`${o.paginated ? ' (paginated)' : ''}\n${link}`;
  const text = [o.summary, o.operation.description?.trim(), where].filter(Boolean).join('\n\n');
  const lines = text.replace(/\*\//g, '*\\/').split('\n');
  return `${pad}/**\n${lines.map((l) => `${pad} *${l ? ` ${l}` : ''}`).join('\n')}\n${pad} */`;
}

function renderOperation(o) {
  const [T, op, name] = [pascal(o.operationId), `operations[${str(o.operationId)}]`, o.clientMethod];
  const json = o.responses[o.successStatus]?.content?.['application/json'];
  const pathParams = [...o.path.matchAll(/\{([^}]+)\}/g)].map(([, n]) => o.parameters.find((p) => p.name === n));
  const parts = [
    o.query.length && `NonNullable<${op}['parameters']['query']>`,
    o.contentType && `NonNullable<${op}['requestBody']>['content'][${str(o.contentType)}]`,
  ].filter(Boolean);
  const input = `/** Input of \`${name}\` (${o.method.toUpperCase()} ${o.path}). */
export type ${T}Input = ${parts.join(' & ')};\n`;
  const result = json
    ? `/** Response envelope of \`${name}\`. */
export type ${T}Envelope = ${op}['responses'][${o.successStatus}]['content']['application/json'];
/** Result of \`${name}\`: the envelope's \`data\`${o.paginated ? ' and `page`' : ''}. */
export type ${T}Result = ${o.paginated ? `Paged<${T}Envelope>` : `${T}Envelope['data']`};`
    : `/** \`${name}\` answers with no JSON body. */
export type ${T}Envelope = EmptyEnvelope;
export type ${T}Result = void;`;
  const scalar = (p) => SCALARS[p.schema?.type] ?? `${op}['parameters']['path'][${str(p.name)}]`;
  const args = pathParams.map((p) => `${camel(p.name)}: ${scalar(p)}`);
  if (parts.length) args.push(`input${o.inputRequired ? '' : '?'}: ${T}Input`);
  const integers = pathParams.filter((p) => SCALARS[p.schema?.type] === 'number').map((p) => p.name);
  const body = o.contentType && (o.contentType === 'application/x-www-form-urlencoded' ? 'form' : 'json');
  const meta = {
    name,
    method: o.method.toUpperCase(),
    path: o.path,
    ...(integers.length && { integers }),
    ...(o.query.length && { query: o.query.map((q) => q.name) }),
    ...(body && { ...(o.requestBodyRequired && { bodyRequired: true }), body }),
    ...(!json && { noEnvelope: true }),
    ...(body && o.method === 'get' && { bodyOnGet: true }),
    ...(o.query.some((q) => q.name === 'paginate' && q.schema?.type === 'boolean') && { paginateParam: 'paginate' }),
    base: o.outsideV1 ? 'auth' : 'api',
    auth: o.requiresToken,
    idempotent: o.idempotent,
    paginated: o.paginated,
  };
  const member = `Operation<[${args.join(', ')}], ${T}Result, ${T}Envelope>`;
  return { types: `${parts.length ? input : ''}${result}`, member, meta: str(meta) };
}

export function renderClient(operations, cfg = config) {
  const [tree, rendered] = [{}, operations.map(renderOperation)];
  operations.forEach((o, i) => {
    const [pad, key] = ['  '.repeat(o.segments.length), o.segments.at(-1)];
    const parent = o.segments.slice(0, -1).reduce((node, seg) => (node[seg] ??= {}), tree);
    parent[key] = `${renderDoc(o, cfg, pad)}\n${pad}${key}: ${rendered[i].member};`;
  });
  const renderTree = (node, pad) =>
    Object.entries(node)
      .map(([key, v]) => (typeof v === 'string' ? v : `${pad}${key}: {\n${renderTree(v, `${pad}  `)}\n${pad}};`))
      .join('\n');
  return `// Generated by generators/client/generate.mjs from ${cfg.spec}. Do not edit: change the spec or the generator.
import type { operations } from '${cfg.typesModule}';
import type { EmptyEnvelope, Operation, OperationEntry, Paged } from '../runtime/operation';

${rendered.map((r) => r.types).join('\n')}

/** The grouped operations (\`client.sites.notes.list\`, ...), one per operation of the spec. */
export interface HostingApiOperations {
${renderTree(tree, '  ')}
}

/** The operationId of every client method. */ export type OperationId = ${operations.map((o) => str(o.operationId)).join(' | ')};

/** What the runtime needs to know about each operation, read from the spec (the runtime adds \`id\` and \`pathParams\`). */
export const meta: Record<OperationId, OperationEntry> = {
${rendered.map((r, i) => `  ${operations[i].operationId}: ${r.meta},`).join('\n')}
};
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const usage = `Usage: node generators/client/generate.mjs [--spec <openapi.json>] (writes ${config.out})`;
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const out = join(root, config.out);
  try {
    const { values } = parseArgs({ options: { spec: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
    if (values.help) console.log(usage);
    else {
      const operations = await buildModel(resolve(values.spec ?? join(root, config.spec)));
      rmSync(dirname(out), { recursive: true, force: true }); // no stale generated files
      mkdirSync(dirname(out));
      writeFileSync(out, renderClient(operations));
      console.log(`client generate: ${operations.length} operations → ${relative(root, out)}`);
    }
  } catch (err) {
    const usageError = err.code?.startsWith('ERR_PARSE_ARGS');
    console.error(`client generate: ${err.message}${usageError ? `\n${usage}` : ''}`);
    process.exitCode = usageError ? 2 : 1;
  }
}
