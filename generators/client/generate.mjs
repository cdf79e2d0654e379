#!/usr/bin/env node
// Writes packages/client/src/generated/client.ts from the bundled spec: the runtime's table (`meta`:
// how to send each operation) and types only — Input/Envelope/Result per operation over
// openapi-typescript's `operations` (spec/dist/openapi.d.ts) and the `HostingApiOperations` interface
// grouped by `x-client-method`, with JSDoc from the spec. Usage: generate.mjs [--spec <openapi.json>]
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadModel } from '@hosting-api/openapi/model';
import config from './client.config.mjs';

const IDENT = /^[A-Za-z_$][\w$]*$/;
const str = JSON.stringify;
const pascal = (s) => s.replace(/(^|[^A-Za-z0-9])([A-Za-z0-9])/g, (_, __, c) => c.toUpperCase());
const camel = (s) => s.replace(/[-_]+([A-Za-z0-9])/g, (_, c) => c.toUpperCase());
// The portal's anchor of an operation (Redocly build-docs): `#/<tag slug>/<operationid>`, lower case.
export const tagSlug = (tag) =>
  tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The operations of a spec (a bundled document) as the client needs them, read through the spec model
 * (@hosting-api/openapi/model); throws with every problem to fix in the spec. */
export async function buildModel(spec, cfg = config) {
  const [operations, problems, byName] = [[], [], new Map()];
  for (const { operationId, method: verb, path, parameters: params, operation: op, ...m } of (await loadModel(spec))
    .operations) {
    const where = `${verb.toUpperCase()} ${path}`;
    const name = m.clientMethod;
    const segments = typeof name === 'string' ? name.split('.') : [];
    if (!operationId) problems.push(`${where}: no operationId`);
    const badName = segments.length < 2 || !segments.every((s) => IDENT.test(s));
    if (
      badName &&
      problems.push(`${where}: x-client-method must be a dotted name like \`sites.notes.list\` (got ${str(name)})`)
    )
      continue;
    if (byName.has(name)) problems.push(`${where}: x-client-method \`${name}\` is already used by ${byName.get(name)}`);
    if (cfg.reserved.includes(segments[0]))
      problems.push(`${where}: x-client-method may not start with \`${segments[0]}\` (reserved)`);
    byName.set(name, where);
    const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map(
      (x) => params.find((p) => p.in === 'path' && p.name === x[1]) ?? x[1],
    );
    for (const p of pathParams.filter((p) => typeof p === 'string'))
      problems.push(`${where}: path parameter {${p}} is not declared`);
    const query = params.filter((p) => p.in === 'query');
    const [contentType, media] = Object.entries(m.requestBody?.content ?? {})[0] ?? [];
    const schema = media?.schema ?? {};
    if (contentType && query.length && schema.type !== 'object' && !schema.properties)
      problems.push(`${where}: a non-object body cannot be merged with query parameters into one input`);
    if (query.some((q) => q.name in (schema.properties ?? {})))
      problems.push(`${where}: query parameter and body property share a name; the merged input would be ambiguous`);
    if (m.successStatus === undefined) problems.push(`${where}: no 2xx response`);
    const json = m.responses[m.successStatus]?.content?.['application/json'];
    operations.push({
      id: operationId,
      name,
      segments,
      verb,
      path,
      tag: m.tags[0] ?? '',
      summary: m.summary,
      description: op.description ?? '',
      pathParams: pathParams.filter((p) => typeof p !== 'string'),
      query: query.map((p) => ({ name: p.name, required: p.required === true, boolean: p.schema?.type === 'boolean' })),
      body: contentType
        ? { contentType, required: m.requestBodyRequired, hasRequiredKeys: (schema.required ?? []).length > 0 }
        : null,
      success: m.successStatus ?? 200,
      hasJson: !!json,
      paginated: !!json?.schema?.properties?.page,
      base: m.outsideV1 ? 'auth' : 'api',
      auth: m.requiresToken,
      idempotent:
        typeof op['x-idempotent'] === 'boolean'
          ? op['x-idempotent']
          : cfg.idempotentVerbs.includes(verb) ||
            (verb === 'put' && !/^toggle/.test(operationId ?? '') && !name.endsWith('.toggle')),
    });
  }
  for (const o of operations)
    for (let i = 1; i < o.segments.length; i++)
      if (byName.has(o.segments.slice(0, i).join('.')))
        problems.push(
          `x-client-method \`${o.segments.slice(0, i).join('.')}\` is both a method and a group (see \`${o.name}\`)`,
        );
  if (problems.length) throw new Error(`the spec cannot be turned into a client:\n  - ${problems.join('\n  - ')}`);
  return operations;
}

/** JSDoc of one method: summary, description, method and path, link to the portal's section. */
export function renderDoc(o, cfg = config, pad = '') {
  const link = `@see {@link ${cfg.docsUrl}#/${tagSlug(o.tag)}/${o.id.toLowerCase()} | ${o.id} in the API reference}`;
  const text = [
    o.summary,
    o.description.trim(),
    `\`${o.verb.toUpperCase()} ${o.path}\`${o.paginated ? ' (paginated)' : ''}\n${link}`,
  ];
  const lines = text.filter(Boolean).join('\n\n').replace(/\*\//g, '*\\/').split('\n');
  return `${pad}/**\n${lines.map((l) => `${pad} *${l ? ` ${l}` : ''}`).join('\n')}\n${pad} */`;
}

function renderTypes(o) {
  const [T, op] = [pascal(o.id), `operations[${str(o.id)}]`];
  const parts = [
    o.query.length && `NonNullable<${op}['parameters']['query']>`,
    o.body && `NonNullable<${op}['requestBody']>['content'][${str(o.body.contentType)}]`,
  ].filter(Boolean);
  const inputRequired = o.query.some((q) => q.required) || (o.body?.required && o.body.hasRequiredKeys);
  const lines = parts.length
    ? [
        `/** Input of \`${o.name}\` (${o.verb.toUpperCase()} ${o.path}). */`,
        `export type ${T}Input = ${parts.join(' & ')};`,
      ]
    : [];
  if (o.hasJson) {
    lines.push(
      `/** Response envelope of \`${o.name}\`. */`,
      `export type ${T}Envelope = ${op}['responses'][${o.success}]['content']['application/json'];`,
      `/** Result of \`${o.name}\`: the envelope's \`data\`${o.paginated ? ' and `page`' : ''}. */`,
      `export type ${T}Result = ${o.paginated ? `Paged<${T}Envelope>` : `${T}Envelope['data']`};`,
    );
  } else
    lines.push(
      `/** \`${o.name}\` answers with no JSON body. */`,
      `export type ${T}Envelope = EmptyEnvelope;`,
      `export type ${T}Result = void;`,
    );
  const scalar = (p) =>
    ({ integer: 'number', number: 'number', string: 'string' })[p.schema?.type] ??
    `${op}['parameters']['path'][${str(p.name)}]`;
  const args = [
    ...o.pathParams.map((p) => `${camel(p.name)}: ${scalar(p)}`),
    ...(parts.length ? [`input${inputRequired ? '' : '?'}: ${T}Input`] : []),
  ];
  return { lines, member: `Operation<[${args.join(', ')}], ${T}Result, ${T}Envelope>` };
}

function renderMeta(o) {
  const integers = o.pathParams.filter((p) => ['integer', 'number'].includes(p.schema?.type)).map((p) => p.name);
  return str({
    name: o.name,
    method: o.verb.toUpperCase(),
    path: o.path,
    ...(integers.length && { integers }),
    ...(o.query.length && { query: o.query.map((q) => q.name) }),
    ...(o.body?.required && { bodyRequired: true }),
    ...(o.body && {
      body: o.body.contentType === 'application/x-www-form-urlencoded' ? 'form' : 'json',
      ...(o.verb === 'get' && { bodyOnGet: true }),
    }),
    ...(o.query.find((q) => q.name === 'paginate' && q.boolean) && { paginateParam: 'paginate' }),
    base: o.base,
    auth: o.auth,
    idempotent: o.idempotent,
    paginated: o.paginated,
  });
}

/** The source of packages/client/src/generated/client.ts. */
export function renderClient(operations, cfg = config) {
  const [tree, types] = [{}, []];
  for (const o of operations) {
    const { lines, member } = renderTypes(o);
    types.push(...lines);
    let node = tree;
    for (const seg of o.segments.slice(0, -1)) node = node[seg] ??= {};
    node[o.segments.at(-1)] = { o, member };
  }
  const renderTree = (node, pad) =>
    Object.entries(node)
      .map(([key, v]) =>
        v.member
          ? `${renderDoc(v.o, cfg, pad)}\n${pad}${key}: ${v.member};`
          : `${pad}${key}: {\n${renderTree(v, `${pad}  `)}\n${pad}};`,
      )
      .join('\n');
  return `// Generated by generators/client/generate.mjs from ${cfg.spec}. Do not edit: change the spec or the generator.
import type { operations } from '${cfg.typesModule}';
import type { EmptyEnvelope, Operation, OperationEntry, Paged } from '../runtime/operation';

${types.join('\n')}

/** The grouped operations (\`client.sites.notes.list\`, ...), one per operation of the spec. */
export interface HostingApiOperations {
${renderTree(tree, '  ')}
}

/** The operationId of every client method. */ export type OperationId = ${operations.map((o) => str(o.id)).join(' | ')};

/** What the runtime needs to know about each operation, read from the spec (the runtime adds \`id\` and \`pathParams\`). */
export const meta: Record<OperationId, OperationEntry> = {
${operations.map((o) => `  ${o.id}: ${renderMeta(o)},`).join('\n')}
};
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [root, [flag, value]] = [resolve(dirname(fileURLToPath(import.meta.url)), '../..'), process.argv.slice(2)];
  if (flag && flag !== '--spec') {
    (['--help', '-h'].includes(flag) ? console.log : console.error)(
      `${flag}: `.repeat(!['--help', '-h'].includes(flag)) +
        'Usage: node generators/client/generate.mjs [--spec <openapi.json>]\n\nWrites packages/client/src/generated/client.ts (settings: generators/client/client.config.mjs).',
    );
    process.exit(flag === '--help' || flag === '-h' ? 0 : 2);
  }
  const [specPath, out] = [resolve(flag ? (value ?? '') : join(root, config.spec)), join(root, config.out)];
  try {
    if (!existsSync(specPath))
      throw new Error(
        `${relative(process.cwd(), specPath)} not found. Bundle the spec first: pnpm --filter @hosting-api/openapi bundle`,
      );
    const operations = await buildModel(specPath);
    rmSync(dirname(out), { recursive: true, force: true }); // no stale generated files
    mkdirSync(dirname(out));
    writeFileSync(out, renderClient(operations));
    console.log(`client generate: ${operations.length} operations → ${relative(root, out)}`);
  } catch (err) {
    process.exitCode = console.error(`client generate: ${err.message}`) ?? 1;
  }
}
