import { defineConfig } from 'tsup';
import { binConfig } from '../../scripts/tsup-bin.mjs';

// The MCP SDK and its zod (with Ajv and @hono/node-server, which the SDK loads) are bundled in: from
// node_modules they are some 300 files and about 250 ms of a cold start here; bundled, two chunks.
// (tsup's `treeshake` adds a rollup pass: 2 s more to build, no faster start.) So the SDK is a
// devDependency, and an optional peer for the types of the programmatic API (`createServer` returns
// the SDK's Server). The Streamable HTTP transport (behind --http) is a chunk of its own, loaded only then.
export default defineConfig(
  binConfig([/^@modelcontextprotocol\/sdk/, /^zod/, /^ajv/, /^@hono\//, /^json-schema-typed/]),
);
