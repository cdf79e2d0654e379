#!/usr/bin/env node
// Writes packages/cli/src/generated/operations.ts, the CLI's commands, from the bundled spec: per operation its
// path arguments, its query and body fields as typed flags, its help and how `--wait` follows it. Names no operation.
import { dataSchema, loadModel } from '@hosting-api/openapi/model';
import { failOn, firstSentence, unwrap, writeGenerated } from '../shared/spec-text.mjs';
import { fieldType } from './rules.mjs';

/** Options the CLI itself defines on every command; a spec field with one of these names would be ambiguous. */
const RESERVED = new Set([
  ...['help', 'json', 'data', 'wait', 'wait-timeout', 'timeout', 'max-size', 'paginate', 'base-url', 'auth-url'],
  ...['columns', 'yes', 'dry-run', 'profile'],
]);

const [model, problems] = [await loadModel(), []];

/** A query or body field as a flag. */
const flag = (name, where, required, schema = {}, text = schema.description) => ({
  name,
  in: where,
  required,
  description: firstSentence(text),
  ...fieldType(schema),
});

const [operations, seen] = [[], new Map()];
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
  // The command line's words are kebab-case (`muPlugins.list` → `mu-plugins list`); the CLI keeps
  // the client's spelling as a hidden alias.
  const words = o.clientMethod.split('.').map((w) => w.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));
  const key = words.join(' ');
  if (seen.has(key)) problems.push(`${o.operationId} and ${seen.get(key)} are both \`${key}\``);
  seen.set(key, o.operationId);
  const item = dataSchema(o)?.type === 'array' ? dataSchema(o).items : undefined;
  // `--wait` follows the state a write answers; a destructive command shows what it acts on first.
  const [wait, preview] = [o.stateFollow, o.destructive ? o.subjectRead : undefined];
  operations.push({
    id: o.operationId,
    words,
    clientMethod: o.clientMethod,
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
    ...(o.destructive ? { destructive: true } : {}),
    // A read the spec states an effect for (not safe, the model's one rule): the CLI asks first.
    ...(o.method === 'get' && !o.safe
      ? { effect: o.effects.map((e) => [e.kind, e.what].filter(Boolean).join(': ')).join('; ') }
      : {}),
    ...(preview ? { preview } : {}),
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
const destructive = operations.filter((o) => o.destructive).map((o) => o.id);
console.log(
  `generate: ${operations.length} commands (${waits.length} with --wait: ${waits.join(', ')}; ${destructive.length} destructive)`,
);
