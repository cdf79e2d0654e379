#!/usr/bin/env node
// hosting-api-sandbox: runs the stateful sandbox until interrupted.
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { type OutcomeSpec, parseOutcomeFlag } from './domain/outcomes.js';
import { type CorsOption, parseCorsOrigins } from './http/cors.js';
import { type FaultSpec, parseFaultFlag } from './http/faults.js';
import type { ClientConfig } from './index.js';

const HELP = `Usage: hosting-api-sandbox [options]

Stateful sandbox of the Hosting Platform Management API v1 on localhost.
The API is served under <url>/v1 and the token operations at <url>/auth/token.

Options:
  --port N                  port to listen on (default 4011; 0 picks a free one)
  --host HOST               address to bind (default 127.0.0.1)
  --client-id ID            client id accepted by POST /auth/token (with --client-secret);
                            replaces the default owner client (scopes authorized, owner, git_edit)
  --client-secret SECRET    its client secret
  --seed FILE               load the state from a JSON fixture (a dump of GET /__sandbox/state)
  --seed-variant N          start from variant N (≥ 1) of the built-in account: other ids,
                            site names and counts
  --speed N                 virtual time per real time (default 1; 0 freezes the clock,
                            60 makes a 30-second deploy take half a second)
  --webhook-url URL         POST webhook events of queued operations to URL
  --self-check              check every answer against the spec (status, body schema, headers);
                            an undocumented answer becomes a 500 and is printed (slower)
  --cors [ORIGINS]          let pages on other origins call the API: bare --cors allows any
                            origin, ORIGINS is a comma-separated list (http://127.0.0.1:5173,...);
                            the control routes stay out of it
  --cors-control ORIGINS    let pages on these origins call the control routes (/__sandbox/...)
  --fault SPEC              a transport fault (repeatable): TARGET:KIND[=VALUE][,times=N]
                            [,probability=P][,seed=S]; TARGET an operationId or "METHOD /path",
                            KIND delay=MS, timeout, drop or status=CODE (getSite:status=503)
  --outcome SPEC            a documented outcome (repeatable): NAME:SITE_ID[:COUNT], NAME one of
                            git_deploy_failed, git_deploy_interrupted, git_deploy_duplicate_delivery
  -V, --version             print the version
  -h, --help                show this help

Control routes (no token): POST /__sandbox/reset, GET|POST /__sandbox/clock
({"advance": "30s"}), GET|DELETE /__sandbox/webhooks, GET|PUT|PATCH /__sandbox/state,
GET /__sandbox/operations, GET|POST|DELETE /__sandbox/faults and /__sandbox/outcomes,
POST /__sandbox/webhooks/trigger. They answer only to a loopback Host (or --host's) and refuse
requests from web pages of other sites. See the package README.`;

function fail(message: string): never {
  console.error(`hosting-api-sandbox: ${message}\nRun with --help for usage.`);
  process.exit(2);
}

// --cors takes an optional value: a bare --cors (last, or before another option) means any origin.
const args = process.argv
  .slice(2)
  .map((arg, i, all) => (arg === '--cors' && (i === all.length - 1 || all[i + 1]!.startsWith('-')) ? '--cors=*' : arg));

let values: Record<string, string | boolean | string[] | undefined>;
try {
  ({ values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      seed: { type: 'string' },
      'seed-variant': { type: 'string' },
      speed: { type: 'string' },
      'webhook-url': { type: 'string' },
      'self-check': { type: 'boolean' },
      cors: { type: 'string' },
      'cors-control': { type: 'string' },
      fault: { type: 'string', multiple: true },
      outcome: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'V' },
    },
    strict: true,
    allowPositionals: false,
  }));
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
  console.log(HELP);
  process.exit(0);
}
if (values.version) {
  console.log(createRequire(import.meta.url)('../package.json').version);
  process.exit(0);
}

const str = (name: string) => values[name] as string | undefined;
const port = str('port') === undefined ? 4011 : Number(str('port'));
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`--port must be an integer from 0 to 65535, got "${str('port')}"`);
const speed = str('speed') === undefined ? 1 : Number(str('speed'));
if (!Number.isFinite(speed) || speed < 0) fail(`--speed must be a number ≥ 0, got "${str('speed')}"`);
const seedVariant = str('seed-variant') === undefined ? undefined : Number(str('seed-variant'));
if (seedVariant !== undefined && !(Number.isInteger(seedVariant) && seedVariant >= 1))
  fail(`--seed-variant must be a whole number ≥ 1, got "${str('seed-variant')}"`);
if (seedVariant !== undefined && str('seed') !== undefined) fail('give --seed FILE or --seed-variant N, not both');
const clientId = str('client-id');
const clientSecret = str('client-secret');
if ((clientId === undefined) !== (clientSecret === undefined)) fail('--client-id and --client-secret go together');
let cors: CorsOption | undefined;
if (str('cors') !== undefined) {
  try {
    cors = parseCorsOrigins(str('cors')!);
  } catch (error) {
    fail((error as Error).message);
  }
}
let corsControl: CorsOption | undefined;
if (str('cors-control') !== undefined) {
  try {
    corsControl = parseCorsOrigins(str('cors-control')!);
  } catch (error) {
    fail((error as Error).message.replace('--cors ', '--cors-control '));
  }
}
const faults: FaultSpec[] = [];
for (const text of (values.fault as string[] | undefined) ?? []) {
  try {
    faults.push(parseFaultFlag(text) as unknown as FaultSpec);
  } catch (error) {
    fail((error as Error).message);
  }
}
const outcomes: OutcomeSpec[] = [];
for (const text of (values.outcome as string[] | undefined) ?? []) {
  try {
    outcomes.push(parseOutcomeFlag(text) as unknown as OutcomeSpec);
  } catch (error) {
    fail((error as Error).message);
  }
}
const webhookUrl = str('webhook-url');
if (webhookUrl !== undefined) {
  try {
    const u = new URL(webhookUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    fail(`--webhook-url must be an http(s) URL, got "${webhookUrl}"`);
  }
}
// Loaded only once the arguments are valid: --help and usage errors answer at once, without the
// spec model and the schemas (half a second of start-up).
const { DEFAULT_CLIENTS, startSandbox, TIMEOUTS } = await import('./index.js');
const clients: ClientConfig[] = clientId
  ? [{ clientId, clientSecret: clientSecret!, scopes: ['authorized', 'owner', 'git_edit'] }, DEFAULT_CLIENTS[1]!]
  : DEFAULT_CLIENTS;

const host = str('host') ?? '127.0.0.1';
// Anyone who can reach a non-loopback address can use the API and, with Host set to it, the control routes.
if (!/^(127\.\d+\.\d+\.\d+|::1|localhost)$/i.test(host)) {
  console.error(
    `hosting-api-sandbox: warning: binding ${host}, not a loopback address: other machines can reach the sandbox (its API, and its control routes with Host ${host})`,
  );
}
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
try {
  sandbox = await startSandbox({
    port,
    host,
    clients,
    seed: str('seed'),
    seedVariant,
    speed,
    webhookUrl,
    selfCheck: values['self-check'] === true,
    cors,
    corsControl,
    faults,
    outcomes,
  });
} catch (error) {
  const e = error as NodeJS.ErrnoException;
  if (e.code === 'EADDRINUSE') fail(`port ${port} is in use: pick another with --port`);
  // The options' checks name them as startSandbox does (`outcomes: …`): here they are flags.
  fail(e.message.replace(/^outcomes: /, '--outcome: ').replace(/^faults: /, '--fault: '));
}
// Set before the banner, so that a Ctrl-C as soon as it shows stops cleanly. Requests in flight get
// up to TIMEOUTS.drain (5 s) to finish; a second signal exits at once, still with 0: the user asked
// to stop (pnpm forwards a terminal's Ctrl-C a second time, and reports a non-zero exit as ELIFECYCLE).
let stopping = false;
const shutdown = () => {
  if (stopping) process.exit(0);
  stopping = true;
  sandbox.stop(TIMEOUTS.drain).then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
console.log(`Hosting API sandbox listening
  API:      ${sandbox.url}
  Auth:     ${sandbox.authUrl}/auth/token
  Speed:    ${speed}× virtual time${speed === 0 ? ' (frozen: POST /__sandbox/clock to advance)' : ''}
  Seed:     ${str('seed') ?? (seedVariant ? `built-in account, variant ${seedVariant}` : 'built-in account')}
  Validation: @hosting-api/schemas
  Self-check: ${values['self-check'] ? 'on (every answer checked against the spec)' : 'off'}
  CORS:     ${cors === undefined ? 'off' : cors === true ? 'any origin' : cors.join(', ')}${corsControl === undefined ? '' : ` (control routes: ${corsControl === true ? 'any origin' : corsControl.join(', ')})`}
  Faults:   ${faults.length ? `${faults.length} set (GET /__sandbox/faults)` : 'none'}
  Outcomes: ${outcomes.length ? `${outcomes.length} armed (GET /__sandbox/outcomes)` : 'none'}
  Credentials accepted (client_id / client_secret → scopes):`);
for (const c of clients) console.log(`    ${c.clientId} / ${c.clientSecret} → ${c.scopes.join(' ')}`);
