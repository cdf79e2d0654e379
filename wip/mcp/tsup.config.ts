import { defineConfig } from 'tsup';

// ESM. The tool table (src/generated, from the spec) is bundled in, and so are the MCP SDK and its
// zod (with Ajv and @hono/node-server, which the SDK loads): from node_modules they are some 300
// files and about 250 ms of a cold start here; bundled (esbuild drops what is not imported), two
// chunks. (tsup's `treeshake` adds a rollup pass: 2 s more to build, no faster start.) So the SDK is a
// devDependency, and an optional peer for the types of the programmatic API (`createServer` returns
// the SDK's Server). The client stays a dependency. The Streamable HTTP transport
// (behind --http) is a chunk of its own, loaded only then. The declarations come from
// scripts/declarations.mjs after this build.
export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  clean: true,
  sourcemap: true,
  splitting: true,
  external: ['@hosting-api/client'],
  noExternal: [/^@modelcontextprotocol\/sdk/, /^zod/, /^ajv/, /^@hono\//, /^json-schema-typed/],
  // Bundled CommonJS dependencies (ajv) require Node's builtins.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
  },
});
