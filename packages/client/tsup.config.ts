import { defineConfig } from 'tsup';

// ESM and CommonJS builds with bundled declarations. The declarations inline openapi-typescript's
// types of the spec (spec/dist/openapi.d.ts, `@hosting-api/openapi/types`), so users need no other package.
export default defineConfig({
  // get-with-body.*: the two platform variants behind the package's `#get-with-body` import
  // (package.json "imports"), built on their own and resolved by Node or the user's bundler.
  entry: {
    index: 'src/index.ts',
    'get-with-body.node': 'src/runtime/get-with-body.node.ts',
    'get-with-body.browser': 'src/runtime/get-with-body.browser.ts',
  },
  format: ['esm', 'cjs'],
  dts: {
    entry: { index: 'src/index.ts' },
    compilerOptions: {
      paths: {
        '@hosting-api/openapi/types': ['../../spec/dist/openapi.d.ts'],
        '#get-with-body': ['./src/runtime/get-with-body.node.ts'],
      },
    },
  },
  clean: true,
  sourcemap: true,
  target: 'node20',
  platform: 'neutral',
  external: ['node:http', 'node:https', '@hosting-api/schemas', '#get-with-body'],
  treeshake: true,
});
