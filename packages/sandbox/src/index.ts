// Programmatic entry: `startSandbox(options)` → {url, authUrl, stop(), ...}.
import { readFileSync } from 'node:fs';
import { handlers as allHandlers } from './domain/areas/index.js';
import { fixtureProblems, protoKeyPath } from './domain/fixture.js';
import { checkOutcome, type OutcomeSpec } from './domain/outcomes.js';
import { SandboxRuntime } from './domain/runtime.js';
import { seedState } from './domain/seed.js';
import { variantState } from './domain/seed-variant.js';
import type { SandboxState } from './domain/state.js';
import { type ClientConfig, DEFAULT_CLIENTS } from './domain/tokens.js';
import { MAX_JSON_DEPTH, nestingExceeds } from './http/body.js';
import { type CorsOption, parseCorsOrigins } from './http/cors.js';
import { checkFault, type FaultSpec, Faults } from './http/faults.js';
import { buildServer, type Timeouts } from './http/server.js';
import { loadSpec } from './http/spec.js';
import { VALIDATORS } from './http/validation.js';

export interface SandboxOptions {
  /** 0 picks a free port (tests); the CLI defaults to 4011. */
  port?: number;
  host?: string;
  /** API applications accepted by POST /auth/token. Default: DEFAULT_CLIENTS. */
  clients?: ClientConfig[];
  /** A state fixture (object) or the path of a JSON file holding one. Default: the built-in seed. */
  seed?: SandboxState | string;
  /**
   * Variant N (≥ 1) of the built-in seed: every id moved, other site names, one note fewer and N
   * more sites, for checks that must not depend on the built-in account. Ignored with `seed`.
   */
  seedVariant?: number;
  /** Virtual time per real time; 0 freezes the clock (advance it with /__sandbox/clock). Default 1. */
  speed?: number;
  /** Virtual start time (ISO string or epoch ms). Default: now. */
  startTime?: string | number;
  /** Where queued operations deliver webhook events (POST, JSON). */
  webhookUrl?: string;
  /** Request body limit in bytes. Default 1 MiB. */
  bodyLimit?: number;
  /** Called for unexpected errors (bugs); default prints to stderr. */
  onError?: (message: string, error: unknown) => void;
  /**
   * Response self-check: every answer of an operation is checked against the spec (status
   * documented for the operation, Content-Type, body valid against its schema, required
   * headers); one that is not becomes a 500 envelope listing the problems, and onError is called.
   * Default false (it costs time on every request).
   */
  selfCheck?: boolean;
  /**
   * Cross-origin access for pages on other origins: `true` allows any origin, a list allows those
   * origins only (e.g. ['http://127.0.0.1:5173']). Off by default. Preflights are answered for the
   * API's and the control routes' paths.
   */
  cors?: CorsOption;
  /**
   * Origins allowed to call the control routes (/__sandbox/…) from a page: never implied by
   * `cors`, which covers the API only. `true`: any origin. Off by default.
   */
  corsControl?: CorsOption;
  /** Transport faults set from the start (see the README's "Testing failure paths"). */
  faults?: FaultSpec[];
  /** Documented outcomes armed from the start (see the README's "Testing failure paths"). */
  outcomes?: OutcomeSpec[];
  /** Most activity log entries kept (the oldest go first). Default 10,000. */
  activityLimit?: number;
  /** Most size of state clients can store (about its length as JSON, activity log aside). Default 64 Mi (`STATE_SIZE_LIMIT`). */
  stateLimit?: number;
  /** The server's timeouts in ms (`TIMEOUTS`: headers 10 s, request 30 s, keep-alive 5 s, idle 30 s). */
  timeouts?: Partial<Timeouts>;
}

export interface Sandbox {
  /** Base address of the API, ending in /v1: the client's `baseUrl`, as the mock's `baseUrl` is. */
  baseUrl: string;
  /** The same as `baseUrl`. */
  url: string;
  /** The auth root serving /auth/token and /auth/revoke. */
  authUrl: string;
  clients: ClientConfig[];
  runtime: SandboxRuntime;
  /** Obtains a token through POST /auth/token (first client unless given). */
  token(clientId?: string): Promise<string>;
  /** Moves the virtual clock forward, running queued work that falls due. */
  advance(ms: number): void;
  reset(): void;
  /** Transport faults: add, list and clear them (as POST|GET|DELETE /__sandbox/faults). */
  faults: Faults;
  /**
   * Stops: no new connections; requests in flight get up to `drainMs` (default 0; the CLI gives
   * 5 s on SIGTERM) to finish, then every connection is closed.
   */
  stop(drainMs?: number): Promise<void>;
}

/** A state fixture from a JSON file; every refusal names the file and what to fix. */
export function loadFixture(file: string, stateLimit?: number): SandboxState {
  let value: unknown;
  try {
    // A byte order mark (some editors write one) is not JSON text, and not content either.
    const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
    // Checked before parsing: deep nesting would overflow the stack of the checks below.
    if (nestingExceeds(text, MAX_JSON_DEPTH)) throw new Error(`nested deeper than ${MAX_JSON_DEPTH} levels`);
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`Cannot read seed fixture ${file}: ${(error as Error).message}`);
  }
  const proto = protoKeyPath(value, '(the fixture)');
  if (proto)
    throw new Error(`Seed fixture ${file} is not a sandbox state: ${proto}: not allowed (a state has no such key)`);
  const problems = fixtureProblems(value, stateLimit);
  if (problems.length) throw new Error(`Seed fixture ${file} is not a sandbox state: ${problems.join('; ')}`);
  return value as SandboxState;
}

/** The sandbox without a port: its runtime now, its request handling once the spec is loaded. */
export function createSandboxCore(
  options: Omit<SandboxOptions, 'port' | 'host'> = {},
  /** The bound address, for the control routes' Host check (undefined: no check, as for MSW). */
  guardHost?: string,
) {
  const onError = options.onError ?? ((message, error) => console.error(`[sandbox] ${message}:`, error));
  const speed = options.speed ?? 1;
  if (!(speed >= 0)) throw new Error('speed must be a number ≥ 0');
  const start = options.startTime === undefined ? Date.now() : new Date(options.startTime).getTime();
  if (!Number.isFinite(start)) throw new Error(`startTime ${String(options.startTime)} is not a date`);
  const clients = options.clients ?? DEFAULT_CLIENTS;
  if (!clients.length) throw new Error('at least one client is needed');
  if (Array.isArray(options.cors)) parseCorsOrigins(options.cors.join(',')); // throws on a bad origin

  if (Array.isArray(options.corsControl)) parseCorsOrigins(options.corsControl.join(','));

  const fixture = typeof options.seed === 'string' ? loadFixture(options.seed, options.stateLimit) : options.seed;
  if (options.seedVariant !== undefined) variantState(seedState(start), options.seedVariant); // throws on a bad one
  const runtime = new SandboxRuntime({
    clients,
    start,
    speed,
    webhookUrl: options.webhookUrl ?? null,
    activityLimit: options.activityLimit,
    stateLimit: options.stateLimit,
    onError,
    seed: (now) =>
      fixture
        ? structuredClone(fixture)
        : options.seedVariant
          ? variantState(seedState(now), options.seedVariant)
          : seedState(now),
  });
  const faults = new Faults();
  // A reset clears faults as it clears outcomes: the state a test starts from has neither.
  runtime.onReset(() => faults.clear());
  for (const outcome of options.outcomes ?? []) runtime.outcomes.add(checkOutcomeOrThrow(outcome, runtime.state));
  const app = loadSpec().then(({ model, operations }) => {
    const known = new Set(operations.map((op) => op.operationId));
    // The writes the state's size limit can refuse: the API's operations whose spec states an
    // effect (`x-effects`); searches and validation sent as POST, and the token operations, are not.
    runtime.budget.refuses(model.operations.filter((o) => !o.outsideV1 && o.operation['x-effects'] !== undefined));
    for (const fault of options.faults ?? []) faults.add(checkFaultOrThrow(fault, (id) => known.has(id)));
    return buildServer({
      model,
      selfCheck: options.selfCheck === true,
      rt: runtime,
      operations,
      handlers: allHandlers,
      validators: VALIDATORS,
      bodyLimit: options.bodyLimit ?? 1024 * 1024,
      timeouts: options.timeouts,
      onError,
      cors: options.cors,
      corsControl: options.corsControl,
      guard: guardHost === undefined ? undefined : { host: guardHost },
      faults,
    });
  });
  return { runtime, clients, app, faults };
}

/** An ApiError of a check (a 400 with `errors`) as a plain Error for options. */
function plain<T>(check: () => T, what: string): T {
  try {
    return check();
  } catch (error) {
    const errors = (error as { errors?: string[] | null }).errors;
    throw new Error(`${what}: ${errors?.join('; ') ?? (error as Error).message}`);
  }
}
const checkOutcomeOrThrow = (value: unknown, state: SandboxState) =>
  plain(() => checkOutcome(value, state), 'outcomes');
const checkFaultOrThrow = (value: unknown, known: (id: string) => boolean) =>
  plain(() => checkFault(value, known), 'faults');

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const core = createSandboxCore(options, host);
  const { runtime, clients } = core;
  const app = await core.app;
  const port = await app.listen(options.port ?? 0, host);
  const authUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    baseUrl: `${authUrl}/v1`,
    url: `${authUrl}/v1`,
    authUrl,
    clients,
    runtime,
    async token(clientId) {
      const client = clientId ? clients.find((c) => c.clientId === clientId) : clients[0];
      if (!client) throw new Error(`no client ${clientId}`);
      const res = await fetch(`${authUrl}/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: client.clientId,
          client_secret: client.clientSecret,
        }),
      });
      const body = (await res.json()) as { data?: { access_token?: string } };
      if (!res.ok || !body.data?.access_token) throw new Error(`token request failed: ${res.status}`);
      return body.data.access_token;
    },
    advance: (ms) => runtime.clock.advance(ms),
    reset: () => runtime.reset(),
    faults: core.faults,
    async stop(drainMs = 0) {
      runtime.clock.stop();
      await app.close(drainMs);
      await runtime.settle();
    },
  };
}

export { DUMP_SIZE_LIMIT, STATE_SIZE_LIMIT } from './domain/budget.js';
export { OUTCOMES, type OutcomeSpec } from './domain/outcomes.js';
export {
  ACTIVITY_FIELD_LIMIT,
  ACTIVITY_LIMIT,
  ACTIVITY_RETENTION_DAYS,
  ACTIVITY_TEXT_LIMIT,
  ALERT_LIMIT,
  DURATIONS,
  WEBHOOK_TEXT_LIMIT,
} from './domain/runtime.js';
export { seedState } from './domain/seed.js';
export type { SandboxState } from './domain/state.js';
export { type ClientConfig, DEFAULT_CLIENTS } from './domain/tokens.js';
export type { CorsOption } from './http/cors.js';
export type { FaultSpec } from './http/faults.js';
export { TIMEOUTS } from './http/server.js';
