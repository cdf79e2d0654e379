// Opens the built portal (dist/index.html, from `pnpm docs`) in headless Chromium with every
// request off the machine blocked, and checks what a reader sees.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs script without types
import { ensureChromium } from '../../../scripts/ensure-chromium.mjs';

const dist = join(import.meta.dirname, '../dist');
const portal = join(dist, 'index.html');
const screenshot = join(dist, 'portal.png');
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

interface Operation {
  tags?: string[];
  operationId: string;
  'x-client-method': string;
}

interface Spec {
  info: { description: string };
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, Record<string, Operation>>;
}

const chromiumPath: { path?: string; skip?: string } = ensureChromium();
if (chromiumPath.skip) console.warn(`portal browser test skipped: ${chromiumPath.skip}`);

describe.skipIf(!chromiumPath.path)('portal in headless Chromium', () => {
  let browser: Browser;
  let page: Page;
  let spec: Spec;
  const external: { url: string; type: string }[] = [];

  beforeAll(async () => {
    if (!existsSync(portal))
      throw new Error('packages/docs/dist/index.html not found: build the portal first (pnpm docs)');
    spec = JSON.parse(readFileSync(join(dist, 'openapi.json'), 'utf8')) as Spec;
    browser = await chromium.launch({
      executablePath: chromiumPath.path,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    // The portal must work offline: anything that is not the file itself is refused and recorded.
    await page.route('**/*', (route) => {
      const url = route.request().url();
      // Loopback is the machine itself: docs:serve and its sandbox, for Try it.
      if (/^(file:|data:|blob:|http:\/\/127\.0\.0\.1:)/.test(url)) return route.continue();
      external.push({ url, type: route.request().resourceType() });
      return route.abort();
    });
    await page.goto(pathToFileURL(portal).href);
    await page
      .locator('[data-component-name="Menu/MenuItem"].menu-item-type-group')
      .first()
      .waitFor({ timeout: 60_000 });
  });

  afterAll(async () => {
    await browser?.close();
  });

  const operationsByTag = () => {
    const counts = new Map<string, number>();
    for (const item of Object.values(spec.paths)) {
      for (const method of METHODS) {
        const tag = item[method]?.tags?.[0];
        if (tag) counts.set(tag, (counts.get(tag) ?? 0) + 1);
      }
    }
    return counts;
  };

  it('renders from the file alone: no script, style, font or data is fetched from elsewhere', () => {
    // Redoc's "API docs by" badge is an <img> that hides itself when it cannot load; nothing else may try.
    expect(external.filter((r) => r.type !== 'image')).toEqual([]);
    expect(external.every((r) => r.url.startsWith('https://cdn.redoc.ly/redoc/logo-mini'))).toBe(true);
  });

  it('shows the non-endpoint parts of the seed as front-page sections', async () => {
    const headings = [...spec.info.description.matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim());
    expect(headings).toEqual(
      expect.arrayContaining([
        'Conventions',
        'Response envelope',
        'Pagination',
        'Authentication',
        'Events',
        'Errors',
        'Limits',
        'Versioning',
      ]),
    );
    for (const heading of headings) {
      await expect(page.locator('h2', { hasText: heading }).first().isVisible()).resolves.toBe(true);
    }
    await page.screenshot({ path: join(dist, 'landing.png') });
  });

  it('lists every tag with exactly its operations, as many as the spec has', async () => {
    const expected = operationsByTag();
    const webhookIds = new Set(
      Object.values(spec.webhooks ?? {}).flatMap((item) =>
        Object.values(item).map((op) => op.operationId.toLowerCase()),
      ),
    );
    // Each group lists its operations once opened (a click on it). The clicks run in the page, one
    // group after another: Playwright's own click per group (scroll, stability checks) cost 3 s
    // more CPU for the same menu.
    const groups = await page
      .locator('[data-component-name="Menu/MenuItem"].menu-item-type-group')
      .evaluateAll(async (items) => {
        const out: [string, string[]][] = [];
        for (const group of items) {
          (group.querySelector('a') as HTMLElement).click();
          for (let i = 0; i < 500 && !group.querySelector('.menu-item-type-operation'); i++)
            await new Promise((resolve) => setTimeout(resolve, 10));
          const hrefs = [...group.querySelectorAll('.menu-item-type-operation a')].map(
            (a) => a.getAttribute('href') ?? '',
          );
          out.push([group.querySelector('[data-text]')?.getAttribute('data-text') ?? '', hrefs]);
        }
        return out;
      });
    const seen = new Map<string, number>();
    // Webhooks are listed under their tag too (after a "Webhooks" separator); they are not operations.
    for (const [name, hrefs] of groups)
      seen.set(name, hrefs.filter((h) => !webhookIds.has(h.split('/').pop()!)).length);
    expect([...seen.keys()].sort()).toEqual(spec.tags.map((t) => t.name).sort());
    expect(Object.fromEntries(seen)).toEqual(Object.fromEntries(expected));
    const total = [...seen.values()].reduce((a, b) => a + b, 0);
    expect(total).toBe([...expected.values()].reduce((a, b) => a + b, 0));
  });

  it('shows the generated TypeScript sample of an operation, and saves a screenshot', async () => {
    const op = spec.paths['/sites/{site_id}/notes']!.get!;
    // Follow the sidebar link of the operation, as a reader would.
    await page.locator('.menu-item-type-group a', { hasText: 'Notes' }).first().click();
    await page.locator(`.menu-item-type-operation a[href$="/${op.operationId.toLowerCase()}"]`).click();
    const code = page.locator('[data-component-name="CodeBlock/CodeBlock"]', {
      hasText: `client.${op['x-client-method']}(`,
    });
    await code.first().waitFor({ timeout: 20_000 });
    await expect(code.first().isVisible()).resolves.toBe(true);
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's locator.innerText(), not the DOM property
    await expect(code.first().innerText()).resolves.toContain("import { createClient } from '@hosting-api/client';");
    await page.screenshot({ path: screenshot });
    expect(existsSync(screenshot)).toBe(true);
  });

  it('shows a guide with its diagrams under the shared header, whose Reference link opens the reference', async () => {
    const guide = join(dist, 'guides/states.html');
    await page.goto(pathToFileURL(guide).href);
    await expect(page.locator('h1').textContent()).resolves.toBe('States and transitions');
    const diagram = page.locator('svg.states').first();
    await expect(diagram.boundingBox().then((box) => box?.width ?? 0)).resolves.toBeGreaterThan(300);
    await page.screenshot({ path: join(dist, 'guide.png'), fullPage: true });
    await page.locator('header.site a', { hasText: 'Reference' }).click();
    await page.locator('.menu-item-type-group a', { hasText: 'Notes' }).first().waitFor({ timeout: 20_000 });
    expect(page.url()).toBe(pathToFileURL(portal).href);
  });

  // Every page but the reference (opened above) in the browser: its scripts run without an error, and
  // the reader gets the shared header and the page's own title. The link checker in guides.test.ts
  // reads the same pages' links and anchors without a browser.
  it('renders every other page of the site: the header, its title, no script error; saves a screenshot of an operation page', async () => {
    const pages = readdirSync(dist, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.html') && f !== 'index.html')
      .sort();
    // A page for every operation of the spec, besides the guides and the changelog.
    const operationIds = Object.values(spec.paths).flatMap((item) =>
      METHODS.flatMap((m) => (item[m] ? [item[m].operationId] : [])),
    );
    expect(operationIds).toHaveLength(116);
    expect(pages).toEqual(
      expect.arrayContaining([...operationIds.map((id) => `operations/${id}.html`), 'changelog.html']),
    );
    const problems: string[] = [];
    const errors: string[] = [];
    // A tab of its own, small: the check needs the DOM and the scripts, not the pixels (a fifth faster).
    const small = await browser.newPage({ viewport: { width: 480, height: 320 } });
    const onError = (error: Error) => errors.push(error.message);
    const onConsole = (m: { type(): string; text(): string }) => {
      if (m.type() === 'error') errors.push(m.text());
    };
    small.on('pageerror', onError);
    small.on('console', onConsole);
    try {
      for (const file of pages) {
        errors.length = 0;
        await small.goto(pathToFileURL(join(dist, file)).href, { waitUntil: 'domcontentloaded' });
        const seen = await small.evaluate(() => ({
          header: document.querySelectorAll('header.site a').length,
          h1: document.querySelector('h1')?.textContent?.trim() ?? '',
          title: document.title,
        }));
        if (!seen.header) problems.push(`${file}: no shared header`);
        // The title is the page's own heading (an operation page's h1 adds its operationId) and the site's name.
        if (!seen.h1?.includes(seen.title.split(' — ')[0]!))
          problems.push(`${file}: h1 ${JSON.stringify(seen.h1)}, title ${JSON.stringify(seen.title)}`);
        for (const e of errors) problems.push(`${file}: ${e}`);
      }
    } finally {
      await small.close();
    }
    expect(problems).toEqual([]);
    await page.goto(pathToFileURL(join(dist, 'operations/createSiteNote.html')).href);
    await page.screenshot({ path: join(dist, 'operation.png'), fullPage: true });
  });

  // axe-core (Deque's accessibility engine) run in the reference and in one page of each other kind.
  it('has no serious or critical accessibility violation (axe-core) on any kind of page', async () => {
    const axe = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
    // One page of each kind: the pages of a kind share their template (code blocks, diagrams, Try it).
    const files = [
      'index.html',
      'changelog.html',
      'guides/index.html',
      'guides/getting-started.html',
      'guides/states.html',
      'operations/createSiteNote.html',
    ];
    const serious: string[] = [];
    for (const file of files) {
      await page.goto(pathToFileURL(join(dist, file)).href);
      // Redoc renders after load, with transient "Loading..." placeholders: check what a reader settles on.
      await page.waitForFunction(
        () => ![...document.querySelectorAll('span')].some((s) => s.textContent === 'Loading...'),
      );
      await page.addScriptTag({ path: axe });
      const violations = await page.evaluate(async () => {
        type Axe = {
          run(
            context: Document,
            options: object,
          ): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }>;
        };
        // Violations only: collecting the passes of Redoc's large page doubles axe's time.
        const result = await (window as unknown as { axe: Axe }).axe.run(document, { resultTypes: ['violations'] });
        return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
      });
      for (const v of violations)
        if (v.impact === 'serious' || v.impact === 'critical')
          serious.push(`${file}: ${v.id} (${v.impact}, ${v.nodes} nodes)`);
    }
    expect(serious).toEqual([]);
  });

  it('finds a guide and an operation with the search in the header, from a guide and from the reference', async () => {
    const search = async (query: string) => {
      await page.fill('#site-search', query);
      return page.locator('#site-search-results a').allTextContents();
    };
    await page.goto(pathToFileURL(join(dist, 'guides/limits.html')).href);
    expect(await search('list notes')).toContain("List a site's notes (GET /sites/{site_id}/notes)Operation");
    await page.locator('#site-search-results a', { hasText: "List a site's notes" }).click();
    await page.waitForURL(/operations\/listSiteNotes\.html$/);
    await page.goto(pathToFileURL(portal).href);
    expect(await search('webhooks')).toContain('Events and webhooksGuide');
    expect(await search('no such thing at all')).toEqual([]);
    await expect(page.locator('#site-search-results').textContent()).resolves.toBe('No guide or operation matches.');
  });

  it("sends an operation page's example request to the sandbox docs:serve starts (Try it)", async () => {
    const server = spawn(process.execPath, [join(import.meta.dirname, '../scripts/serve.mjs'), '--port', '0']);
    try {
      // Its one line, once the portal and the sandbox both listen (it may come in more than one chunk).
      let printed = '';
      while (!/sandbox at http\S+\n/.test(printed)) printed += String((await once(server.stdout!, 'data'))[0]);
      const base = /http:\/\/127\.0\.0\.1:\d+\//.exec(printed)![0];
      for (const [operation, expected] of [
        ['getAccount', /^GET http:\/\/127\.0\.0\.1:\d+\/v1\/account\n200 OK\n\n\{\n {2}"message": "Success"/],
        ['createSiteNote', /^POST http:\/\/127\.0\.0\.1:\d+\/v1\/sites\/123456\/notes\n200 OK\n[\s\S]*"subject": /],
        ['listSitePhpLogs', /sends a body with GET, which browsers cannot send/],
      ] as const) {
        await page.goto(`${base}operations/${operation}.html`);
        await page.click('section.try-it button');
        // The answer arrives after the click: read the result until it holds it.
        await expect.poll(() => page.locator('.try-it-result').textContent(), { timeout: 10_000 }).toMatch(expected);
      }
      // Without docs:serve (the files alone) Try it says what to run.
      await page.goto(pathToFileURL(join(dist, 'operations/getAccount.html')).href);
      await page.click('section.try-it button');
      await expect
        .poll(() => page.locator('.try-it-result').textContent(), { timeout: 10_000 })
        .toContain('Run `pnpm docs:serve`');
    } finally {
      server.kill();
    }
  });
});
