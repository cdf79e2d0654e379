import { defineConfig } from 'tsup';

// The declarations come from scripts/declarations.mjs after this build.
export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts', 'src/msw.ts'],
  format: ['esm'],
  target: 'node20',
  clean: true,
  sourcemap: true,
  // The spec is read at run time from @hosting-api/openapi, never inlined.
  external: ['@hosting-api/openapi', '@hosting-api/schemas', 'msw'],
});
