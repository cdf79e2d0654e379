// The portal's reference (Redoc) made part of the one site, in two steps around `redocly build-docs`
// (packages/docs/scripts/build.mjs). Before (referenceSpec): the document Redoc renders, a copy of the portal's openapi.json where every
// operation's description opens with a link to its page with Try it, and where the texts Redoc
// shows as plain text (servers and their variables) lose their Markdown. After (finishReference): Redoc's
// page gets the site's header and icon, its own search box goes (the site's search replaces it),
// and the only thing it loaded from elsewhere (the "API docs by Redocly" badge from a CDN) is a
// local picture, so the page makes no request off its own origin.
import { isDestructive, METHODS } from '@hosting-api/openapi/model';
import { HEADER_STYLE, header, icon } from '../guides/guides.mjs';

/** Inline Markdown to plain text: `code`, **strong**, *emphasis* and [links](…) lose their marks. */
const plain = (text) =>
  text
    ?.replace(/`([^`]*)`/g, '$1')
    .replace(/\*\*?([^*]+)\*\*?/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');

export function referenceSpec(spec) {
  const doc = structuredClone(spec);
  // Servers are listed for the document, a path or an operation.
  const lists = [
    doc.servers,
    ...Object.values(doc.paths ?? {}).flatMap((i) => [i.servers, ...METHODS.map((m) => i[m]?.servers)]),
  ];
  for (const server of lists.flat().filter(Boolean)) {
    server.description = plain(server.description);
    for (const v of Object.values(server.variables ?? {})) v.description = plain(v.description);
  }
  for (const item of Object.values(doc.paths ?? {}))
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      const destructive = isDestructive(op, method);
      const link = `[Try it: send this request with your own credentials](operations/${op.operationId}.html)${destructive ? ' (it asks before sending: this request changes or deletes data for good)' : ''}`;
      op.description = op.description ? `${link}\n\n${op.description}` : link;
    }
  return doc;
}

// Redoc's CDN badge (the one request it makes off the page's origin) becomes this local picture.
const BADGE = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="16"><text x="0" y="12" font-family="sans-serif" font-size="12" fill="#555">Redocly</text></svg>')}`;
const CDN = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg/g;
// The site's search replaces Redoc's: its trigger is hidden (search.js takes its Ctrl+K too).
const HIDE_SEARCH =
  '[data-testid="search-trigger"],.menu-content>div:has(>[data-testid="search-trigger"]){display:none!important}';

export function finishReference(html) {
  if (html.includes('<header class="site">')) return html;
  if (!html.includes('https://cdn.redoc.ly/redoc/logo-mini'))
    throw new Error("Redoc's CDN badge was not found: check the page for requests off its origin");
  return html
    .replace(CDN, BADGE)
    .replace(/<head>/, `<head>${icon('')}`)
    .replace(/<body([^>]*)>/, `<body$1><style>${HEADER_STYLE}${HIDE_SEARCH}</style>${header('')}`);
}
