import { defineConfig } from 'tsup';

// ESM and CommonJS builds. The declarations come from scripts/declarations.mjs after this build
// (tsconfig.build.json); they carry openapi-typescript's types of the spec (spec/dist/openapi.d.ts,
// `@hosting-api/openapi/types`) as dist/openapi.d.ts, so users need no other package.
export default defineConfig({
  // get-with-body.*: the two platform variants behind the package's `#get-with-body` import
  // (package.json "imports"), built on their own and resolved by Node or the user's bundler.
  entry: {
    index: 'src/index.ts',
    'get-with-body.node': 'src/runtime/get-with-body.node.ts',
    'get-with-body.browser': 'src/runtime/get-with-body.browser.ts',
  },
  format: ['esm', 'cjs'],
  clean: true,
  sourcemap: true,
  target: 'node20',
  platform: 'neutral',
  external: ['node:http', 'node:https', 'node:zlib', '@hosting-api/schemas', '#get-with-body'],
  treeshake: true,
});
