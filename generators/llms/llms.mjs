#!/usr/bin/env node
// The portal's pages for AI assistants: llms.txt at the site root (llmstxt.org: a title, a summary
// and a list of links) and one Markdown file per operation, generated from the bundled spec:
// method and path, parameters, request bodies, responses with their examples, and the errors.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadModel } from '@hosting-api/openapi/model';

const json = (value) => ['```json', JSON.stringify(value, null, 2), '```'].join('\n');
const cell = (text) =>
  String(text ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ');

/** The examples of a media type object: `example`, or each named one. */
function examplesOf(media) {
  if (media?.example !== undefined) return [['Example', media.example]];
  return Object.entries(media?.examples ?? {}).map(([name, e]) => [e.summary ?? name, e.value]);
}

/** A schema in one line: its type, enum, format and bounds. */
function typeOf(schema = {}) {
  const type = Array.isArray(schema.type)
    ? schema.type.join(' or ')
    : (schema.type ?? (schema.oneOf ? 'one of several' : 'object'));
  const extra = [
    schema.enum && `one of ${schema.enum.map((v) => `\`${v}\``).join(', ')}`,
    schema.format && `format ${schema.format}`,
    schema.minimum !== undefined && `≥ ${schema.minimum}`,
    schema.maximum !== undefined && `≤ ${schema.maximum}`,
    schema.maxLength !== undefined && `at most ${schema.maxLength} characters`,
  ].filter(Boolean);
  return extra.length ? `${type} (${extra.join('; ')})` : type;
}

/** The fields of an object schema as table rows. */
function fieldRows(schema = {}) {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(
    ([name, s]) =>
      `| \`${name}\` | ${cell(typeOf(s))} | ${required.has(name) ? 'yes' : 'no'} | ${cell(s.description)} |`,
  );
}

export function operationMarkdown(op) {
  const lines = [`# ${op.operationId}: ${op.summary}`, '', `\`${op.method.toUpperCase()} ${op.path}\``, ''];
  lines.push(
    `${op.outsideV1 ? 'Auth URL: `{auth_url}`, the root that serves the token operations' : "Base URL: `{base_url}`, your account's versioned base address"}. The API documentation does not name its host, so the examples use the placeholder \`${op.baseUrl}\`; the local sandbox (\`pnpm start\`) answers at \`http://127.0.0.1:4011${op.outsideV1 ? '' : '/v1'}\`. ${op.requiresToken ? `Needs a bearer token (scopes: ${op.scopes.join(', ') || 'none named'}).` : 'Needs no token.'}`,
    '',
  );
  if (op.operation.description) lines.push(op.operation.description.trim(), '');
  if (op.clientMethod) lines.push(`TypeScript client: \`client.${op.clientMethod}(…)\`.`, '');
  if (op.parameters.length) {
    lines.push('## Parameters', '', '| name | in | type | required | description |', '|---|---|---|---|---|');
    for (const p of op.parameters)
      lines.push(
        `| \`${p.name}\` | ${p.in} | ${cell(typeOf(p.schema))} | ${p.required ? 'yes' : 'no'} | ${cell(p.description)} |`,
      );
    lines.push('');
  }
  for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
    lines.push(`## Request body (${type})${op.requestBodyRequired ? '' : ', optional'}`, '');
    const rows = fieldRows(media.schema);
    if (rows.length) lines.push('| field | type | required | description |', '|---|---|---|---|', ...rows, '');
    for (const [name, value] of examplesOf(media)) lines.push(`${name}:`, '', json(value), '');
  }
  lines.push('## Responses', '');
  for (const [status, response] of Object.entries(op.responses)) {
    lines.push(`### ${status}${/^[45]/.test(status) ? ' (error)' : ''}`, '', cell(response.description), '');
    for (const [type, media] of Object.entries(response.content ?? {})) {
      const examples = examplesOf(media);
      if (!examples.length) lines.push(`\`${type}\``, '');
      for (const [name, value] of examples)
        lines.push(
          `${name} (\`${type}\`):`,
          '',
          typeof value === 'string' ? ['```', value, '```'].join('\n') : json(value),
          '',
        );
    }
  }
  const errors = Object.entries(op.responses).filter(([s]) => /^[45]/.test(s));
  if (errors.length) {
    lines.push('## Errors', '', '| status | message |', '|---|---|');
    for (const [status, response] of errors) {
      const messages = Object.values(response.content ?? {})
        .flatMap((m) => examplesOf(m).map(([, v]) => v?.message))
        .filter(Boolean);
      lines.push(`| ${status} | ${cell([...new Set(messages)].join(' / ') || response.description)} |`);
    }
    lines.push('');
  }
  lines.push(`Reference: [the portal](../index.html), under ${op.tags[0] ?? 'its tag'}: "${op.summary}".`, '');
  return lines.join('\n');
}

export function llmsTxt(model) {
  const info = model.document.info;
  const summary = (info.description ?? '').split('\n\n')[0].replace(/\s*\n\s*/g, ' ');
  const lines = [`# ${info.title} ${info.version}`, '', `> ${summary}`, ''];
  lines.push(
    'Every JSON answer is an envelope `{message, data, errors}` (`page` on paged lists). Tokens come from `POST /auth/token` (client credentials) at the auth URL; every other operation lives under `/v1` with `Authorization: Bearer <token>`.',
    '',
    '## Docs',
    '',
    '- [API reference](index.html): the whole OpenAPI 3.1 description, rendered',
    '- [OpenAPI description](openapi.json): the bundled spec as JSON',
    '',
  );
  const byTag = new Map();
  for (const op of model.operations) {
    const tag = op.tags[0] ?? 'Other';
    byTag.set(tag, [...(byTag.get(tag) ?? []), op]);
  }
  for (const [tag, ops] of byTag) {
    lines.push(`## ${tag}`, '');
    for (const op of ops)
      lines.push(
        `- [${op.operationId}](operations/${op.operationId}.md): \`${op.method.toUpperCase()} ${op.path}\`, ${op.summary}`,
      );
    lines.push('');
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { spec: { type: 'string' }, out: { type: 'string' } } });
  if (!values.spec || !values.out) {
    console.error('Usage: node generators/llms/llms.mjs --spec <bundled openapi.json> --out <portal dist folder>');
    process.exit(2);
  }
  const model = await loadModel(values.spec);
  const dir = join(values.out, 'operations');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const op of model.operations) writeFileSync(join(dir, `${op.operationId}.md`), operationMarkdown(op));
  writeFileSync(join(values.out, 'llms.txt'), llmsTxt(model));
  console.log(`docs: llms.txt and ${model.operations.length} operation pages in ${values.out}`);
}
