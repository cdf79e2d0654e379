import { defineConfig } from 'tsup';

// ESM and CommonJS builds with bundled declarations; generated code uses extensionless imports
// (orval), which only a bundler resolves, so the output is bundled per format.
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  platform: 'neutral',
  external: ['node:http', 'node:https', '@hosting-api/schemas'],
  treeshake: true,
});
