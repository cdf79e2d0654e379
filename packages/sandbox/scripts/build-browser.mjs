#!/usr/bin/env node
// The browser build of `@hosting-api/sandbox/msw` (dist/msw.browser.js, the package's `browser`
// condition): src/msw.ts bundled with its dependencies for pages, msw left to the app (a peer).
// The Node-only pieces are swapped: src/browser/platform.ts for src/platform.ts, the spec document
// inlined, and stubs for the Node builtins a page never reaches (src/browser/node-stubs.cjs).
// Fails on any warning.
import { join } from 'node:path';
import { build } from 'esbuild';

const here = join(import.meta.dirname, '..');
const src = (file) => join(here, 'src', file);
const stubs = src('browser/node-stubs.cjs');
const swap = {
  [src('platform.ts')]: src('browser/platform.ts'),
  [src('spec-document.ts')]: src('browser/spec-document.ts'),
};

const result = await build({
  entryPoints: [src('msw.ts')],
  outfile: join(here, 'dist/msw.browser.js'),
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: 'es2022',
  minify: true,
  // No source map: it would be 8 MB of the package, for a file apps do not debug into.
  external: ['msw'],
  logLevel: 'silent',
  metafile: true,
  // Buffer (request bodies, downloads) from the `buffer` package, where the code uses it.
  inject: [src('browser/globals.ts')],
  define: { 'process.env.NODE_ENV': '"production"' },
  alias: { 'node:http': stubs, 'node:fs': stubs, 'node:assert': stubs, 'node:path': 'path-browserify' },
  plugins: [
    {
      name: 'browser-swaps',
      setup(b) {
        // The sources import the swapped modules as ./platform.js and ./spec-document.js.
        b.onResolve({ filter: /(platform|spec-document)\.js$/ }, (args) => {
          const file = join(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
          return swap[file] ? { path: swap[file] } : undefined;
        });
      },
    },
  ],
});
const problems = [...result.errors, ...result.warnings].map((m) => `${m.text} (${m.location?.file ?? ''})`);
if (problems.length) {
  console.error(`build-browser: ${problems.join('; ')}`);
  process.exit(1);
}
const bytes = Object.entries(result.metafile.outputs).find(([f]) => f.endsWith('msw.browser.js'))?.[1].bytes ?? 0;
console.log(`build-browser: dist/msw.browser.js ${(bytes / 1024).toFixed(0)} KB`);
