// The example app in headless Chromium (Debian's, through playwright-core), served from one origin
// and calling the sandbox on another: the sandbox's CORS, the client's browser bundle and the
// app's own flow, with a screenshot kept in test-results/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox } from '@hosting-api/sandbox';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs scripts without types
import { ensureChromium } from '../../../scripts/ensure-chromium.mjs';
// @ts-expect-error plain .mjs scripts without types
import { buildApp } from '../build.mjs';
// @ts-expect-error plain .mjs scripts without types
import { serve } from '../serve.mjs';

type Served = { origin: string; close(): void };
const results = join(import.meta.dirname, '../test-results');
const chromiumPath: { path?: string; skip?: string } = ensureChromium();
if (chromiumPath.skip) console.warn(`example browser test skipped: ${chromiumPath.skip}`);

describe.skipIf(!chromiumPath.path)('the example app in Chromium against the sandbox with CORS', () => {
  let browser: Browser;
  let page: Page;
  let app: Served;
  let other: Served;
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;

  beforeAll(async () => {
    const dist = await buildApp(join(results, 'dist'));
    [app, other] = await Promise.all([serve(dist), serve(dist)]);
    sandbox = await startSandbox({ port: 0, speed: 0, cors: [app.origin] });
    browser = await chromium.launch({
      executablePath: chromiumPath.path,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
    page = await browser.newPage(); // one page for both origins: a page costs a renderer process
  });
  afterAll(async () => {
    await browser?.close();
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
    mkdirSync(results, { recursive: true });
    await page.screenshot({ path: join(results, 'example-sandbox.png') });
  });

  it('gets no answer from an origin the sandbox does not allow (the browser blocks it)', async () => {
    await open(other.origin);
    await page.locator('#status.error').waitFor();
    expect(await page.textContent('#status')).toMatch(/Cannot reach the API/);
  });
});
