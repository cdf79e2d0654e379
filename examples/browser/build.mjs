#!/usr/bin/env node
// Bundles the example for the browser with esbuild (the client and the sandbox's MSW handlers
// resolve their browser builds) into dist/: app.js for index.html (the app on a sandbox server),
// msw-app.js for msw.html (the app on msw's worker, no server) and msw's worker script.
// Fails on any warning: a browser build must be clean.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';

const here = import.meta.dirname;
export async function buildApp(outdir = join(here, 'dist')) {
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    entryPoints: [
      { in: join(here, 'src/main.ts'), out: 'app' },
      { in: join(here, 'src/msw.ts'), out: 'msw-app' },
    ],
    outdir,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    logLevel: 'silent',
    // Our own options only: not the repository's tsconfig (paths to sources).
    tsconfigRaw: {},
  });
  const problems = [...result.errors, ...result.warnings].map((m) => m.text);
  if (problems.length) throw new Error(`esbuild: ${problems.join('; ')}`);
  const html = readFileSync(join(here, 'index.html'), 'utf8');
  writeFileSync(join(outdir, 'index.html'), html);
  writeFileSync(join(outdir, 'msw.html'), html.replace('src="app.js"', 'src="msw-app.js"'));
  copyFileSync(
    createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'),
    join(outdir, 'mockServiceWorker.js'),
  );
  return outdir;
}

if (process.argv[1] === import.meta.filename) {
  buildApp().then(
    (dir) => console.log(`built ${dir}`),
    (error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
