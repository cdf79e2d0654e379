// The built guides, changelog and shared header (pnpm run docs, generators/guides/guides.mjs): every
// guide built and listed, no broken internal link or anchor anywhere in the site, every page under
// one header, the guides saying what the spec says (message texts, state values), diagrams drawn
// at build time.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { loadModel } from '@hosting-api/openapi/model';
import { OUTCOMES } from '@hosting-api/sandbox';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs script without types
import { readGuides, stateDiagram } from '../../../generators/guides/guides.mjs';
// @ts-expect-error plain .mjs script without types
import { referenceSpec } from '../../../generators/portal/reference.mjs';

const dist = join(import.meta.dirname, '../dist');
const spec = JSON.parse(readFileSync(join(dist, 'openapi.json'), 'utf8'));
const guides: { slug: string; title: string; markdown: string }[] = readGuides(join(import.meta.dirname, '../guides'));
const read = (file: string) => readFileSync(join(dist, file), 'utf8');
const pages = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html'));

describe('the guides', () => {
  it('are built as pages and as Markdown, and listed in the guides index and llms.txt', () => {
    expect(guides.map((g) => g.slug)).toEqual(
      expect.arrayContaining(['getting-started', 'authentication', 'errors', 'pagination', 'limits', 'states']),
    );
    const index = read('guides/index.html');
    const llms = read('llms.txt');
    for (const g of guides) {
      expect(read(`guides/${g.slug}.html`)).toContain(`<title>${g.title.replace(/&/g, '&amp;')} — `);
      expect(read(`guides/${g.slug}.md`).split('\n')[0]).toBe(`# ${g.title}`);
      expect(index).toContain(`href="${g.slug}.html"`);
      expect(llms).toContain(`(guides/${g.slug}.md)`);
    }
  });

  it('has no broken internal link or anchor on any page of the site', () => {
    const broken: string[] = [];
    for (const page of pages) {
      const html = read(page);
      for (const [, href] of html.matchAll(/<a [^>]*href="([^"]+)"/g)) {
        if (/^(https?:|mailto:)/.test(href!)) continue;
        const [file, anchor] = href!.split('#');
        // Redoc's own links (#tag/…, /section/…, /sites) are routes its script handles, not files.
        if (page === 'index.html' && (!file || file.startsWith('/'))) continue;
        // An operation page's link into the reference: a Redoc route (#/tag/operationid), not an id.
        if (file?.endsWith('index.html') && anchor?.startsWith('/')) continue;
        const target = file ? join(dirname(join(dist, page)), file) : join(dist, page);
        if (!existsSync(target)) broken.push(`${page}: ${href} (no such file)`);
        else if (anchor && !readFileSync(target, 'utf8').includes(`id="${anchor}"`))
          broken.push(`${page}: ${href} (no such anchor)`);
      }
    }
    expect(pages.length).toBeGreaterThan(guides.length + 2);
    expect(broken).toEqual([]);
  });

  it('puts every page, the reference too, under one header', () => {
    for (const page of pages) {
      const header = /<header class="site">([\s\S]*?)<\/header>/.exec(read(page))?.[1];
      expect(header, page).toBeDefined();
      const up = relative(dirname(join(dist, page)), dist);
      const to = (file: string) => (up ? `${up}/${file}` : file);
      for (const file of ['index.html', 'guides/index.html', 'changelog.html', 'llms.txt'])
        expect(header, `${page} → ${file}`).toContain(`href="${to(file)}"`);
    }
  });

  it('say what the spec says: its message texts, and every state and status value it lists', async () => {
    const text = (slug: string) => guides.find((g) => g.slug === slug)!.markdown;
    const { messages } = await loadModel(join(dist, 'openapi.json'));
    expect(Object.keys(messages).length).toBeGreaterThan(3);
    for (const message of Object.values(messages)) expect(text('errors'), message).toContain(`\`${message}\``);
    // Open sets (states the documentation calls incomplete) list their values as examples.
    const schemas = spec.components.schemas;
    const listed = (schema: { enum?: string[]; examples?: string[] }) => schema.enum ?? schema.examples ?? [];
    const values = [schemas.SiteState, schemas.GitDeployState, schemas.OndemandBackup.properties.status].flatMap(
      listed,
    );
    expect(values.length).toBeGreaterThan(8);
    for (const value of values) expect(text('states'), value).toContain(`\`${value}\``);
  });

  it("has the sandbox guide's Testing failure paths: every outcome the sandbox offers, every fault kind", () => {
    const guide = guides.find((g) => g.slug === 'sandbox')!.markdown;
    const section = guide.slice(guide.indexOf('## Testing failure paths'));
    expect(section.startsWith('## Testing failure paths')).toBe(true);
    const body = section.slice(0, section.indexOf('\n## ', 3));
    for (const name of [...OUTCOMES, 'delay', 'timeout', 'drop', 'status', 'createWebhookReceiver'])
      expect(body, name).toContain(`\`${name}\``);
  });

  it("documents the client's webhook receiver in the webhooks guide and the client's README, with what it throws", () => {
    const guide = guides.find((g) => g.slug === 'webhooks')!.markdown;
    const readme = readFileSync(join(import.meta.dirname, '../../client/README.md'), 'utf8');
    for (const doc of [guide, readme])
      for (const word of ['createWebhookReceiver', 'repeat: true', 'WebhookDeliveryError', 'x-hosting-delivery'])
        expect(doc, word).toContain(word);
  });

  it('explains in the README\'s "What you may see" both boxed notices that Redocly CLI prints', () => {
    // The notices' first lines, as the installed Redocly CLI spells them (a new wording fails here).
    const cli = dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json'));
    const chunks = readdirSync(join(cli, 'lib'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(join(cli, 'lib', f), 'utf8'));
    const notices = ['build-docs now renders docs with Redoc 3.', 'Node.js 20 support is ending'];
    for (const notice of notices)
      expect(
        chunks.some((c) => c.includes(notice)),
        notice,
      ).toBe(true);
    const readme = readFileSync(join(import.meta.dirname, '../../../README.md'), 'utf8');
    const maysee = readme.slice(readme.indexOf('What you may see'), readme.indexOf('## What is here'));
    for (const notice of notices) expect(maysee, notice).toContain(notice);
  });

  it('draws the state diagrams at build time, as SVG with a text alternative', () => {
    const states = read('guides/states.html');
    expect(states.match(/<svg class="states"/g)?.length).toBe(5);
    expect(states).not.toContain('```states');
    const svg = stateDiagram('a -> b : go\nb --> a : not shown');
    expect(svg).toContain('aria-label="a to b: go; b to a: not shown"');
    expect(svg.match(/class="not-shown"/g)).toHaveLength(1);
    expect(() => stateDiagram('a to b')).toThrow(/line 1: write "from -> to : label"/);
  });

  it("has a changelog that names every package a pending changeset bumps, and the breaking-change gate's verdict", () => {
    const changelog = read('changelog.html');
    expect(changelog).toContain('The API description against its last release (the breaking-change gate)');
    expect(changelog).toMatch(/spec:diff: (no release of @hosting-api\/openapi yet|.* → .*: \d+ major)/);
    const dir = join(import.meta.dirname, '../../../.changeset');
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'README.md'))
      for (const [, name] of readFileSync(join(dir, file), 'utf8').matchAll(/^"(@hosting-api\/[\w-]+)":/gm))
        expect(changelog, `${file}: ${name}`).toContain(name);
  });

  it('gives every operation a page with its example request, and indexes every guide and operation for the search', () => {
    const operations = Object.values(spec.paths as Record<string, Record<string, { operationId?: string }>>)
      .flatMap((item) => Object.values(item))
      .map((op) => op.operationId)
      .filter((id): id is string => !!id);
    expect(operations.length).toBe(116);
    for (const id of operations) {
      const html = read(`operations/${id}.html`);
      const request = JSON.parse(
        /<script type="application\/json" id="example-request">(.*?)<\/script>/s.exec(html)![1]!,
      );
      expect(request.operationId).toBe(id);
      expect(request.path).not.toContain('{'); // every path parameter filled with its example
    }
    const index = JSON.parse(read('assets/search-index.js').replace(/^window\.SEARCH_INDEX = |;\n$/g, ''));
    expect(index.filter((e: { kind: string }) => e.kind === 'Operation')).toHaveLength(operations.length);
    expect(index.filter((e: { kind: string }) => e.kind === 'Guide')).toHaveLength(guides.length);
    // The reference's introduction, section by section, and the full text of every page.
    const sections = index
      .filter((e: { kind: string }) => e.kind === 'Reference')
      .map((e: { title: string }) => e.title);
    expect(sections).toEqual(expect.arrayContaining(['Pagination', 'Authentication', 'Errors', 'Limits']));
    const text = (url: string) => index.find((e: { url: string }) => e.url === url)?.text ?? '';
    expect(text('guides/pagination.html')).toContain('per_page');
    expect(text('operations/createAccessToken.html')).toContain('expires_in');
  });

  it('links every operation of the reference to its Try it, which asks first where the request is destructive', () => {
    const reference = read('index.html');
    const destructive: string[] = [];
    for (const [path, item] of Object.entries(spec.paths as Record<string, Record<string, Record<string, unknown>>>))
      for (const [method, op] of Object.entries(item)) {
        if (typeof op?.operationId !== 'string') continue;
        expect(reference.includes(`operations/${op.operationId}.html`), `${method} ${path}: no Try it link`).toBe(true);
        const html = read(`operations/${op.operationId}.html`);
        const request = JSON.parse(/id="example-request">(.*?)<\/script>/s.exec(html)![1]!);
        expect(request.destructive, op.operationId).toBe(method === 'delete' || op['x-destructive'] === true);
        if (request.destructive) destructive.push(op.operationId);
      }
    expect(destructive.length).toBeGreaterThan(10);
  });

  it("marks a restore the spec calls x-destructive in the reference's Try it link, as a DELETE", () => {
    const doc = referenceSpec({
      servers: [
        { url: 'https://{h}/v1', description: 'The base (`{base_url}`).', variables: { h: { description: '`x`' } } },
      ],
      paths: {
        '/r': {
          post: { operationId: 'restore', 'x-destructive': true },
          get: { operationId: 'look', description: 'Reads.' },
        },
        '/d': { delete: { operationId: 'remove' } },
      },
    });
    expect(doc.servers[0].description).toBe('The base ({base_url}).');
    expect(doc.servers[0].variables.h.description).toBe('x');
    expect(doc.paths['/r'].post.description).toMatch(
      /^\[Try it[^\]]*\]\(operations\/restore\.html\) \(it asks before sending/,
    );
    expect(doc.paths['/d'].delete.description).toContain('(it asks before sending');
    expect(doc.paths['/r'].get.description).toBe(
      '[Try it: send this request with your own credentials](operations/look.html)\n\nReads.',
    );
  });

  it("shows no raw Markdown in the reference's servers, and loads nothing from a CDN", () => {
    const reference = read('index.html');
    expect(reference.includes('cdn.redoc.ly/redoc/logo'), 'a CDN address').toBe(false);
    expect(reference.includes('rel="icon" href="assets/favicon.svg"'), 'the icon').toBe(true);
    const paths = Object.values(spec.paths as Record<string, { servers?: unknown[] }>);
    const servers = [...spec.servers, ...paths.flatMap((item) => item.servers ?? [])] as { description: string }[];
    expect(servers.length).toBeGreaterThan(2);
    for (const server of servers) {
      const shown = server.description.replace(/`([^`]*)`/g, '$1');
      expect(reference).toContain(JSON.stringify(shown).slice(1, -1));
      if (shown !== server.description)
        expect(reference).not.toContain(JSON.stringify(server.description).slice(1, -1));
    }
  });
});
