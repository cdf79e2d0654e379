#!/usr/bin/env node
// Adds `x-codeSamples` (a TypeScript sample using @hosting-api/client and a curl sample) to every
// operation of the bundled spec, and writes the TypeScript samples into one .ts file that
// `tsc --noEmit` type-checks against the built client. The spec sources under spec/ are never
// touched: the augmented copy is build output for the portal.
//
//   node generators/docs/code-samples.mjs [--spec spec/dist/openapi.json]
//        [--out packages/docs/dist/openapi.json] [--samples packages/docs/dist/samples.ts]
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadModel } from '@hosting-api/openapi/model';

// How a sample makes its client (see packages/client: createClient's options). The client fetches
// and renews its token itself from the application's client credentials.
export const CLIENT_IMPORT = "import { createClient } from '@hosting-api/client';";
export function clientSetup({ baseUrl, authUrl }) {
  return [
    'const client = createClient({',
    `  baseUrl: '${baseUrl}',`,
    ...(authUrl ? [`  authUrl: '${authUrl}',`] : []),
    '  clientId: process.env.HOSTING_API_CLIENT_ID,',
    '  clientSecret: process.env.HOSTING_API_CLIENT_SECRET,',
    '});',
  ];
}
const TOKEN_ENV = '$HOSTING_API_TOKEN';

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A JSON value as a TypeScript literal: single quotes, bare keys where legal, 2-space indent. */
export function tsLiteral(value, indent = '') {
  const inner = `${indent}  `;
  if (value === null) return 'null';
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((v) => tsLiteral(v, inner));
    const flat = `[${items.join(', ')}]`;
    if (flat.length <= 60 && !flat.includes('\n')) return flat;
    return `[\n${items.map((i) => `${inner}${i},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  const lines = entries.map(([k, v]) => `${inner}${IDENT.test(k) ? k : tsLiteral(k)}: ${tsLiteral(v, inner)},`);
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function shellQuote(text) {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Everything a sample needs to know about one operation of the spec model. */
export function describeOperation(o) {
  const where = `${o.method.toUpperCase()} ${o.path}`;
  if (!o.clientMethod) throw new Error(`${where} has no x-client-method`);
  const pathParams = [...o.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => {
    const p = o.parameters.find((x) => x.in === 'path' && x.name === name);
    if (!p || p.example === undefined) throw new Error(`${where}: path parameter ${name} has no example`);
    return { name, value: p.example };
  });
  const query = o.parameters
    .filter((p) => p.in === 'query' && p.example !== undefined)
    .map((p) => ({ name: p.name, value: p.example }));
  let body;
  if (o.requestBody) {
    const [mediaType, media] = Object.entries(o.requestBody.content ?? {})[0] ?? [];
    const value = media?.example ?? Object.values(media?.examples ?? {})[0]?.value;
    if (value === undefined) throw new Error(`${where}: request body has no example`);
    body = { mediaType, value };
  }
  return { ...o, pathParams, query, body, secured: o.requiresToken };
}

/** The lines after the import: the client and the call. */
export function tsSampleBody(d, urls) {
  const args = d.pathParams.map((p) => tsLiteral(p.value));
  // Path parameters are positional; the query parameters or the body form the one params object.
  const paramsObject = d.body
    ? d.body.value
    : d.query.length
      ? Object.fromEntries(d.query.map((q) => [q.name, q.value]))
      : undefined;
  if (paramsObject !== undefined) args.push(tsLiteral(paramsObject));
  let call = `await client.${d.clientMethod}(${args.join(', ')})`;
  if (call.length > 90 && args.length > 1 && !args.some((a) => a.includes('\n'))) {
    call = `await client.${d.clientMethod}(\n${args.map((a) => `  ${a},`).join('\n')}\n)`;
  }
  return [...clientSetup(urls), '', `const result = ${call};`, 'console.log(result);'].join('\n');
}

export function tsSample(d, urls) {
  return `${CLIENT_IMPORT}\n\n${tsSampleBody(d, urls)}\n`;
}

export function curlSample(d) {
  const value = (name) => d.pathParams.find((p) => p.name === name).value;
  let url = d.baseUrl + d.path.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(String(value(name))));
  if (d.query.length) {
    const qs = new URLSearchParams(
      d.query.map((q) => [q.name, typeof q.value === 'object' ? JSON.stringify(q.value) : String(q.value)]),
    );
    url += `?${qs}`;
  }
  const lines = [`curl -X ${d.method.toUpperCase()} ${shellQuote(url)}`];
  if (d.secured) lines.push(`-H "Authorization: Bearer ${TOKEN_ENV}"`);
  if (d.body?.mediaType === 'application/x-www-form-urlencoded') {
    for (const [k, v] of Object.entries(d.body.value)) lines.push(`--data-urlencode ${shellQuote(`${k}=${v}`)}`);
  } else if (d.body) {
    lines.push(`-H ${shellQuote(`Content-Type: ${d.body.mediaType}`)}`);
    lines.push(`-d ${shellQuote(JSON.stringify(d.body.value, null, 2))}`);
  }
  return `${lines.join(' \\\n  ')}\n`;
}

/**
 * Returns a copy of the spec with x-codeSamples on every operation and the text of the
 * type-check file (each sample in its own block so their `const`s do not collide).
 */
export async function addCodeSamples(source) {
  const model = await loadModel(source);
  const out = structuredClone(model.document);
  const blocks = [];
  // The client's base URL, and the auth root where the token operations have a server of their own.
  const urls = { baseUrl: model.apiUrl, authUrl: model.authUrl };
  for (const o of model.operations) {
    const d = describeOperation(o);
    out.paths[o.path][o.method]['x-codeSamples'] = [
      { lang: 'TypeScript', label: 'TypeScript', source: tsSample(d, urls) },
      { lang: 'curl', label: 'curl', source: curlSample(d) },
    ];
    const body = tsSampleBody(d, urls).replace(/^(?=.)/gm, '  ');
    blocks.push(`// ${d.operationId}: ${o.method.toUpperCase()} ${o.path}\n{\n${body}\n}`);
  }
  const header = `// Generated by generators/docs/code-samples.mjs from the bundled spec. Do not edit.
// Every TypeScript code sample of the portal, one block each, for \`tsc --noEmit\`.`;
  const samplesTs = `${header}\n${CLIENT_IMPORT}\n\n${blocks.join('\n')}\n\nexport {};\n`;
  return { spec: out, samplesTs, count: blocks.length };
}

const USAGE = `Usage: node generators/docs/code-samples.mjs [--spec <openapi.json>] [--out <file>] [--samples <file>]

Adds x-codeSamples (TypeScript with @hosting-api/client, and curl) to every operation.
  --spec     bundled spec to read      (default: spec/dist/openapi.json)
  --out      augmented spec to write   (default: packages/docs/dist/openapi.json)
  --samples  TypeScript samples file   (default: packages/docs/dist/samples.ts)`;

async function main(argv) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const options = { spec: {}, out: {}, samples: {}, help: { type: 'boolean', short: 'h' } };
  for (const name of ['spec', 'out', 'samples']) options[name].type = 'string';
  const { values } = parseArgs({ args: argv, options });
  if (values.help) return console.log(USAGE) ?? 0;
  const specPath = resolve(values.spec ?? join(root, 'spec/dist/openapi.json'));
  const outPath = resolve(values.out ?? join(root, 'packages/docs/dist/openapi.json'));
  const samplesPath = resolve(values.samples ?? join(root, 'packages/docs/dist/samples.ts'));
  // A missing bundle is reported by loadModel, with the command that makes it.
  const { spec, samplesTs, count } = await addCodeSamples(specPath);
  for (const file of [outPath, samplesPath]) mkdirSync(dirname(file), { recursive: true });
  writeFileSync(outPath, JSON.stringify(spec, null, 2));
  writeFileSync(samplesPath, samplesTs);
  const rel = (file) => relative(process.cwd(), file);
  console.log(`code-samples: ${count} operations → ${rel(outPath)}, ${rel(samplesPath)}`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (err) => {
      console.error(`code-samples: ${err.message}${err.code?.startsWith('ERR_PARSE_ARGS') ? `\n\n${USAGE}` : ''}`);
      process.exitCode = 1;
    },
  );
}
