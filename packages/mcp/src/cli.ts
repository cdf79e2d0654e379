// The `hosting-api-mcp` executable: stdio by default, Streamable HTTP with --http.
import module, { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

// Node 22.1 and later keep V8's compiled code between runs (in the OS temp directory, or
// NODE_COMPILE_CACHE): a later start skips most parsing. Node 20 has no compile cache; nothing happens.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { ConfigError, groups, toolsets } = await import('./server');

const HELP = `Usage: hosting-api-mcp [options]

MCP server for the Hosting Platform Management API v1: one tool per operation of the spec.
Credentials and addresses: HOSTING_API_CLIENT_ID, HOSTING_API_CLIENT_SECRET,
HOSTING_API_BASE_URL, HOSTING_API_AUTH_URL (as for the hosting-api CLI).

Options:
  --allow-destructive   list the destructive tools too (deletes, restores, revocations)
  --read-only           only the operations that change nothing (the GETs the spec states no effect for)
  --toolsets SETS       only these toolsets, comma-separated: the spec's tags (sites, notes,
                        backups-and-restores, ...; see the list below)
  --tools GROUPS        only these groups, comma-separated: an x-client-method or its prefix
                        (sites, sites.notes, alerts, ...)
  --dynamic             three tools instead of one per operation: search_operations,
                        describe_operation, call_operation (for hosts that cap the tools)
  --base-url URL        API base ending in /v1 (default HOSTING_API_BASE_URL)
  --auth-url URL        token service root (default HOSTING_API_AUTH_URL)
  --http [PORT]         serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio
                        (default port 3333; 0 picks a free one)
  --host HOST           address for --http (default 127.0.0.1); any other than a loopback
                        address needs HOSTING_API_MCP_TOKEN and prints a warning
  --allow-host NAME     with --http: accept this Host too (name or name:port; repeatable);
                        default only localhost, 127.0.0.1 and [::1] at the bound port
  --allow-origin URL    with --http: accept this Origin too (scheme://host:port; repeatable)

With --http every request needs Authorization: Bearer <token>: HOSTING_API_MCP_TOKEN, or one
generated at start and printed once on stderr. Other Hosts and Origins get 403.
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
let values: Record<string, string | boolean | string[] | undefined>;
try {
  ({ values } = parseArgs({
    args: argv,
    options: {
      'allow-destructive': { type: 'boolean' },
      'read-only': { type: 'boolean' },
      toolsets: { type: 'string' },
      dynamic: { type: 'boolean' },
      'allow-host': { type: 'string', multiple: true },
      'allow-origin': { type: 'string', multiple: true },
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
  process.stdout.write(`${HELP}\n\nToolsets: ${toolsets().join(', ')}\nGroups: ${groups().join(', ')}\n`);
  process.exit(0);
}
if (values.version) {
  process.stdout.write(`${createRequire(import.meta.url)('../package.json').version}\n`);
  process.exit(0);
}
const list = (v: unknown) =>
  typeof v === 'string'
    ? v
        .split(',')
        .map((g) => g.trim())
        .filter(Boolean)
    : undefined;
const options = {
  allowDestructive: values['allow-destructive'] === true,
  readOnly: values['read-only'] === true,
  dynamic: values.dynamic === true,
  toolsets: list(values.toolsets),
  groups: list(values.tools),
  baseUrl: values['base-url'] as string | undefined,
  authUrl: values['auth-url'] as string | undefined,
};

try {
  if (values.http !== undefined) {
    const port = Number(values.http);
    if (!/^\d+$/.test(String(values.http)) || port > 65535)
      fail(`--http takes a port number (got ${JSON.stringify(values.http)})`);
    const { serveHttp } = await import('./http');
    const served = await serveHttp({
      ...options,
      port,
      host: values.host as string | undefined,
      allowHosts: values['allow-host'] as string[] | undefined,
      allowOrigins: values['allow-origin'] as string[] | undefined,
    });
    process.stderr.write(`hosting-api-mcp: Streamable HTTP at ${served.url}\n`);
    // Shown once, here only: it is not written anywhere else.
    if (served.generated)
      process.stderr.write(
        `hosting-api-mcp: bearer token for this run (set HOSTING_API_MCP_TOKEN to choose one): ${served.token}\n`,
      );
  } else {
    const { createServer } = await import('./server');
    const { LineStdioTransport } = await import('./stdio');
    await createServer(options).connect(new LineStdioTransport());
  }
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}
