#!/usr/bin/env node
// The portal's guides: packages/docs/guides/NN-slug.md (front matter: title, summary) rendered with
// marked into <out>/guides/slug.html beside their Markdown (for AI assistants), with ```states
// blocks drawn as SVG at build time ("a -> b : label"; "-->" for a transition the API documentation
// does not show). Every page, the Redoc reference included (generators/portal/reference.mjs), gets
// one header: Reference, Guides, Changelog, llms.txt and the site's search. Also writes the guides index and the changelog page
// (generators/changelog), and lists the guides in llms.txt.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Marked } from 'marked';
import { changelog } from '../changelog/changelog.mjs';

export const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** An SVG of a state diagram: states left to right in order of appearance, forward arrows above, back arrows below. */
export function stateDiagram(source) {
  const edges = source
    .trim()
    .split('\n')
    .map((line) => /^\s*(\S+)\s+(-->|->)\s+(\S+)\s*:\s*(.+)$/.exec(line))
    .map((m, i) => {
      if (!m) throw new Error(`states block, line ${i + 1}: write "from -> to : label" ("-->" for not shown)`);
      return { from: m[1], to: m[3], shown: m[2] === '->', label: m[4].trim() };
    });
  const states = [...new Set(edges.flatMap((e) => [e.from, e.to]))];
  const x = (s) => 90 + states.indexOf(s) * 200;
  const parts = states.map(
    (s) =>
      `<g class="state"><rect x="${x(s) - 65}" y="-22" width="130" height="44" rx="22"/><text x="${x(s)}" y="6">${esc(s)}</text></g>`,
  );
  let [top, bottom] = [-40, 40]; // the drawing's extent, for the viewBox
  edges.forEach((e, i) => {
    const [x1, x2, up] = [x(e.from), x(e.to), x(e.to) > x(e.from)];
    const lift = 45 + (Math.abs(x2 - x1) / 200) * 30 + (i % 2) * 22; // apex height: longer arcs higher
    const [y, cy, ly] = up ? [-22, -22 - lift * 2, -22 - lift - 6] : [22, 22 + lift * 2, 22 + lift + 16];
    [top, bottom] = [Math.min(top, ly - 20), Math.max(bottom, ly + 10)];
    const mid = (x1 + x2) / 2;
    parts.push(
      `<path class="${e.shown ? 'shown' : 'not-shown'}" d="M${x1} ${y} Q${mid} ${cy} ${x2 + (up ? -10 : 10)} ${y}" marker-end="url(#arrow)"/>`,
      `<text class="label" x="${mid}" y="${ly}">${esc(e.label)}</text>`,
    );
  });
  const width = 180 + (states.length - 1) * 200;
  const box = `0 ${top} ${width} ${bottom - top}`;
  const title = edges.map((e) => `${e.from} to ${e.to}: ${e.label}`).join('; ');
  return `<svg class="states" width="${width}" viewBox="${box}" role="img" aria-label="${esc(title)}" xmlns="http://www.w3.org/2000/svg"><defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0 0 L10 5 L0 10 z"/></marker></defs>${parts.join('')}</svg>`;
}

/** Markdown to HTML as the portal renders it: state diagrams as SVG, code blocks focusable. */
export const marked = new Marked({
  renderer: {
    code({ text, lang }) {
      if (lang === 'states') return `<figure>${stateDiagram(text)}</figure>\n`;
      // Focusable, so a keyboard can scroll a code block that overflows (WCAG 2.1.1).
      return `<pre tabindex="0"><code class="language-${esc(lang ?? '')}">${esc(text)}</code></pre>\n`;
    },
  },
});

// The header's style (every page, Redoc's included) and the guides' own.
export const HEADER_STYLE = readFileSync(join(import.meta.dirname, 'header.css'), 'utf8');
const STYLE = HEADER_STYLE + readFileSync(join(import.meta.dirname, 'guides.css'), 'utf8');
// The header: the site's parts, and one search over guides and operations (assets/search.js).
// The index and MiniSearch load on the search box's first use (search.js).
export const header = (up) =>
  `<header class="site"><a class="brand" href="${up}index.html">Hosting Platform Management API v1</a><nav aria-label="Site"><a href="${up}index.html">Reference</a><a href="${up}guides/index.html">Guides</a><a href="${up}changelog.html">Changelog</a><a href="${up}llms.txt">llms.txt</a></nav><span class="search" role="search"><input type="search" id="site-search" placeholder="Search the docs" aria-label="Search the reference, guides and operations" autocomplete="off"><ul id="site-search-results" hidden></ul></span></header><script src="${up}assets/search.js" defer></script>`;
/** The site's icon (a local file: without it browsers ask for /favicon.ico). */
export const icon = (up) => `<link rel="icon" href="${up}assets/favicon.svg" type="image/svg+xml">`;
export const page = (title, up, body) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)} — Hosting Platform Management API v1</title>${icon(up)}<style>${STYLE}</style></head><body>${header(up)}${body}</body></html>\n`;

/** The guides of a folder, in file order: { slug, title, summary, markdown }. */
export function readGuides(dir) {
  return readdirSync(dir)
    .filter((f) => /^\d+-[\w-]+\.md$/.test(f))
    .sort()
    .map((file) => {
      const text = readFileSync(join(dir, file), 'utf8');
      const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
      const meta = Object.fromEntries((m?.[1] ?? '').split('\n').map((l) => l.split(/:\s*(.*)/s).slice(0, 2)));
      if (!meta.title || !meta.summary) throw new Error(`${file}: front matter needs title and summary`);
      return {
        slug: file.replace(/^\d+-|\.md$/g, ''),
        title: meta.title,
        summary: meta.summary,
        markdown: text.slice(m[0].length),
      };
    });
}

export function buildGuides({ guidesDir, out, root, gate }) {
  const guides = readGuides(guidesDir);
  const put = (file, text) => writeFileSync(join(out, file), text);
  mkdirSync(join(out, 'guides'), { recursive: true });
  const link = (g) => `<a href="${g.slug}.html">${esc(g.title)}</a>`;
  for (const g of guides) {
    put(`guides/${g.slug}.md`, `# ${g.title}\n\n${g.summary}\n${g.markdown.replace(/^# .*\n/, '')}`);
    const nav = guides.map((o) => (o === g ? `<strong>${esc(o.title)}</strong>` : link(o))).join(' · ');
    const body = `<nav class="guides" aria-label="Guides">${nav}</nav><main class="guide">${marked.parse(g.markdown)}</main>`;
    put(`guides/${g.slug}.html`, page(g.title, '../', body));
  }
  const list = guides.map((g) => `<li>${link(g)} — ${esc(g.summary)}</li>`).join('');
  put('guides/index.html', page('Guides', '../', `<main class="guide"><h1>Guides</h1><ul>${list}</ul></main>`));
  put('changelog.html', page('Changelog', '', `<main class="guide">${marked.parse(changelog(root, gate))}</main>`));
  const llms = readFileSync(join(out, 'llms.txt'), 'utf8').replace(/\n## Guides\n[\s\S]*$/, '');
  const lines = guides.map((g) => `- [${g.title}](guides/${g.slug}.md): ${g.summary}`).join('\n');
  put('llms.txt', `${llms.trimEnd()}\n\n## Guides\n\n${lines}\n`);
  return guides;
}

if (process.argv[1] === import.meta.filename) {
  const { values } = parseArgs({
    options: {
      guides: { type: 'string' },
      out: { type: 'string' },
      root: { type: 'string' },
      gate: { type: 'string' },
    },
  });
  if (!values.guides || !values.out || !values.root) {
    console.error(
      'Usage: node generators/guides/guides.mjs --guides <folder of NN-slug.md> --out <portal dist> --root <repository>',
    );
    process.exit(2);
  }
  try {
    const gate = values.gate && readFileSync(values.gate, 'utf8'); // what spec:diff printed
    const guides = buildGuides({ guidesDir: values.guides, out: values.out, root: values.root, gate });
    console.log(`guides: ${guides.length} guides, the changelog and the shared header in ${values.out}`);
  } catch (error) {
    console.error(`guides: ${error.message}`);
    process.exit(1);
  }
}
