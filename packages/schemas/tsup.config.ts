import { defineConfig } from 'tsup';

// ESM (dist/index.js) and CommonJS (dist/index.cjs) builds. The declarations (.d.ts, .d.cts) come
// from scripts/declarations.mjs after this build.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  sourcemap: true,
  clean: true,
  target: 'node20',
  // zod stays a runtime dependency, never bundled.
  external: ['zod'],
});
