import { defineConfig } from 'tsup';

// ESM, one chunk shared by the two entries. The command table (src/generated, from the spec) and
// commander are bundled in: a run loads one file of ours instead of commander's seven CommonJS
// modules (about 40 ms of a cold start here). commander stays a dependency for the types of
// `buildProgram` (it returns a commander Command); the client stays a dependency. The declarations come
// from scripts/declarations.mjs after this build.
export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  clean: true,
  sourcemap: true,
  splitting: true,
  external: ['@hosting-api/client'],
  noExternal: ['commander'],
  // commander is CommonJS and requires Node's builtins (events, child_process, path, fs, process).
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
  },
});
