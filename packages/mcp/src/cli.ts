// The `hosting-api-mcp` executable: stdio by default, Streamable HTTP with --http.
import module, { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

// Node 22.1 and later keep V8's compiled code between runs (in the OS temp directory, or
// NODE_COMPILE_CACHE): a later start skips most parsing. Node 20 has no compile cache; nothing happens.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { ConfigError, groups } = await import('./server');

const HELP = `Usage: hosting-api-mcp [options]

MCP server for the Hosting Platform Management API v1: one tool per operation of the spec.
Credentials and addresses: HOSTING_API_CLIENT_ID, HOSTING_API_CLIENT_SECRET,
HOSTING_API_BASE_URL, HOSTING_API_AUTH_URL (as for the hosting-api CLI).

Options:
  --allow-destructive   list the destructive tools too (deletes, restores, revocations)
  --tools GROUPS        only these groups, comma-separated: an x-client-method or its prefix
                        (sites, sites.notes, alerts, ...)
  --base-url URL        API base ending in /v1 (default HOSTING_API_BASE_URL)
  --auth-url URL        token service root (default HOSTING_API_AUTH_URL)
  --http [PORT]         serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio
                        (default port 3333; 0 picks a free one)
  --host HOST           address for --http (default 127.0.0.1)
  -V, --version         print the version
  -h, --help            show this help`;

function fail(message: string): never {
  process.stderr.write(`hosting-api-mcp: ${message}\n`);
  process.exit(2);
}

// --http takes an optional port: a bare --http (last, or before another option) means the default.
const argv = process.argv
  .slice(2)
  .map((arg, i, all) =>
    arg === '--http' && (i === all.length - 1 || all[i + 1]!.startsWith('-')) ? '--http=3333' : arg,
  );
let values: Record<string, string | boolean | undefined>;
try {
  ({ values } = parseArgs({
    args: argv,
    options: {
      'allow-destructive': { type: 'boolean' },
      tools: { type: 'string' },
      'base-url': { type: 'string' },
      'auth-url': { type: 'string' },
      http: { type: 'string' },
      host: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'V' },
    },
    strict: true,
    allowPositionals: false,
  }));
} catch (error) {
  fail(`${(error as Error).message}. Run with --help for usage.`);
}
if (values.help) {
  process.stdout.write(`${HELP}\n\nGroups: ${groups().join(', ')}\n`);
  process.exit(0);
}
if (values.version) {
  process.stdout.write(`${createRequire(import.meta.url)('../package.json').version}\n`);
  process.exit(0);
}
const options = {
  allowDestructive: values['allow-destructive'] === true,
  groups:
    typeof values.tools === 'string'
      ? values.tools
          .split(',')
          .map((g) => g.trim())
          .filter(Boolean)
      : undefined,
  baseUrl: values['base-url'] as string | undefined,
  authUrl: values['auth-url'] as string | undefined,
};

try {
  if (values.http !== undefined) {
    const port = Number(values.http);
    if (!/^\d+$/.test(String(values.http)) || port > 65535)
      fail(`--http takes a port number (got ${JSON.stringify(values.http)})`);
    const { serveHttp } = await import('./http');
    const served = await serveHttp({ ...options, port, host: values.host as string | undefined });
    process.stderr.write(`hosting-api-mcp: Streamable HTTP at ${served.url}\n`);
  } else {
    const { createServer } = await import('./server');
    const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
    await createServer(options).connect(new StdioServerTransport());
  }
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}
