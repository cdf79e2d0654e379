import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm'],
  target: 'node20',
  dts: { entry: 'src/index.ts' },
  clean: true,
  sourcemap: true,
  // The spec is read at run time from @hosting-api/openapi, never inlined.
  external: ['@hosting-api/openapi', '@hosting-api/schemas'],
});
