// Opens the built portal (dist/, from `pnpm run docs`) in headless Chromium as docs:serve serves it,
// with the sandbox docs:serve starts beside it (from the workspace package, CORS for the portal's
// origin only), and checks what a reader sees. Any request off the portal's origin fails the run,
// but Try it's own requests to the sandbox whose address the test types into the page.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs script without types
import { ensureChromium } from '../../../scripts/ensure-chromium.mjs';

const dist = join(import.meta.dirname, '../dist');
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
  let server: ChildProcess;
  let origin: string; // the portal's, e.g. http://127.0.0.1:41234
  let sandbox: string; // the sandbox's base URL (…/v1), as docs:serve prints it
  const external: string[] = [];
  const failed: string[] = []; // answers ≥ 400 from the portal itself (a missing /favicon.ico)
  const toSandbox: { method: string; url: string; body: string }[] = [];
  const at = (file: string) => `${origin}/${file}`;

  beforeAll(async () => {
    if (!existsSync(join(dist, 'index.html')))
      throw new Error('packages/docs/dist/index.html not found: build the portal first (pnpm run docs)');
    spec = JSON.parse(readFileSync(join(dist, 'openapi.json'), 'utf8')) as Spec;
    // One server for the file: docs:serve, the portal and the sandbox beside it, started while Chromium starts.
    server = spawn(process.execPath, [join(import.meta.dirname, '../scripts/serve.mjs'), '--port', '0']);
    const listening = async () => {
      let printed = ''; // its one line, once both listen (it may come in more than one chunk)
      while (!/sandbox at http\S+\n/.test(printed)) printed += String((await once(server.stdout!, 'data'))[0]);
      return printed;
    };
    const [printed, launched] = await Promise.all([
      listening(),
      chromium.launch({
        executablePath: chromiumPath.path,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
          '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
        ],
      }),
    ]);
    browser = launched;
    origin = /(http:\/\/127\.0\.0\.1:\d+)\//.exec(printed)![1]!;
    sandbox = /sandbox at (http\S+)\n/.exec(printed)![1]!;
    const sandboxOrigin = new URL(sandbox).origin;
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    // The portal must work offline and alone: any request off its origin is recorded (a failure), but
    // what Try it sends to the sandbox the test typed in. Recorded, not intercepted: interception
    // (page.route) costs a round trip per request, a third of the time of the every-page check; the
    // browser itself resolves no name but the loopback address (--host-resolver-rules).
    context.on('request', (request) => {
      const url = request.url();
      if (url.startsWith(`${origin}/`) || /^(data:|blob:)/.test(url)) return;
      if (url.startsWith(`${sandboxOrigin}/`))
        toSandbox.push({ method: request.method(), url, body: request.postData() ?? '' });
      else external.push(`${request.resourceType()} ${url}`);
    });
    context.on('response', (response) => {
      if (response.status() >= 400 && response.url().startsWith(origin))
        failed.push(`${response.status()} ${response.url()}`);
    });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    server?.kill();
  });

  /** The reference, loaded only when the page is not on it (a test run alone, with -t): the tests
   * read the one an earlier test loaded, as each load of Redoc costs seconds. */
  const onReference = async () => {
    if (page.url().split('#')[0] !== at('index.html')) await page.goto(at('index.html'));
    await page
      .locator('[data-component-name="Menu/MenuItem"].menu-item-type-group')
      .first()
      .waitFor({ timeout: 60_000 });
  };

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

  // axe-core (Deque's accessibility engine) run in the reference and in one page of each other kind.
  // First, and the reference last: the tests after it read the reference this test loaded (each load
  // of Redoc's 2.9 MB page costs seconds of CPU).
  it('has no serious or critical accessibility violation (axe-core) on any kind of page', async () => {
    const axe = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
    // One page of each kind: the pages of a kind share their template (code blocks, diagrams, Try it).
    const files = [
      'changelog.html',
      'guides/index.html',
      'guides/getting-started.html',
      'guides/states.html',
      'operations/createSiteNote.html',
      'index.html',
    ];
    const serious: string[] = [];
    for (const file of files) {
      await page.goto(at(file));
      if (file === 'index.html')
        await page
          .locator('[data-component-name="Menu/MenuItem"].menu-item-type-group')
          .first()
          .waitFor({ timeout: 60_000 });
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

  it('renders the reference from its own origin: no script, style, font, picture or icon from elsewhere, no 404', () => {
    expect(external).toEqual([]);
    expect(failed).toEqual([]);
  });

  it('shows the non-endpoint parts of the seed as front-page sections', async () => {
    await onReference();
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
    await onReference();
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
    await onReference();
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
    await page.goto(at('guides/states.html'));
    await expect(page.locator('h1').textContent()).resolves.toBe('States and transitions');
    const diagram = page.locator('svg.states').first();
    await expect(diagram.boundingBox().then((box) => box?.width ?? 0)).resolves.toBeGreaterThan(300);
    await page.screenshot({ path: join(dist, 'guide.png'), fullPage: true });
    await page.locator('header.site a', { hasText: 'Reference' }).click();
    await page.locator('.menu-item-type-group a', { hasText: 'Notes' }).first().waitFor({ timeout: 20_000 });
    expect(page.url()).toBe(at('index.html'));
  });

  // Every page but the reference (opened above) in the browser: its scripts run without an error, and
  // the reader gets the shared header, one search box and the page's own title. The link checker in
  // guides.test.ts reads the same pages' links and anchors without a browser.
  it('renders every other page of the site: the header, one search box, its title, no script error', async () => {
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
    // Each page in an iframe of a tab that holds nothing else (a page of the site, the guides' index,
    // emptied): the page's own document, scripts and DOM, as in a tab of its own, for half the CPU of
    // a top-level navigation per page. Four tabs at once, each reporting its own page's errors.
    const problems: string[] = [];
    const queue = [...pages];
    const check = async () => {
      const tab = await page.context().newPage();
      const errors: string[] = [];
      tab.on('pageerror', (error) => errors.push(error.message));
      tab.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      try {
        await tab.goto(at('guides/index.html'));
        for (let file = queue.shift(); file; file = queue.shift()) {
          errors.length = 0;
          const seen = await tab.evaluate(async (url) => {
            const frame = Object.assign(document.createElement('iframe'), { src: url });
            const loaded = new Promise((done) => frame.addEventListener('load', done, { once: true }));
            document.body.replaceChildren(frame);
            await loaded;
            const doc = frame.contentDocument!;
            return {
              url: doc.URL,
              header: doc.querySelectorAll('header.site a').length,
              searches: doc.querySelectorAll('input[type=search]').length,
              h1: doc.querySelector('h1')?.textContent?.trim() ?? '',
              title: doc.title,
            };
          }, at(file));
          if (seen.url !== at(file)) problems.push(`${file}: loaded ${seen.url}`);
          if (!seen.header) problems.push(`${file}: no shared header`);
          if (seen.searches !== 1) problems.push(`${file}: ${seen.searches} search boxes`);
          // The title is the page's own heading (an operation page's h1 adds its operationId) and the site's name.
          if (!seen.h1?.includes(seen.title.split(' — ')[0]!))
            problems.push(`${file}: h1 ${JSON.stringify(seen.h1)}, title ${JSON.stringify(seen.title)}`);
          for (const e of errors) problems.push(`${file}: ${e}`);
        }
      } finally {
        await tab.close();
      }
    };
    await Promise.all([check(), check(), check(), check()]);
    expect(problems).toEqual([]);
  });

  it("shows one search box on the reference: the site's (Redoc's own is hidden), which Ctrl+K focuses", async () => {
    await onReference(); // where the guide's Reference link left the reader
    await page.locator('.menu-item-type-group a', { hasText: 'Notes' }).first().waitFor({ timeout: 20_000 });
    const visible = await page.evaluate(
      () =>
        [...document.querySelectorAll('input, [data-testid="search-trigger"]')].filter(
          (e) =>
            /search/i.test(`${e.getAttribute('type')} ${e.getAttribute('data-testid')}`) &&
            (e as HTMLElement).offsetParent,
        ).length,
    );
    expect(visible).toBe(1);
    await page.keyboard.press('Control+k');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('site-search');
  });

  // The four words a newcomer looked for (full text, not titles), and a typo.
  it('finds the pages that hold a word, from the reference and from a guide, typos included', async () => {
    const search = async (query: string) => {
      await page.fill('#site-search', query);
      const first = page.locator('#site-search-results li').first();
      await first.waitFor();
      return page
        .locator('#site-search-results a')
        .evaluateAll((links) =>
          links.map((a) => `${a.firstChild?.textContent} (${a.querySelector('small')?.textContent})`),
        );
    };
    const wanted: [string, string][] = [
      ['expires_in', 'Authentication and scopes (Guide)'],
      ['expires_in', 'Obtain an access token (POST /auth/token) (Operation)'],
      ['429', 'Limits (Guide)'],
      ['Retry-After', 'Limits (Guide)'],
      ['per_page', 'Pagination (Guide)'],
      ['per_page', 'List sites (GET /sites) (Operation)'],
      ['webhok', 'Events and webhooks (Guide)'],
      ['createWebhookReceiver', 'Events and webhooks (Guide)'],
      ['git_deploy_duplicate_delivery', 'Using the sandbox (Guide)'],
    ];
    const missing: string[] = [];
    for (const [query, title] of wanted) {
      const found = await search(query);
      if (!found.slice(0, 5).includes(title)) missing.push(`${query}: ${title} not in the first five of ${found}`);
    }
    expect(missing).toEqual([]);
    await page.screenshot({ path: join(dist, 'search-reference.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(at('guides/limits.html'));
    await search('per_page');
    await page.screenshot({ path: join(dist, 'search-390.png') });
    await page.locator('#site-search-results a', { hasText: 'List sites (GET /sites)' }).click();
    await page.waitForURL(/operations\/listSites\.html$/);
    await page.setViewportSize({ width: 1440, height: 1000 });
    expect(await search('no such thing at all')).toEqual([]);
    await expect(page.locator('#site-search-results').textContent()).resolves.toBe('No page matches.');
  });

  it('fits a 390 px wide screen without scrolling sideways: the reference, a guide, an operation page, the changelog', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const wide: string[] = [];
    // The reference last: the reader stays on it, at 390 px, for the next test.
    for (const file of ['guides/pagination.html', 'operations/createSiteNote.html', 'changelog.html', 'index.html']) {
      await page.goto(at(file));
      if (file === 'index.html') {
        await page.locator('h2', { hasText: 'Pagination' }).first().waitFor({ timeout: 20_000 });
        await page.screenshot({ path: join(dist, 'reference-landing-390.png') });
      }
      const { scroll, client } = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }));
      if (scroll > client) wide.push(`${file}: ${scroll} px wide`);
    }
    expect(wide).toEqual([]);
  });

  it('takes a reader from an operation of the reference to its Try it, filled with the sandbox docs:serve started, which answers 200', async () => {
    await page.setViewportSize({ width: 390, height: 844 }); // on a phone
    // From the reference the test above left open, only the route changes (no second load of Redoc).
    await page.goto(at('index.html#/notes/createsitenote'));
    const link = page.locator('a[href="operations/createSiteNote.html"]').first();
    await link.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(dist, 'reference-operation-390.png') });
    await link.click();
    await page.waitForURL(/operations\/createSiteNote\.html$/);
    const authUrl = new URL(sandbox).origin;
    // The four values docs:serve printed, in the fields, with nothing typed.
    const fields = ['#try-base', '#try-auth', '#try-client-id', '#try-client-secret'];
    await expect
      .poll(() => Promise.all(fields.map((f) => page.inputValue(f))))
      .toEqual([sandbox, authUrl, 'sandbox-client', 'sandbox-secret']);
    await page.fill('#try-client-secret', 'sandbox-secret'); // typed: the tab keeps all four (next test)
    await page.click('section.try-it button[type=submit]');
    await expect
      .poll(() => page.locator('.try-it-result').textContent(), { timeout: 10_000 })
      .toMatch(
        /^POST http:\/\/127\.0\.0\.1:\d+\/v1\/sites\/123456\/notes\n200 OK\n[\s\S]*"subject": "Launch checklist"/,
      );
    // The secret went to the auth URL's token operation, and nowhere else; the token to the base URL.
    const withSecret = toSandbox.filter((r) => r.body.includes('sandbox-secret'));
    expect(withSecret.map((r) => `${r.method} ${r.url}`)).toEqual([`POST ${authUrl}/auth/token`]);
    expect(toSandbox.map((r) => `${r.method} ${r.url}`)).toEqual([
      `POST ${authUrl}/auth/token`,
      `POST ${sandbox}/sites/123456/notes`,
    ]);
    await page.locator('.try-it-result').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(dist, 'try-it-390.png') });
    await page.setViewportSize({ width: 1440, height: 1000 });
  });

  it('keeps the addresses and credentials for the tab, and asks before a destructive request', async () => {
    toSandbox.length = 0;
    await page.goto(at('operations/deleteSiteNote.html'));
    await expect(page.inputValue('#try-client-secret')).resolves.toBe('sandbox-secret');
    const stored = await page.evaluate(() => sessionStorage.getItem('hosting-api:try-it'));
    expect(JSON.parse(stored!)).toMatchObject({ base: sandbox, clientId: 'sandbox-client' });
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      return dialog.dismiss();
    });
    await page.click('section.try-it button[type=submit]');
    await expect.poll(() => page.locator('.try-it-result').textContent()).toBe('Not sent.');
    expect(asked[0]).toMatch(
      /^DELETE http:\/\/127\.0\.0\.1:\d+\/v1\/sites\/123456\/notes\/\d+\n\nThis changes or deletes data/,
    );
    expect(toSandbox).toEqual([]); // not even a token was asked for
  });

  it('refuses a base URL without /v1 before sending, and shows why the auth URL refused a token', async () => {
    toSandbox.length = 0;
    await page.goto(at('operations/getSite.html'));
    const authUrl = new URL(sandbox).origin;
    const result = () => page.locator('.try-it-result').textContent();
    await page.fill('#try-base', authUrl);
    await page.click('section.try-it button[type=submit]');
    await expect
      .poll(result)
      .toMatch(/^The base URL ends in \/v1 \(http:\/\/127\.0\.0\.1:\d+\/v1, if that is the server\)/);
    expect(toSandbox).toEqual([]);
    await page.fill('#try-base', sandbox);
    await page.fill('#try-client-secret', 'not-the-secret');
    await page.click('section.try-it button[type=submit]');
    // The envelope's errors entry, not only its generic message.
    await expect
      .poll(result)
      .toBe(
        `${authUrl}/auth/token answered 400: There was a problem processing your request. Invalid client credentials.`,
      );
    await page.fill('#try-client-secret', 'sandbox-secret');
  });

  it('made no request off its origin on any page, and asked its origin for nothing missing', () => {
    expect(external).toEqual([]);
    expect(failed).toEqual([]);
  });
});
