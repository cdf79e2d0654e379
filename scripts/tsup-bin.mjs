// The tsup build of a command-line package that also exports a library (the CLI, the MCP server):
// ESM for Node, one chunk shared by src/index.ts and src/cli.ts, the client left as a dependency and
// `bundled` packages inlined so a cold start loads a few files of ours instead of hundreds from
// node_modules. Bundled CommonJS code requires Node's builtins, hence the banner's `require`.
// The declarations come from scripts/declarations.mjs after this build.
/** @param {(string | RegExp)[]} bundled */
export const binConfig = (bundled) => ({
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  clean: true,
  sourcemap: true,
  splitting: true,
  external: ['@hosting-api/client'],
  noExternal: bundled,
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
  },
});
