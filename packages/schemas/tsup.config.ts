import { defineConfig } from 'tsup';

// ESM (dist/index.js) and CommonJS (dist/index.cjs) builds, each with its declarations.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  // zod stays a runtime dependency, never bundled.
  external: ['zod'],
});
