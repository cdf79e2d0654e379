// The example app in headless Chromium (Debian's, through playwright-core): served from one origin
// and calling the sandbox server on another (the sandbox's CORS, the client's browser bundle and the
// app's own flow), and on msw's browser worker with no server (@hosting-api/sandbox/msw's browser
// build), with screenshots kept in test-results/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DURATIONS, startSandbox } from '@hosting-api/sandbox';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAll, STEPS } from '../../../packages/sandbox/conformance/msw-table';
// @ts-expect-error plain .mjs scripts without types
import { ensureChromium } from '../../../scripts/ensure-chromium.mjs';
// @ts-expect-error plain .mjs scripts without types
import { buildApp } from '../build.mjs';
// @ts-expect-error plain .mjs scripts without types
import { serve } from '../serve.mjs';

type Served = { origin: string; close(): void };
type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
const results = join(import.meta.dirname, '../test-results');
const chromiumPath: { path?: string; skip?: string } = ensureChromium();
if (chromiumPath.skip) console.warn(`example browser test skipped: ${chromiumPath.skip}`);

describe.skipIf(!chromiumPath.path)('the example app in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let dist: string;

  beforeAll(async () => {
    dist = await buildApp(join(results, 'dist'));
    mkdirSync(results, { recursive: true });
    browser = await chromium.launch({
      executablePath: chromiumPath.path,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
    page = await browser.newPage(); // one page for the server's origins: a page costs a renderer process
  });
  afterAll(() => browser?.close());

  describe('against the sandbox server, with CORS', () => {
    let app: Served;
    let other: Served;
    let sandbox: Sandbox;
    beforeAll(async () => {
      [app, other] = await Promise.all([serve(dist), serve(dist)]);
      sandbox = await startSandbox({ port: 0, speed: 0, cors: [app.origin] });
    });
    afterAll(async () => {
      await sandbox?.stop();
      app?.close();
      other?.close();
    });

    async function open(origin: string): Promise<void> {
      await page.goto(`${origin}/?auth=${encodeURIComponent(sandbox.authUrl)}`);
      await page.click('#sign-in button');
    }

    it('signs in, lists the sites and adds a note from the allowed origin', async () => {
      await open(app.origin);
      await page.locator('#status', { hasText: 'Signed in' }).waitFor();
      const listed = await page.locator('#sites li').allTextContents();
      const seeded = sandbox.runtime.state.sites.map((s) => `${s.name} (${s.state})`);
      expect(listed.length).toBeGreaterThan(1);
      expect(seeded).toEqual(expect.arrayContaining(listed));

      await page.fill('#note [name=subject]', 'From the browser');
      await page.fill('#note [name=body]', 'Sent across origins.');
      await page.click('#note button');
      await page.locator('#status', { hasText: 'added' }).waitFor();
      expect(sandbox.runtime.state.notes.some((n) => n.subject === 'From the browser')).toBe(true);
      await page.screenshot({ path: join(results, 'example-sandbox.png') });
    });

    it('gets no answer from an origin the sandbox does not allow (the browser blocks it)', async () => {
      await open(other.origin);
      await page.locator('#status.error').waitFor();
      expect(await page.textContent('#status')).toMatch(/Cannot reach the API/);
    });
  });

  // Its own origin and page: the worker it registers must not touch the server runs above.
  describe("on msw's browser worker, no server", () => {
    let site: Served;
    let worker: Page;
    const START = '2026-11-02T09:00:00.000Z';
    beforeAll(async () => {
      site = await serve(dist);
      worker = await browser.newPage();
    });
    afterAll(() => site?.close());

    /** Opens msw.html with a frozen clock; resolves once the worker controls the page. */
    async function openMsw(): Promise<void> {
      await worker.goto(`${site.origin}/msw.html?speed=0&start=${START}`);
      await worker.locator('body[data-ready=msw]').waitFor();
      expect(await worker.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(
        `${site.origin}/mockServiceWorker.js`,
      );
    }

    it('answers the shared table as the sandbox server does', async () => {
      await openMsw();
      const server = await startSandbox({ port: 0, speed: 0, startTime: START });
      try {
        const expected = await runAll(
          (path) => (path.startsWith('/v1') ? server.url + path.slice(3) : server.authUrl + path),
          (ms) => server.advance(ms),
          STEPS,
        );
        // The same function, its source run in the page: every request there goes to /api on the
        // page's own origin, which only the worker answers (the static server has no /api).
        const inPage = await worker.evaluate(
          `(${runAll.toString()})((path) => location.origin + '/api' + path, (ms) => window.hostingSandbox.advance(ms), ${JSON.stringify(STEPS)})`,
        );
        for (const [i, step] of STEPS.entries()) expect((inPage as unknown[])[i], step.name).toEqual(expected[i]);
      } finally {
        await server.stop();
      }
    });

    it('runs the app, and takes a created site from deploying to live when the clock moves', async () => {
      await openMsw(); // a fresh load: a new sandbox in the page
      await worker.click('#sign-in button');
      await worker.locator('#status', { hasText: 'Signed in' }).waitFor();
      expect(await worker.locator('#sites li').count()).toBeGreaterThan(1);
      await worker.fill('#note [name=subject]', 'From the worker');
      await worker.fill('#note [name=body]', 'No server involved.');
      await worker.click('#note button');
      await worker.locator('#status', { hasText: 'added' }).waitFor();
      await worker.screenshot({ path: join(results, 'example-msw.png') });

      const states = await worker.evaluate(async (deployMs) => {
        const api = `${location.origin}/api`;
        const token = await fetch(`${api}/auth/token`, {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: 'sandbox-client',
            client_secret: 'sandbox-secret',
          }),
        }).then(async (r) => (await r.json()).data.access_token);
        const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
        const read = async (id: number) =>
          (await (await fetch(`${api}/v1/sites/${id}`, { headers })).json()).data.state as string;
        const created = await fetch(`${api}/v1/sites`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name: 'worker-shop' }),
        }).then((r) => r.json());
        const before = await read(created.data.id);
        (window as unknown as { hostingSandbox: { advance(ms: number): void } }).hostingSandbox.advance(deployMs);
        return { created: created.data.state, before, after: await read(created.data.id) };
      }, DURATIONS.siteDeploy);
      expect(states).toEqual({ created: 'deploying', before: 'deploying', after: 'live' });
    });
  });
});
