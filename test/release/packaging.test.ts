// Packaging test: the published packages, packed as they would be published (`pnpm pack`
// rewrites workspace:* to versions) and installed into a scratch project outside the workspace
// (packed-install.ts, this package's vitest globalSetup), then read and loaded as a user's tools
// would: manifests, files, exports, declared dependencies, browser bundles and TypeScript types.
// It catches files missing from `files`, `exports` that point nowhere and dependencies that only
// the workspace provided. bins.test.ts and tools.test.ts run the installed bins on Node 20, 22 and 24.
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { createContext, runInContext } from 'node:vm';
import { build } from 'esbuild';
import { expect, it } from 'vitest';
import { brokenLinks } from '../../scripts/markdown-links.mjs';
import { ENGINES_NODE } from '../../scripts/node-lines.mjs';
import { BINS, binScript, describeInstalled, run, scratch, versions } from './installed.ts';

const PUBLISHED = [
  '@hosting-api/cli',
  '@hosting-api/client',
  '@hosting-api/contract',
  '@hosting-api/mcp',
  '@hosting-api/mock',
  '@hosting-api/openapi',
  '@hosting-api/sandbox',
  '@hosting-api/schemas',
];
const LIBRARIES = ['@hosting-api/client', '@hosting-api/schemas'];
/** Command-line packages with no library entry: their code is in dist/ (no declarations), their README examples are shell. */
const COMMANDS_ONLY = ['@hosting-api/contract'];
/**
 * Modules a package's code names without declaring them: Dredd hands the gate's hook files `hooks`;
 * the MCP server bundles Ajv, whose templates for standalone validators spell
 * `require("ajv/dist/runtime/…")`, requires the bundled Ajv never runs (tools.test.ts calls the
 * installed server's tools, with no Ajv installed).
 */
const PROVIDED: Record<string, string[]> = {
  '@hosting-api/contract': ['hooks'],
  '@hosting-api/mcp': ['ajv', 'ajv-formats'],
};
const REPO_URL = 'git+https://github.com/hosting-api/hosting-api.git';
const repoRoot = join(import.meta.dirname, '../..');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- package.json

/** Every string target of an `exports` map. */
function exportTargets(exports: unknown): string[] {
  if (typeof exports === 'string') return [exports];
  if (exports && typeof exports === 'object') return Object.values(exports).flatMap(exportTargets);
  return [];
}

/**
 * Bare module names a built file imports, requires or resolves (literal specifiers only). A browser
 * bundle loads only through import: a `require("…")` there is text (Ajv's code templates).
 */
function importedPackages(code: string, browserBundle = false): string[] {
  const names = new Set<string>();
  const loads = browserBundle
    ? /(?:\bfrom\s*|\bimport\s*\(\s*)["']((?:@[\w.-]+\/)?[\w-][\w.-]*(?:\/[\w./-]*)?)["']/g
    : /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\w*(?:\.resolve)?\s*\(\s*)["']((?:@[\w.-]+\/)?[\w-][\w.-]*(?:\/[\w./-]*)?)["']/g;
  for (const m of code.matchAll(loads)) {
    const spec = m[1]!;
    if (spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0]!)) continue;
    names.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
  }
  return [...names];
}

/** Bundles `source` (an app's entry in the scratch project) for the browser, as an app's bundler would. */
function bundleForBrowser(scratch: string, file: string, source: string, external: string[] = []) {
  writeFileSync(join(scratch, file), source);
  return build({
    absWorkingDir: realpathSync(scratch),
    entryPoints: [file],
    metafile: true,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
    external,
  });
}

/** The files a bundle took in, as paths under the scratch project's node_modules (pnpm links them from its store). */
const bundled = (inputs: Record<string, unknown>) =>
  Object.keys(inputs)
    .map((p) => p.replace(/^.*node_modules\/(?!.*node_modules\/)/, 'node_modules/'))
    .sort();

/** Whether node loads `file` as an ES module: .mjs, or .js under a package.json with "type": "module". */
function isModule(file: string): boolean {
  if (/\.mjs$/.test(file)) return true;
  if (!/\.js$/.test(file)) return false;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir))
    if (existsSync(join(dir, 'package.json')))
      return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).type === 'module';
  return false;
}

function builtFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(c|m)?js$/.test(f))
    .map((f) => join(dir, f));
}

// Types as a TypeScript user sees them (module nodenext): the `types` conditions must resolve
// and carry real types; each @ts-expect-error fails the check if the types were \`any\`.
const TYPES_ESM = `import { createClient, type GetSiteResult } from '@hosting-api/client';
import { Note, operations } from '@hosting-api/schemas';
import { startSandbox } from '@hosting-api/sandbox';
import { startMock } from '@hosting-api/mock';

const client = createClient({ baseUrl: 'http://127.0.0.1:1/v1', accessToken: 't' });
export const site: Promise<GetSiteResult> = client.sites.get(123456);
export const note: Note = Note.parse({});
export const op = operations.listSiteNotes.method;
export const servers = [startSandbox, startMock] as const;
// @ts-expect-error -- no such method
client.sites.noSuchMethod();
// @ts-expect-error -- a note's subject is a string
note.subject.toFixed();
`;

const TYPES_CJS = `import { createClient } from '@hosting-api/client';
import { Note } from '@hosting-api/schemas';

const client = createClient({ baseUrl: 'http://127.0.0.1:1/v1', accessToken: 't' });
export const account = client.account.get();
export const note: Note = Note.parse({});
// @ts-expect-error -- no such method
client.account.noSuchMethod();
`;

describeInstalled('packaging: the published packages installed from their tarballs outside the workspace', () => {
  const installed = (name: string) => join(scratch, 'node_modules', name);
  const manifest = (name: string): Json => JSON.parse(readFileSync(join(installed(name), 'package.json'), 'utf8'));

  it('installs every published (non-private) workspace package', () => {
    expect(Object.keys(versions).sort()).toEqual(PUBLISHED);
  });

  it.each(PUBLISHED)('%s: manifest, files and exports', (name) => {
    const pkg = manifest(name);
    expect(pkg.version).toBe(versions[name]);
    expect(pkg.description, 'description').toMatch(/\S{3}/);
    expect(pkg.license).toBe('MIT');
    expect(pkg.repository).toMatchObject({ type: 'git', url: REPO_URL });
    expect(pkg.repository.directory, 'repository.directory').toBeTruthy();
    expect(pkg.engines).toEqual({ node: ENGINES_NODE });
    expect(pkg.files, 'files').toEqual(expect.arrayContaining(['dist']));
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies'])
      for (const [dep, range] of Object.entries<string>(pkg[field] ?? {})) {
        expect(range, `${field}.${dep}`).not.toMatch(/^workspace:/);
        // Exact for dependencies (workspace:*), a caret range for the client's optional peer (workspace:^).
        if (dep.startsWith('@hosting-api/'))
          expect([versions[dep], `^${versions[dep]}`], `${field}.${dep}`).toContain(range);
      }

    const readme = readFileSync(join(installed(name), 'README.md'), 'utf8');
    expect(readme, 'README has an install section').toMatch(/^## Install/m);
    expect(readme, 'README says how to install').toContain(`npm install `);
    expect(readme).toContain(name);
    expect(readme, 'README has an example').toMatch(COMMANDS_ONLY.includes(name) ? /```sh\n/ : /```(ts|js)\n/);
    // Read on npm, the README has only the tarball's files: its other links use the repository's URL.
    const dir = realpathSync(installed(name));
    expect(brokenLinks(join(dir, 'README.md'), { root: dir, repoRoot, label: `the ${name} tarball` })).toEqual([]);

    const targets = [
      ...exportTargets(pkg.exports),
      pkg.main,
      pkg.types,
      ...Object.values<string>(pkg.bin ?? {}),
    ].filter(Boolean);
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets)
      expect(existsSync(join(installed(name), target)), `${target} is in the package`).toBe(true);

    if (LIBRARIES.includes(name)) {
      const dot = pkg.exports['.'];
      expect(dot.import.types).toMatch(/\.d\.ts$/);
      expect(dot.import.default).toMatch(/\.js$/);
      expect(dot.require.types).toMatch(/\.d\.cts$/);
      expect(dot.require.default).toMatch(/\.cjs$/);
    } else if (COMMANDS_ONLY.includes(name)) {
      expect(pkg.exports).toBeUndefined();
    } else if (name !== '@hosting-api/openapi') {
      expect(pkg.exports['.'].types).toMatch(/\.d\.ts$/);
    }
    const bin = BINS[name];
    if (bin) {
      expect(Object.keys(pkg.bin)).toEqual([bin]);
      expect(
        readFileSync(join(installed(name), pkg.bin[bin]), 'utf8').startsWith('#!/usr/bin/env node\n'),
        'shebang',
      ).toBe(true);
      expect(existsSync(join(scratch, 'node_modules/.bin', bin)), `.bin/${bin}`).toBe(true);
    } else expect(pkg.bin).toBeUndefined();
  });

  it.each(Object.entries(BINS))('%s: its command prints the installed version with --version and -V', (name, bin) => {
    for (const flag of ['--version', '-V']) {
      const r = run(process.execPath, [binScript(bin), flag], scratch);
      expect([r.status, r.out.trim()], `${bin} ${flag}`).toEqual([0, versions[name]]);
    }
  });

  it.each(PUBLISHED)('%s: every package its built code loads is a declared dependency', (name) => {
    const pkg = manifest(name);
    const declared = new Set([
      name,
      ...(PROVIDED[name] ?? []),
      ...Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies, ...pkg.optionalDependencies }),
    ]);
    const dist = join(installed(name), 'dist');
    const files = builtFiles(dist);
    if (name !== '@hosting-api/openapi') expect(files.length).toBeGreaterThan(0);
    for (const file of files)
      for (const dep of importedPackages(readFileSync(file, 'utf8'), file.endsWith('.browser.js')))
        expect(
          declared.has(dep),
          `${relative(installed(name), file)} loads ${dep}, which ${name} does not declare`,
        ).toBe(true);
  });

  // require() of an ES module is experimental on Node 20 (off with --no-experimental-require-module,
  // never for top-level await): Dredd loads the gate's hooks with require(), so they bundle ESM-only code.
  it.each(PUBLISHED)('%s: its CommonJS files require() no ES module', (name) => {
    const dist = join(installed(name), 'dist');
    const files = existsSync(dist) ? builtFiles(dist).filter((f) => f.endsWith('.cjs')) : [];
    for (const file of files)
      for (const m of readFileSync(file, 'utf8').matchAll(/\brequire\s*\(\s*["']([^"']+)["']\s*\)/g)) {
        const spec = m[1]!;
        if (spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0]!) || PROVIDED[name]?.includes(spec))
          continue;
        expect(isModule(createRequire(file).resolve(spec)), `${relative(installed(name), file)} requires ${spec}`).toBe(
          false,
        );
      }
  });

  it('@hosting-api/openapi: the spec files resolve through its exports', () => {
    const req = createRequire(join(scratch, 'index.js'));
    const spec = JSON.parse(readFileSync(req.resolve('@hosting-api/openapi/openapi.json'), 'utf8'));
    expect(spec.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(spec.paths).length).toBeGreaterThan(50);
    expect(readFileSync(req.resolve('@hosting-api/openapi/openapi.yaml'), 'utf8')).toMatch(/^openapi: ['"]?3\.1/m);
  });

  // The installed client in a browser build, as packages/client/test/browser-build.test.ts checks
  // the workspace build: esbuild --platform=browser, then the bundle run in a bare V8 context that
  // has the web APIs the client uses and no Node global (process, require, Buffer).
  it('@hosting-api/client: a browser app bundles with esbuild and runs without Node globals', async () => {
    const result = await bundleForBrowser(
      scratch,
      'browser-app.mjs',
      `import { createClient } from '@hosting-api/client';
globalThis.run = async () => {
  const client = createClient({ baseUrl: 'https://api.example.test/v1', accessToken: 't' });
  const account = await client.account.get();
  const refused = await client.sites.logs.php(123456, { status: 'Warning' }).then(() => null, (e) => e);
  return { method: typeof client.sites.notes.create, email: account.email, name: refused?.name, code: refused?.code, message: refused?.message };
};
`,
    );
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    // Everything from the installed package, with the browser variant behind #get-with-body.
    expect(bundled(result.metafile.inputs)).toEqual([
      'browser-app.mjs',
      'node_modules/@hosting-api/client/dist/get-with-body.browser.js',
      'node_modules/@hosting-api/client/dist/index.js',
    ]);
    const code = result.outputFiles[0]!.text;
    expect(code, 'a node: module').not.toMatch(/["'`]node:/);
    expect(code, 'a require()').not.toMatch(/\brequire\b/);

    const sent: string[] = [];
    const fetch = async (url: string, init: { method?: string }) => {
      sent.push(`${init.method} ${url}`);
      const body = { message: 'Success', data: { email: 'owner@example.test' }, errors: null };
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    };
    // A browser's globals the bundle may use (web APIs, none of Node's).
    const context = createContext({ fetch, URL, AbortController, setTimeout, clearTimeout, TextDecoder, performance });
    runInContext(code, context);
    expect(runInContext('[typeof process, typeof require, typeof Buffer, typeof global].join()', context)).toBe(
      'undefined,undefined,undefined,undefined',
    );
    const r = await context.run();
    expect(r).toMatchObject({ method: 'function', email: 'owner@example.test', name: 'TypeError' });
    expect(r.code).toBe('ERR_GET_WITH_BODY');
    expect(r.message).toMatch(
      /^listSitePhpLogs \(GET \/v1\/sites\/123456\/logs\/php\) sends a request body with GET, which fetch in browsers forbids/,
    );
    expect(sent, 'the GET with a body sent nothing').toEqual(['GET https://api.example.test/v1/account']);
  });

  it('@hosting-api/sandbox/msw: a browser app gets the browser build, which bundles clean', async () => {
    // msw is the app's own peer dependency: left out, as the app's bundler would find it.
    const result = await bundleForBrowser(
      scratch,
      'msw-app.mjs',
      `import { createSandboxHandlers } from '@hosting-api/sandbox/msw';\nexport default createSandboxHandlers;\n`,
      ['msw'],
    );
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(bundled(result.metafile.inputs)).toEqual([
      'msw-app.mjs',
      'node_modules/@hosting-api/sandbox/dist/msw.browser.js',
    ]);
    expect(result.outputFiles[0]!.text, 'a node: module').not.toMatch(/["'`]node:/);
  });

  it('types resolve for ESM and CommonJS TypeScript users (module nodenext)', () => {
    const dir = join(scratch, 'types');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'esm.mts'), TYPES_ESM);
    writeFileSync(join(dir, 'cjs.cts'), TYPES_CJS);
    const tsconfig = {
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      files: ['esm.mts', 'cjs.cts'],
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const r = run(process.execPath, [tsc, '-p', 'tsconfig.json'], dir);
    expect(r.out).toBe('');
    expect(r.status).toBe(0);
  });
});
