#!/usr/bin/env node
// Writes packages/mcp/src/generated/tools.ts: the MCP tools, read from the bundled spec
// (@hosting-api/openapi/model). One tool per operation, named by its operationId, its input schema
// made of the operation's path and query parameters and its body's properties (the spec's own
// JSON Schemas, dereferenced), its description the spec's summary and description. Nothing here
// names an operation. Run by turbo before `build` (after the spec's bundle).
//
// Left out: the token operations (served outside /v1: `POST /auth/token`, `/auth/revoke`). The
// server gets its own tokens from the credentials in its environment; a tool would have to take the
// secret as input or return a token as output, and credentials never go through tool input or output.
import { loadModel } from '@hosting-api/openapi/model';
import { failOn, unwrap, writeGenerated } from '../shared/spec-text.mjs';

const model = await loadModel();
const problems = [];

// Destructive: the model's one list (every DELETE, and what the spec marks `x-destructive: true`).
const isDestructive = (o) => o.destructive;

const withDescription = (schema, description) =>
  description && !schema.description ? { ...schema, description } : schema;

const tools = [];
for (const o of model.operations) {
  if (o.outsideV1) continue; // the token operations: see above
  const properties = {};
  const required = [];
  const pathParams = [];
  const add = (name, schema, isRequired, where) => {
    if (properties[name]) problems.push(`${o.operationId}: ${name} is both ${properties[name]['x-in']} and ${where}`);
    properties[name] = schema;
    if (isRequired) required.push(name);
  };
  for (const p of o.parameters.filter((p) => p.in === 'path' || p.in === 'query')) {
    add(
      p.name,
      withDescription(structuredClone(p.schema ?? {}), p.description),
      p.in === 'path' || p.required === true,
      p.in,
    );
    if (p.in === 'path') pathParams.push(p.name);
  }
  const media = o.requestMediaTypes[0];
  if (media) {
    const body = o.requestBody.content[media].schema ?? {};
    if (body.type !== 'object' && !body.properties) problems.push(`${o.operationId}: its body is not an object`);
    for (const [name, s] of Object.entries(body.properties ?? {}))
      add(name, structuredClone(s), (body.required ?? []).includes(name), 'body');
  }
  const destructive = isDestructive(o);
  tools.push({
    name: o.operationId,
    title: o.summary,
    description:
      `${o.summary}\n\n${unwrap(o.operation.description)}\n\n${o.method.toUpperCase()} ${o.path}${destructive ? ' (destructive)' : ''}`.replace(
        /\n\n\n+/g,
        '\n\n',
      ),
    method: o.method.toUpperCase(),
    group: o.clientMethod,
    // `--toolsets`: the spec's tag (its section), as a slug: `Backups and restores` → `backups-and-restores`.
    toolset: (o.tags[0] ?? 'other')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, ''),
    pathParams,
    destructive,
    // Safe: a GET the spec states no effect for (the model's one rule): `--read-only` and `readOnlyHint`.
    safe: o.safe,
    inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
  });
}
const names = new Set();
for (const t of tools) {
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(t.name)) problems.push(`${t.name}: not a valid MCP tool name`);
  if (names.has(t.name)) problems.push(`${t.name}: two operations share it`);
  names.add(t.name);
}
failOn(problems, 'generate: the spec gives ambiguous tools');

writeGenerated(
  'packages/mcp/src/generated/tools.ts',
  'generators/mcp/tools.mjs',
  `import type { ToolSpec } from '../spec';

export const title = ${JSON.stringify(model.document.info?.title ?? '')};
export const tools: readonly ToolSpec[] = ${JSON.stringify(tools)};
`,
);
const d = tools.filter((t) => t.destructive);
console.log(`generate: ${tools.length} tools, ${d.length} destructive: ${d.map((t) => t.name).join(', ')}`);
