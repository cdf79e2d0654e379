#!/usr/bin/env node
// Adds `x-codeSamples` (TypeScript with @hosting-api/client, and curl) to every operation of the bundled spec,
// and writes the TypeScript samples into one .ts file that `tsc --noEmit` checks against the built client.
// The spec sources under spec/ are never touched: the augmented copy is build output for the portal.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadModel } from '@hosting-api/openapi/model';

const CLIENT_IMPORT = "import { createClient } from '@hosting-api/client';";
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A JSON value as a TypeScript literal: single quotes, bare keys where legal, 2-space indent. */
export function tsLiteral(value, indent = '') {
  const inner = `${indent}  `;
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
  if (value === null || typeof value !== 'object') return String(value);
  if (Array.isArray(value)) {
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

const shellQuote = (text) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The example values of one operation of the spec model: path parameters, query parameters, body. */
export function examples(o) {
  const where = `${o.method.toUpperCase()} ${o.path}`;
  if (!o.clientMethod) throw new Error(`${where} has no x-client-method`);
  const pathParams = {};
  for (const [, name] of o.path.matchAll(/\{([^}]+)\}/g)) {
    const p = o.parameters.find((x) => x.in === 'path' && x.name === name);
    if (p?.example === undefined) throw new Error(`${where}: path parameter ${name} has no example`);
    pathParams[name] = p.example;
  }
  const query = Object.fromEntries(
    o.parameters.filter((p) => p.in === 'query' && p.example !== undefined).map((p) => [p.name, p.example]),
  );
  if (!o.requestBody) return { pathParams, query };
  const mediaType = o.requestMediaTypes[0];
  const media = o.requestBody.content?.[mediaType];
  const value = media?.example ?? Object.values(media?.examples ?? {})[0]?.value;
  if (value === undefined) throw new Error(`${where}: request body has no example`);
  return { pathParams, query, body: { mediaType, value } };
}

/** The lines after the import: the client (which fetches and renews its own token) and the call. */
function tsSampleBody(o, e, model) {
  // Path parameters are positional; the query parameters or the body form the one params object.
  const args = Object.values(e.pathParams).map((v) => tsLiteral(v));
  const params = e.body ? e.body.value : Object.keys(e.query).length ? e.query : undefined;
  if (params !== undefined) args.push(tsLiteral(params));
  let call = `await client.${o.clientMethod}(${args.join(', ')})`;
  if (call.length > 90 && args.length > 1 && !args.some((a) => a.includes('\n'))) {
    call = `await client.${o.clientMethod}(\n${args.map((a) => `  ${a},`).join('\n')}\n)`;
  }
  return [
    'const client = createClient({',
    `  baseUrl: '${model.apiUrl}',`,
    ...(model.authUrl ? [`  authUrl: '${model.authUrl}',`] : []),
    '  clientId: process.env.HOSTING_API_CLIENT_ID,',
    '  clientSecret: process.env.HOSTING_API_CLIENT_SECRET,',
    '});',
    '',
    `const result = ${call};`,
    'console.log(result);',
  ].join('\n');
}

function curlSample(o, e) {
  let url = o.baseUrl + o.path.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(String(e.pathParams[name])));
  const query = Object.entries(e.query).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)]);
  if (query.length) url += `?${new URLSearchParams(query)}`;
  const lines = [`curl -X ${o.method.toUpperCase()} ${shellQuote(url)}`];
  if (o.requiresToken) lines.push('-H "Authorization: Bearer $HOSTING_API_TOKEN"');
  if (e.body?.mediaType === 'application/x-www-form-urlencoded') {
    for (const [k, v] of Object.entries(e.body.value)) lines.push(`--data-urlencode ${shellQuote(`${k}=${v}`)}`);
  } else if (e.body) {
    lines.push(`-H ${shellQuote(`Content-Type: ${e.body.mediaType}`)}`);
    lines.push(`-d ${shellQuote(JSON.stringify(e.body.value, null, 2))}`);
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
  for (const o of model.operations) {
    const e = examples(o);
    const body = tsSampleBody(o, e, model);
    out.paths[o.path][o.method]['x-codeSamples'] = [
      { lang: 'TypeScript', label: 'TypeScript', source: `${CLIENT_IMPORT}\n\n${body}\n` },
      { lang: 'curl', label: 'curl', source: curlSample(o, e) },
    ];
    blocks.push(`// ${o.operationId}: ${o.method.toUpperCase()} ${o.path}\n{\n${body.replace(/^(?=.)/gm, '  ')}\n}`);
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
  const file = { type: 'string' };
  const options = { spec: file, out: file, samples: file, help: { type: 'boolean', short: 'h' } };
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
