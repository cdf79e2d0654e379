// The client in browsers: an app that imports it bundles for the browser with esbuild and with
// Vite with no error or warning and no Node builtin, and in that build the two operations the API documents as
// GET with a body fail naming the operation, unless the caller passes a custom fetch.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { createLogger, build as viteBuild } from 'vite';
import { beforeAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'client-browser-'));
const entry = join(dir, 'app.ts');
const out = join(dir, 'app.js');
// The app: three methods, and one GET-with-body call with and without a custom fetch. It imports the
// built package (`@hosting-api/client` resolves to this package's dist through node_modules).
writeFileSync(
  entry,
  `import { createClient } from '@hosting-api/client';
export async function run() {
  const seen: string[] = [];
  const client = createClient({ baseUrl: 'https://api.example.test/v1', accessToken: 't', maxRetries: 2 });
  const methods = [typeof client.sites.list, typeof client.sites.get, typeof client.sites.notes.create];
  const refused = await client.sites.logs.php(123456, { status: 'Warning' }).then(() => null, (e) => e);
  const custom = createClient({
    baseUrl: 'https://api.example.test/v1',
    accessToken: 't',
    fetch: async (url, init) => {
      seen.push(init.method + ' ' + url + ' ' + init.body);
      return new Response(JSON.stringify({ message: 'Success', data: { total_results: 0, logs: [], scroll_id: null }, errors: null }), { headers: { 'content-type': 'application/json' } });
    },
  });
  await custom.sites.logs.php(123456, { status: 'Warning' });
  return { methods, name: refused?.name, message: refused?.message, code: refused?.code, seen };
}
`,
);

// A user's own (empty) tsconfig: the package's tsconfig maps #get-with-body to its Node source for
// type-checking, which a user's build never sees.
writeFileSync(join(dir, 'tsconfig.json'), '{}');

let result: Awaited<ReturnType<typeof build>>;
beforeAll(async () => {
  result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    outfile: out,
    write: true,
    metafile: true,
    logLevel: 'silent',
    tsconfig: join(dir, 'tsconfig.json'),
    nodePaths: [join(import.meta.dirname, '../node_modules')],
    alias: { '@hosting-api/client': join(import.meta.dirname, '..') },
  });
});

describe('the client in a browser build', () => {
  it('bundles with esbuild --platform=browser with no error or warning, and no Node builtin', () => {
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    const inputs = Object.keys(result.metafile!.inputs);
    expect(inputs.some((f) => f.endsWith('get-with-body.browser.js'))).toBe(true);
    expect(inputs.filter((f) => /get-with-body\.node|^node:|\/node:/.test(f))).toEqual([]);
  });

  it('bundles with Vite (its production build) with no error or warning, and no Node builtin', async () => {
    const warnings: string[] = [];
    const logger = createLogger('warn', { allowClearScreen: false });
    logger.warn = (message) => warnings.push(message);
    logger.warnOnce = (message) => warnings.push(message);
    const output = await viteBuild({
      root: dir,
      configFile: false,
      customLogger: logger,
      logLevel: 'warn',
      resolve: { alias: { '@hosting-api/client': join(import.meta.dirname, '..') } },
      build: {
        write: false,
        minify: true,
        lib: { entry, formats: ['es'], fileName: 'app' },
      },
    });
    const chunks = (Array.isArray(output) ? output : [output]).flatMap((o) => ('output' in o ? o.output : []));
    const code = chunks.map((c) => ('code' in c ? c.code : '')).join('\n');
    expect(warnings).toEqual([]);
    expect(code).toContain('ERR_GET_WITH_BODY'); // the browser variant, bundled
    expect(code).not.toMatch(/["'`]node:|require\(["'`]https?["'`]\)/);
    const modules = chunks.flatMap((c) => ('moduleIds' in c ? c.moduleIds : []));
    expect(modules.some((m) => m.endsWith('get-with-body.browser.js'))).toBe(true);
    expect(modules.filter((m) => /get-with-body\.node|^node:/.test(m))).toEqual([]);
  });

  it('fails a GET with a body naming the operation and why, at once, and sends it through a custom fetch', async () => {
    const { run } = await import(pathToFileURL(out).href);
    const r = await run();
    expect(r.methods).toEqual(['function', 'function', 'function']);
    expect(r.name).toBe('TypeError');
    expect(r.code).toBe('ERR_GET_WITH_BODY');
    expect(r.message).toMatch(
      /^listSitePhpLogs \(GET \/v1\/sites\/123456\/logs\/php\) sends a request body with GET, which fetch in browsers forbids/,
    );
    expect(r.message).toContain('custom `fetch`');
    expect(r.seen).toEqual(['GET https://api.example.test/v1/sites/123456/logs/php {"status":"Warning"}']);
  });
});
