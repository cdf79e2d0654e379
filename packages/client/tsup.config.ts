import { defineConfig } from 'tsup';

// ESM and CommonJS builds with bundled declarations. The declarations inline openapi-typescript's
// types of the spec (spec/dist/openapi.d.ts, `@hosting-api/openapi/types`), so users need no other package.
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: { compilerOptions: { paths: { '@hosting-api/openapi/types': ['../../spec/dist/openapi.d.ts'] } } },
  clean: true,
  sourcemap: true,
  target: 'node20',
  platform: 'neutral',
  external: ['node:http', 'node:https', '@hosting-api/schemas'],
  treeshake: true,
});
