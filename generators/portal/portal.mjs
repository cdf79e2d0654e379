// The portal's operation pages and its one search (buildPortal, run by packages/docs/scripts/build.mjs). For every operation of the bundled spec, an
// HTML page (<out>/operations/<operationId>.html, a stable deep link, linked from the operation in
// the reference) from the Markdown page the llms generator wrote, under the shared header, with
// its example request (the code samples' own examples) for the page's "Try it" (assets/try-it.js:
// the reader's own base URL and credentials). Then <out>/assets/search-index.js: the full text of
// every guide, every section of the reference's introduction and every operation page, which
// assets/search.js indexes with MiniSearch.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadModel } from '@hosting-api/openapi/model';
import { examples } from '../docs/code-samples.mjs';
import { esc, marked, page, readGuides } from '../guides/guides.mjs';

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
    destructive: o.destructive, // asks before sending (the model's list: every DELETE, a restore, …)
  };
}

/** Markdown as searchable text: no fences, table bars or emphasis marks. */
const text = (md) =>
  md
    .replace(/```\w*/g, ' ')
    .replace(/[|#*`>]|\]\([^)]*\)|\[/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
/** Redoc's anchor words: "Logs, reports, metrics" → logs-reports-metrics. */
const slug = (s) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const field = (id, label, attrs) => `<label for="try-${id}">${label}</label><input id="try-${id}" ${attrs}>`;
function tryItSection(request) {
  const path = `${request.path}${Object.keys(request.query).length ? `?${new URLSearchParams(request.query)}` : ''}`;
  const body = request.body
    ? `<label for="try-body">Body (${esc(request.body.mediaType)}, written as JSON)</label><textarea id="try-body" name="body" rows="6">${esc(JSON.stringify(request.body.value, null, 2))}</textarea>`
    : '';
  return `<section class="try-it" aria-labelledby="try-it-title"><h2 id="try-it-title">Try it</h2><p>Sends this request from your browser to the addresses you give, with your own credentials. They stay in this tab's session storage and go only there: the client ID and secret to the auth URL for a token, the token to the base URL. The server must allow this page's origin (CORS); the sandbox that <code>pnpm docs:serve</code> starts does.</p><p class="try-it-sandbox" hidden></p><form>${field('base', 'Base URL (<code>{base_url}</code>, ends in /v1)', 'name="base" type="url" placeholder="http://127.0.0.1:4011/v1" autocomplete="url"')}${field('auth', 'Auth URL (<code>{auth_url}</code>, serves /auth/token)', 'name="auth" type="url" placeholder="http://127.0.0.1:4011" autocomplete="url"')}${field('client-id', 'Client ID', 'name="clientId" autocomplete="off"')}${field('client-secret', 'Client secret', 'name="clientSecret" type="password" autocomplete="off"')}${field('path', `Path (from the ${request.root === 'auth' ? 'auth' : 'base'} URL)`, `name="path" value="${esc(path)}"`)}${body}<button type="submit">Send ${request.method}${request.destructive ? ' (asks first)' : ''}</button></form><pre class="try-it-result" tabindex="0" aria-live="polite" hidden></pre><script type="application/json" id="example-request">${JSON.stringify(request).replace(/</g, '\\u003c')}</script></section><script src="../assets/try-it.js" defer></script>`;
}

export async function buildPortal({ spec, out, guidesDir }) {
  const model = await loadModel(spec);
  mkdirSync(join(out, 'assets'), { recursive: true });
  const index = readGuides(guidesDir).map((g) => ({
    kind: 'Guide',
    title: g.title,
    text: text(`${g.summary} ${g.markdown}`),
    url: `guides/${g.slug}.html`,
  }));
  // The reference's introduction, a section per "## " heading (Redoc's #/section/<slug> anchors).
  for (const [, heading, body] of (model.document.info.description ?? '').matchAll(
    /^## (.+)\n([\s\S]*?)(?=^## |(?![\s\S]))/gm,
  ))
    index.push({
      kind: 'Reference',
      title: heading.trim(),
      text: text(body),
      url: `index.html#/section/${slug(heading)}`,
    });
  for (const o of model.operations) {
    const markdown = readFileSync(join(out, 'operations', `${o.operationId}.md`), 'utf8');
    const inReference = `<p class="in-reference"><a href="../index.html#/${slug(o.tags[0] ?? '')}/${o.operationId.toLowerCase()}">${esc(o.summary)} in the reference</a> · <a href="#try-it-title">Try it</a></p>`;
    const body = `<main class="guide">${inReference}${marked.parse(markdown)}${tryItSection(exampleRequest(o, model))}</main>`;
    writeFileSync(join(out, 'operations', `${o.operationId}.html`), page(o.summary || o.operationId, '../', body));
    const title = `${o.summary} (${o.method.toUpperCase()} ${o.path})`;
    index.push({
      kind: 'Operation',
      title,
      text: text(`${o.tags.join(' ')} ${markdown}`),
      url: `operations/${o.operationId}.html`,
    });
  }
  writeFileSync(join(out, 'assets/search-index.js'), `window.SEARCH_INDEX = ${JSON.stringify(index)};\n`);
  return { operations: model.operations.length, entries: index.length };
}
