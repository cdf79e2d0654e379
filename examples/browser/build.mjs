#!/usr/bin/env node
// Bundles the example for the browser with esbuild (the client resolves its browser variant) into
// dist/, beside index.html. Fails on any warning: a browser build must be clean.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const here = import.meta.dirname;
export async function buildApp(outdir = join(here, 'dist')) {
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    entryPoints: [join(here, 'src/main.ts')],
    outfile: join(outdir, 'app.js'),
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
  copyFileSync(join(here, 'index.html'), join(outdir, 'index.html'));
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
