#!/usr/bin/env node
// The portal's operation pages and its one search. For every operation of the bundled spec, an
// HTML page (<out>/operations/<operationId>.html, a stable deep link) from the Markdown page the
// llms generator wrote, under the shared header, with its example request (the code samples' own
// examples) for the page's "Try it" (assets/try-it.js, against the sandbox `pnpm docs:serve` runs).
// Then <out>/assets/search-index.js: every guide and every operation, for assets/search.js.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadModel } from '@hosting-api/openapi/model';
import { examples } from '../docs/code-samples.mjs';
import { marked, page, readGuides } from '../guides/guides.mjs';

/** What Try it sends: method, path from the auth root or the versioned base, query, body, token. */
export function exampleRequest(o, model) {
  const e = examples(o);
  const path = o.path.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(String(e.pathParams[name])));
  const query = Object.fromEntries(
    Object.entries(e.query).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)]),
  );
  return {
    operationId: o.operationId,
    method: o.method.toUpperCase(),
    root: model.tokenOperations.includes(o) ? 'auth' : 'api',
    path,
    query,
    body: e.body ?? null,
    requiresToken: o.requiresToken,
  };
}

export async function buildPortal({ spec, out, guidesDir }) {
  const model = await loadModel(spec);
  mkdirSync(join(out, 'assets'), { recursive: true });
  const index = readGuides(guidesDir).map((g) => ({
    kind: 'Guide',
    title: g.title,
    text: `${g.summary} ${[...g.markdown.matchAll(/^#+ (.+)$/gm)].map((m) => m[1]).join(' ')}`,
    url: `guides/${g.slug}.html`,
  }));
  for (const o of model.operations) {
    const markdown = readFileSync(join(out, 'operations', `${o.operationId}.md`), 'utf8');
    const request = JSON.stringify(exampleRequest(o, model)).replace(/</g, '\\u003c');
    const tryIt = `<section class="try-it" aria-label="Try it"><h2>Try it</h2><p>Sends the example request above to a local sandbox (<code>pnpm docs:serve</code> starts one).</p><button type="button">Send the example request</button><pre class="try-it-result" tabindex="0" hidden></pre><script type="application/json" id="example-request">${request}</script></section><script src="../assets/try-it.js" defer></script>`;
    const body = `<main class="guide">${marked.parse(markdown)}${tryIt}</main>`;
    writeFileSync(join(out, 'operations', `${o.operationId}.html`), page(o.summary || o.operationId, '../', body));
    const title = `${o.summary} (${o.method.toUpperCase()} ${o.path})`;
    index.push({
      kind: 'Operation',
      title,
      text: `${o.operationId} ${o.tags.join(' ')}`,
      url: `operations/${o.operationId}.html`,
    });
  }
  writeFileSync(join(out, 'assets/search-index.js'), `window.SEARCH_INDEX = ${JSON.stringify(index)};\n`);
  return { operations: model.operations.length, entries: index.length };
}

if (process.argv[1] === import.meta.filename) {
  const { values } = parseArgs({
    options: { spec: { type: 'string' }, out: { type: 'string' }, guides: { type: 'string' } },
  });
  if (!values.spec || !values.out || !values.guides) {
    console.error(
      'Usage: node generators/portal/portal.mjs --spec <openapi.json> --out <portal dist> --guides <folder>',
    );
    process.exit(2);
  }
  buildPortal({ spec: values.spec, out: values.out, guidesDir: values.guides }).then(
    ({ operations, entries }) => console.log(`portal: ${operations} operation pages, ${entries} search entries`),
    (error) => {
      console.error(`portal: ${error.message}`);
      process.exit(1);
    },
  );
}
