#!/usr/bin/env node
// hosting-api-mock: serve the API description with Prism at <url>/v1 and the auth root.
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { type RunningMock, startMock } from './index.js';

const HELP = `Usage: hosting-api-mock [--port 4010] [--host 127.0.0.1] [--dynamic] [--errors] [--spec FILE] [--quiet]

Serves the Hosting Platform Management API v1 description as a mock:
  API base URL  http://<host>:<port>/v1      (every operation but the token ones)
  auth URL      http://<host>:<port>         (POST /auth/token, POST /auth/revoke)

Options:
  --port N      port to listen on (default 4010; 0 picks a free port)
  --host H      interface to listen on (default 127.0.0.1)
  --dynamic     generated data instead of the spec's static examples
  --errors      Prism --errors: request and response violations answer as errors
  --spec FILE   OpenAPI file to serve (default: HOSTING_API_SPEC or the bundled spec)
  --quiet       do not log requests
  -V, --version print the version
  -h, --help    this help

Requests need "Authorization: Bearer <token>" (any token; get one from POST /auth/token).
Select a documented response with "Prefer: code=404" or "Prefer: example=<name>".
Stops on Ctrl-C (SIGINT) or SIGTERM.`;

function fail(message: string): never {
  process.stderr.write(`hosting-api-mock: ${message}\nRun hosting-api-mock --help for usage.\n`);
  process.exit(2);
}

const options = {
  port: { type: 'string', default: '4010' },
  host: { type: 'string', default: '127.0.0.1' },
  dynamic: { type: 'boolean', default: false },
  errors: { type: 'boolean', default: false },
  spec: { type: 'string' },
  quiet: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'V', default: false },
} as const;
let values: ReturnType<typeof parseArgs<{ options: typeof options }>>['values'];
try {
  ({ values } = parseArgs({ options }));
} catch (error) {
  // node:util's parseArgs refuses a value that starts with "-" (`--port -1`) in three lines of its own.
  const ambiguous = /^Option '(--[\w-]+)' argument is ambiguous/.exec((error as Error).message);
  fail(
    ambiguous
      ? `${ambiguous[1]} needs a value (write ${ambiguous[1]}=VALUE for one that starts with "-")`
      : (error as Error).message,
  );
}
if (values.help) {
  process.stdout.write(`${HELP}\n`);
  process.exit(0);
}
if (values.version) {
  process.stdout.write(`${createRequire(import.meta.url)('../package.json').version}\n`);
  process.exit(0);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`--port must be an integer from 0 to 65535, got "${values.port}".`);

try {
  let running: RunningMock | undefined;
  const mock = await startMock({
    port,
    host: values.host,
    dynamic: values.dynamic,
    errors: values.errors,
    spec: values.spec,
    onRequest: values.quiet ? undefined : (line) => process.stdout.write(`${line}\n`),
    // A mock that can no longer answer stops, rather than answering 502 to everything.
    onPrismExit: (message) => {
      process.stderr.write(`hosting-api-mock: ${message}\n`);
      (running?.stop() ?? Promise.resolve()).finally(() => process.exit(1));
    },
  });
  running = mock;
  process.stdout.write(
    `Hosting API mock listening on ${mock.url} (${values.dynamic ? 'dynamic data' : 'static examples'})\n` +
      `  base URL: ${mock.baseUrl}\n  auth URL: ${mock.authUrl}\n` +
      `Try: curl -H 'Authorization: Bearer test' ${mock.baseUrl}/sites\nPress Ctrl-C to stop.\n`,
  );
  // `on`, not `once`: Ctrl-C under `pnpm mock` sends SIGINT twice (the terminal's, then pnpm's
  // forwarded one); a second one must not kill the process before the mock has stopped.
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping the mock\n`);
    mock.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
} catch (error) {
  fail((error as Error).message);
}
