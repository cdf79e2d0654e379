// Dredd hooks for the contract gate. Dredd sends one request per documented response (its
// "transactions") and checks the status code and Content-Type; these hooks
//   - get a token from the target's token operation and authorise every request but the 401 ones,
//   - send the token operations to the auth URL (they live outside /v1),
//   - fill path parameters and bodies from the spec's examples or from the target data file,
//   - against the mock, ask Prism for the documented non-2xx response with `Prefer: code=…`,
//   - against a live target, skip writes unless CONTRACT_ALLOW_WRITES=1 and skip error
//     responses that cannot be provoked without knowing the target's state,
//   - validate every response body against the OpenAPI 3.1 schema with JSON Schema 2020-12 (Ajv),
//     replacing Dredd's own body check, which compares only the keys of the first example.
// Configuration comes from the environment that run.ts sets (see README).

import { readFileSync, writeFileSync } from 'node:fs';
import hooks from 'hooks';
import { checkOfProblem, checksFromEnv } from './checks';
import { downloadProblems, resend } from './hooks-download';
import { createHooksPlan, resultOf } from './hooks-plan';
import { buildUri, requestOf } from './hooks-request';
import type { Contract, Done, Override, Transaction } from './hooks-types';
import { cappedFetch, MAX_RESPONSE_BYTES } from './http-cap';
import type { createPlan } from './live-plan';
import { shown } from './redact';
import { needsWrites, READ_ONLY_REASON } from './safety';
import { createChecker } from './spec-check';
import type { ExampleResult, FetchInit, Json, Operation, OperationInfo, SpecModel } from './types';

type Checker = Awaited<ReturnType<typeof createChecker>>;

const env = process.env;
const MODE = env.CONTRACT_MODE === 'live' ? 'live' : 'mock';
const BASE_URL = new URL(env.CONTRACT_BASE_URL as string);
const AUTH_URL = new URL(env.CONTRACT_AUTH_URL as string);
const ALLOW_WRITES = env.CONTRACT_ALLOW_WRITES === '1';
const ONLY = (env.CONTRACT_ONLY ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const EXCLUDE = (env.CONTRACT_EXCLUDE ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
// The checks that run (--checks / --exclude-checks); problems of the others are not reported.
const CHECKS = checksFromEnv();
const MAX_RESPONSE_TIME = Number(env.CONTRACT_MAX_RESPONSE_TIME) || 0;
// Every request of the hooks' own gives up as Dredd's do (run.ts always sets it: --request-timeout or its default).
const REQUEST_TIMEOUT = Number(env.CONTRACT_REQUEST_TIMEOUT);
/** A request of the hooks' own: the run's deadline and size cap (http-cap.ts). */
const request = (url: string | URL, init: FetchInit) => cappedFetch(url, init, { deadline: REQUEST_TIMEOUT });
const data: Json = env.CONTRACT_TARGET_DATA ? JSON.parse(readFileSync(env.CONTRACT_TARGET_DATA, 'utf8')) : {};
// A second application with fewer scopes (--limited-client-id, CONTRACT_LIMITED_CLIENT_SECRET): the
// documented 403 of every operation that requires a scope of its own is sent with its token.
const LIMITED = env.CONTRACT_LIMITED_CLIENT_ID && env.CONTRACT_LIMITED_CLIENT_SECRET ? 'limited-client' : undefined;
if (LIMITED)
  data.clients = {
    ...data.clients,
    [LIMITED]: { client_id: env.CONTRACT_LIMITED_CLIENT_ID, client_secret: env.CONTRACT_LIMITED_CLIENT_SECRET },
  };
/** The limited client for a 403 of an operation whose own security names a scope. */
const scopeOverride = (info: OperationInfo, status: string) =>
  LIMITED && status === '403' && (info.op.security ?? []).some((r: Json) => Object.values(r).flat().length)
    ? { client: LIMITED }
    : undefined;

/**
 * Transactions skipped by name (`<operationId> <status>`), with the reason. Empty: against the
 * mock every documented response is exercised. Add an entry here, never a silent skip.
 */
const SKIPS: Record<string, string> = {};

// ---- the spec: its model (@hosting-api/openapi/model) and the checks of spec-check.ts --
// Loaded before the first transaction (beforeAll); the token operations (served at the auth URL,
// outside /v1) and their paths come from the model, not from a list kept here.
let operations: Checker['operations'];
let firstExample: Checker['firstExample'];
let checkResponse: Checker['checkResponse'];
let header: Checker['header'];
let TOKEN_OPERATIONS: Set<string>;
let tokenOp: Operation; // the token operation that issues tokens (client-credentials grant), from the model
let revokeOp: Operation; // the one that revokes a token, from the model
let credentials: Record<string, string>;
let checker: Checker;
let requestToken: typeof import('./cli').obtainToken; // cli.ts obtainToken
async function loadSpec() {
  const { loadModel } = await import('@hosting-api/openapi/model');
  ({ obtainToken: requestToken } = await import('./cli'));
  const model = await loadModel(env.CONTRACT_SPEC_JSON);
  specModel = model;
  checker = await createChecker(model);
  ({ operations, firstExample, checkResponse, header } = checker);
  TOKEN_OPERATIONS = new Set(model.tokenOperations.map((o) => o.operationId));
  tokenOp = model.issueTokenOperation!;
  revokeOp = model.revokeTokenOperation!;
  if (!tokenOp || !revokeOp)
    throw new Error('the spec has no token operation with the client-credentials grant, or none that revokes a token');
  const tokenExample = firstExample(tokenOp.requestBody.content['application/x-www-form-urlencoded']);
  credentials = {
    client_id: env.CONTRACT_CLIENT_ID || tokenExample.client_id,
    client_secret: env.CONTRACT_CLIENT_SECRET || tokenExample.client_secret,
  };
}

// ---- tokens ---------------------------------------------------------------------------------
let token: string | undefined;
let tokenError: string | undefined;

const authUrl = (o: Operation) => new URL(o.path.replace(/^\//, ''), withSlash(AUTH_URL));

/** A token for `client` (default: the run's credentials), its response checked against the spec. */
const obtainToken = (client: Record<string, string> = credentials) =>
  requestToken(AUTH_URL, tokenOp, { checker, client });

/** Revokes a token at the target's revoke operation (POST /auth/revoke), with the run's client credentials. */
async function revokeToken(value: string) {
  const url = authUrl(revokeOp);
  const res = await request(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams({ token: value, ...credentials }),
  });
  if (res.statusCode !== 200) throw new Error(`POST ${url} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
}

const withSlash = (u: URL) => new URL(u.href.endsWith('/') ? u.href : `${u.href}/`);

// Auth probes (live targets, the sandbox included): every 401 transaction that runs is repeated
// with a garbage token, a malformed Authorization header (another scheme with the run's valid
// token; `Bearer` with no token) and a token the gate revoked itself; each must get the documented
// 401. Against the mock there are no real tokens to tell apart; CONTRACT_AUTH_PROBES=0 turns the
// probes off for another stand-in that accepts any token.
let revoked: string | undefined;
let revokedError: string | undefined;
const PROBES = MODE === 'live' && env.CONTRACT_AUTH_PROBES !== '0' && CHECKS.has('ignored_auth');

// Live targets without a reset in the target data: live-plan.ts finds existing ids, creates what
// the writes go to, orders the transactions, cleans up and diffs the state (see its header).
const PLANNED = MODE === 'live' && !data.reset && env.CONTRACT_PLAN !== '0';
let plan: ReturnType<typeof createPlan> | undefined;
let planHooks: ReturnType<typeof createHooksPlan> | undefined;
let specModel: SpecModel;

hooks.beforeAll((transactions: Transaction[], done: Done) => {
  loadSpec()
    .then(
      () => obtainToken(),
      (error) => {
        // Without the spec no transaction can be built or checked: stop the run with the reason.
        console.error(`contract: cannot load the spec model of ${env.CONTRACT_SPEC_JSON}: ${error.message}`);
        process.exit(1);
      },
    )
    .then(
      async (value) => {
        token = value;
        if (PROBES && transactions.some((t) => String(t.expected.statusCode) === '401')) {
          try {
            const doomed = await obtainToken();
            await revokeToken(doomed);
            revoked = doomed;
          } catch (error) {
            revokedError = `could not obtain and revoke a token for the revoked-token probe: ${(error as Error).message}`;
          }
        }
        if (PLANNED) {
          planHooks = createHooksPlan({
            model: specModel,
            token: () => token,
            baseUrl: BASE_URL,
            timeout: REQUEST_TIMEOUT,
            allowWrites: ALLOW_WRITES,
            lookup,
          });
          plan = planHooks.plan;
        }
        if (planHooks)
          await planHooks.start(transactions).catch((error) => {
            console.error(`contract: the live plan failed: ${error.message}`);
          });
        done();
      },
      (error) => {
        tokenError = error.message;
        console.error(`contract: ${tokenError}`);
        done();
      },
    );
});

// ---- building each request ------------------------------------------------------------------
function keyOf(info: OperationInfo, status: string) {
  return `${info.op.operationId} ${status}`;
}

function lookup(transaction: Transaction) {
  return operations.get(`${transaction.request.method} ${transaction.origin.resourceName}`);
}

/** A GET's documented refusal (not 400, 401, 404), or a write's 422 (with writes allowed), that the live plan looks for among existing resources. */
const refusalRead = (info: OperationInfo, status: string) =>
  PLANNED &&
  (info.model.method === 'get' || (ALLOW_WRITES && status === '422')) &&
  /^4/.test(status) &&
  !['400', '401', '404'].includes(status);

/** Why this transaction is not run, or undefined to run it. */
function skipReason(
  info: OperationInfo,
  status: string,
  key: string,
  override: Override | undefined,
  mediaType: string,
) {
  if (ONLY.length && !ONLY.includes(info.op.operationId) && !ONLY.includes(key)) {
    return 'not selected (CONTRACT_ONLY)';
  }
  if (EXCLUDE.includes(info.op.operationId) || EXCLUDE.includes(key)) return 'left out (--exclude)';
  if (SKIPS[key]) return SKIPS[key];
  const named = data.skips?.[`${key} ${mediaType}`] ?? data.skips?.[key];
  if (named) return `target data: ${named}`;
  if (MODE === 'mock') return undefined;
  const id = info.op.operationId;
  const writes = needsWrites(info.model) && !TOKEN_OPERATIONS.has(id);
  if (writes && !ALLOW_WRITES) return `live: ${READ_ONLY_REASON}`;
  if (override || status.startsWith('2') || status === '401') return undefined;
  if (TOKEN_OPERATIONS.has(id) && status === '400') return undefined;
  if (refusalRead(info, status)) return undefined;
  if (status === '404') {
    const last = info.params.filter((p) => p.in === 'path').pop();
    if (last && (data.missing?.[last.name] !== undefined || PLANNED)) return undefined;
    if (last)
      return 'live: a 404 needs an id that does not exist on the target (CONTRACT_TARGET_DATA "missing", by path parameter)';
  }
  return `live: a ${status} depends on the target's state (give the request in CONTRACT_TARGET_DATA "requests": {"<operationId> ${status}": …})`;
}

function buildBody(info: OperationInfo, status: string, override: Override | undefined) {
  const requestBody = info.op.requestBody;
  if (!requestBody) return undefined;
  const [mediaType, media] = Object.entries<Json>(requestBody.content)[0] as [string, Json];
  let value: Json = override?.body ?? data.bodies?.[info.op.operationId] ?? firstExample(media);
  if (info.op.operationId === tokenOp.operationId) {
    value = { grant_type: 'client_credentials', ...credentials };
    // Live: a request without the required credentials must get the documented 400.
    if (MODE === 'live' && status === '400') value = { grant_type: 'client_credentials' };
  }
  if (info.op.operationId === revokeOp.operationId) {
    value = { token: 'set in beforeEach', ...credentials };
    if (MODE === 'live' && status === '400') value = {};
  }
  if (value === undefined) return { mediaType, text: '' };
  const text =
    mediaType === 'application/x-www-form-urlencoded' ? new URLSearchParams(value).toString() : JSON.stringify(value);
  return { mediaType, text, value };
}

// The run's token is renewed when it gets old (cli.ts TOKEN_REFRESH_MS): a target's tokens may
// expire during a long run (the sandbox's hour is a minute at --speed 60).
let tokenAt = Date.now();
hooks.beforeEach((transaction: Transaction, done: Done) => {
  if (!token || Date.now() - tokenAt < Number(env.CONTRACT_TOKEN_REFRESH_MS || 20_000))
    return beforeEach(transaction, done);
  obtainToken().then(
    (value) => {
      token = value;
      tokenAt = Date.now();
      beforeEach(transaction, done);
    },
    () => beforeEach(transaction, done),
  );
});

function beforeEach(transaction: Transaction, done: Done) {
  const info = lookup(transaction);
  const status = String(transaction.expected.statusCode);
  if (!info) {
    transaction.contract = { key: transaction.name, status };
    failWith(transaction, `no operation ${transaction.request.method} ${transaction.origin.resourceName} in the spec`);
    return done();
  }
  const key = keyOf(info, status);
  // One transaction per documented media type: `"<operationId> <status> <media type>"` entries
  // of the target data apply to that one only, `"<operationId> <status>"` ones to all of them.
  const mediaType = transaction.expected.headers?.['Content-Type'] ?? 'application/json';
  const named = data.requests?.[`${key} ${mediaType}`] ?? data.requests?.[key];
  const scoped = named ? undefined : scopeOverride(info, status);
  const override = named ?? scoped;
  transaction.contract = {
    key,
    operationId: info.op.operationId,
    status,
    mediaType,
    mediaOverride: Boolean(data.requests?.[`${key} ${mediaType}`]),
  };
  const reason = skipReason(info, status, key, override, mediaType);
  if (reason) {
    transaction.skip = true;
    transaction.contract.reason = reason;
    return done();
  }
  // Live, no target data for it: the plan says which ids it is sent to (live-plan.ts).
  const planned =
    plan &&
    (!override || scoped) &&
    !TOKEN_OPERATIONS.has(info.op.operationId) &&
    (status.startsWith('2') || status === '404' || scoped);
  if (plan && !override && refusalRead(info, status)) {
    plan
      .resolveRefusal(info.model, mediaType, status)
      .then((r) => {
        if (r.skip) {
          transaction.skip = true;
          transaction.contract!.reason = r.skip;
          return done();
        }
        transaction.contract!.planned = true;
        build(transaction, info, status, mediaType, { params: r.params, planned: true }, done);
      })
      .catch((error: Error) => {
        failWith(transaction, `live plan: ${error.message}`);
        done();
      });
    return;
  }
  if (!planned) return build(transaction, info, status, mediaType, override, done);
  if (status === '404' && plan!.isStateless()) {
    transaction.skip = true;
    transaction.contract.reason =
      'live: the target answers two creates with the same id (it keeps no state), so an id that names nothing cannot be told from one that does: give the 404 in CONTRACT_TARGET_DATA';
    return done();
  }
  plan!
    .resolve(info.model, mediaType)
    .then(async (r) => {
      if (r.skip) {
        transaction.skip = true;
        transaction.contract!.reason = r.skip;
        return done();
      }
      if (status.startsWith('2') && ALLOW_WRITES) await plan!.before(info.model, r.params);
      transaction.contract!.planned = true;
      // The target data's params win over the plan's ids where it names them.
      const params = { ...r.params, ...(data.params ?? {}) };
      build(transaction, info, status, mediaType, { params, body: r.body, planned: true, ...scoped }, done);
    })
    .catch((error: Error) => {
      transaction.contract!.error = `live plan: ${error.message}`;
      failWith(transaction, transaction.contract!.error);
      done();
    });
}

function build(
  transaction: Transaction,
  info: OperationInfo,
  status: string,
  _mediaType: string,
  override: Override | undefined,
  done: Done,
) {
  // Where the request goes: the token operations live at the auth URL, the rest under the base URL.
  const root = TOKEN_OPERATIONS.has(info.op.operationId) ? AUTH_URL : BASE_URL;
  const uri = buildUri(info, status, transaction.request.uri, override, { data, live: MODE === 'live' });
  transaction.protocol = root.protocol;
  transaction.host = root.hostname;
  transaction.port = root.port || (root.protocol === 'https:' ? '443' : '80');
  transaction.fullPath = `${root.pathname.replace(/\/$/, '')}${uri}`;
  transaction.request.uri = uri;

  const headers = transaction.request.headers;
  // Ask for the media type of this transaction (Dredd makes one per documented media type).
  headers.Accept = transaction.expected.headers?.['Content-Type'] ?? 'application/json';
  delete headers.Authorization;
  const needsAuth = info.security.length > 0 && !info.security.some((s) => Object.keys(s).length === 0);
  if (needsAuth && status !== '401') {
    if (!token) {
      failWith(transaction, tokenError ?? 'no token');
      return done();
    }
    headers.Authorization = `Bearer ${token}`;
  }
  if (MODE === 'mock' && !status.startsWith('2') && status !== '401') headers.Prefer = `code=${status}`;
  Object.assign(headers, override?.headers ?? {});

  const body = buildBody(info, status, override);
  if (body) {
    headers['Content-Type'] = body.mediaType;
    transaction.request.body = body.text;
  } else {
    delete headers['Content-Type'];
    transaction.request.body = '';
  }

  // Target data: reset the target, send set-up requests, authorise as another client.
  if (data.reset || override?.before || override?.client) {
    prepare(override, headers).then(
      () => finish(transaction, info, status, body, done),
      (error) => {
        failWith(transaction, `target data set-up failed: ${(error as Error).message}`);
        done();
      },
    );
    return;
  }
  finish(transaction, info, status, body, done);
}

/**
 * The target data's per-transaction preparation, in order:
 *   `reset` (top level, e.g. "POST /__sandbox/reset", at the auth URL): sent before every
 *     transaction, so each starts from the same state whatever ran before;
 *   `before` (per request): requests sent first with the run's token, each
 *     `{method, path, body?, root?: "auth"}` (path under the base URL, or the auth URL);
 *   `client` (per request): a name of the top-level `clients` ({client_id, client_secret}); the
 *     transaction is authorised with a token of that client (e.g. one without a scope, for a 403).
 */
async function prepare(override: Override | undefined, headers: Record<string, string>) {
  if (data.reset) {
    const [method, path] = data.reset.includes(' ') ? data.reset.split(' ') : ['POST', data.reset];
    await send(method, new URL(path.replace(/^\//, ''), withSlash(AUTH_URL)));
  }
  for (const step of override?.before ?? []) {
    const root = step.root === 'auth' ? AUTH_URL : BASE_URL;
    await send(step.method ?? 'GET', new URL(step.path.replace(/^\//, ''), withSlash(root)), step.body, true);
  }
  if (override?.client) {
    const client = data.clients?.[override.client];
    if (!client) throw new Error(`no client "${override.client}" in the target data's "clients"`);
    if (headers.Authorization) headers.Authorization = `Bearer ${await obtainToken(client)}`;
  }
}

async function send(method: string, url: URL, body?: unknown, authorised = false) {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (authorised && token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await request(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.statusCode >= 400)
    throw new Error(`${method} ${url.pathname} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
}

function finish(
  transaction: Transaction,
  info: OperationInfo,
  status: string,
  body: ReturnType<typeof buildBody>,
  next: Done,
) {
  const done = () => {
    transaction.contract!.sentAt = performance.now();
    next();
  };
  // Revoking: use a token of its own, so the run's token stays valid.
  if (info.op.operationId === revokeOp.operationId && status.startsWith('2')) {
    obtainToken().then(
      (throwaway) => {
        transaction.contract!.revokes = throwaway;
        transaction.request.body = new URLSearchParams({ ...body!.value, token: throwaway }).toString();
        done();
      },
      (error: Error) => {
        failWith(transaction, `could not obtain a token to revoke: ${error.message}`);
        done();
      },
    );
    return;
  }
  done();
}

// Dredd's own body check compares the keys of the first example with the response; the full
// schema check in afterEach replaces it (Dredd still checks the status code and Content-Type).
hooks.beforeEachValidation((transaction: Transaction) => {
  if (transaction.contract?.sentAt)
    transaction.contract.ms = Math.round(performance.now() - transaction.contract.sentAt);
  delete transaction.expected.body;
  delete transaction.expected.bodySchema;
  // Gavel compares Content-Type exactly; `application/json; charset=utf-8` is the same media type.
  const expected = transaction.expected.headers?.['Content-Type'];
  const actual = header(transaction.real?.headers, 'content-type');
  if (expected && actual && actual.split(';')[0]!.trim().toLowerCase() === expected.toLowerCase()) {
    transaction.expected.headers!['Content-Type'] = actual;
  }
  // Live: one id cannot be both media types of a download. Without an id for this media type in
  // the target data, an answer in another documented type of the same response is no failure
  // (afterEach reports the transaction as skipped, with what to add to the target data).
  const c = transaction.contract;
  const info = c?.operationId && lookup(transaction);
  if (
    MODE === 'live' &&
    info &&
    expected &&
    actual &&
    !c!.mediaOverride &&
    String(transaction.real?.statusCode) === c!.status
  ) {
    const types = Object.keys(info.op.responses[c!.status]?.content ?? {});
    const base = actual.split(';')[0]!.trim().toLowerCase();
    if (types.length > 1 && base !== expected.toLowerCase() && types.includes(base)) {
      c!.otherMedia = base;
      transaction.expected.headers!['Content-Type'] = actual;
    }
  }
});

/** The probe that failed last ({authorization, statusCode}): its reproducer sends what the probe sent. */
let failedProbe: { authorization: string; statusCode: number } | undefined;
/** The 401 transaction again with invalid credentials: each must get the documented 401. */
async function authProbes(transaction: Transaction, info: OperationInfo) {
  const base = { ...transaction.request.headers };
  delete base.Authorization;
  const probes: [string, string][] = [
    ['a garbage token', `Bearer garbage-${Math.random().toString(36).slice(2)}`],
    ['a malformed header (Bearer without a token)', 'Bearer'],
    ['a valid token under another scheme', `Basic ${token}`],
  ];
  if (revoked) probes.push(['a token the gate revoked', `Bearer ${revoked}`]);
  const problems: string[] = [];
  if (revokedError) problems.push(`auth probe: ${revokedError}`);
  for (const [what, authorization] of probes) {
    if (data.reset) await send(...resetRequest());
    const real = await resend(transaction, { ...base, Authorization: authorization });
    const found = checkResponse(info, '401', real);
    for (const p of found) problems.push(`auth probe with ${what}: ${p}`);
    if (found.length && !failedProbe) failedProbe = { authorization, statusCode: real.statusCode };
  }
  return problems;
}

function resetRequest(): [string, URL] {
  const [method, path] = data.reset.includes(' ') ? data.reset.split(' ') : ['POST', data.reset];
  return [method, new URL(path.replace(/^\//, ''), withSlash(AUTH_URL))];
}

/** Fails a transaction before it is sent; Dredd keeps only `true` in transaction.fail. */
function failWith(transaction: Transaction, message: string) {
  transaction.fail = message;
  if (transaction.contract) transaction.contract.error = message;
}

const results: ExampleResult[] = [];
hooks.afterEach((transaction: Transaction, done: Done) => {
  afterEachAsync(transaction).then(done, (error: Error) => {
    results.push({
      key: transaction.contract?.key ?? transaction.name,
      name: transaction.name,
      outcome: 'fail',
      errors: [`gate error: ${error.message}`],
    });
    done();
  });
});

async function afterEachAsync(transaction: Transaction) {
  const c: Contract = transaction.contract ?? {
    key: transaction.name,
    status: String(transaction.expected.statusCode),
  };
  const record = { key: c.key, name: transaction.name, operationId: c.operationId, status: c.status };
  if (transaction.skip) {
    results.push({ ...record, outcome: 'skip', reason: c.reason ?? 'skipped' });
    return;
  }
  const problems: string[] = [];
  let empty = false;
  if (transaction.fail) problems.push(c.error ?? String(transaction.fail));
  const info = lookup(transaction);
  if (!transaction.real) {
    problems.push(
      transaction.fail
        ? 'not sent'
        : `no response from ${transaction.protocol}//${transaction.host}:${transaction.port}${transaction.fullPath}: ${globalThis.contractNoAnswer?.get(transaction.request) ?? `the connection failed, or no answer came within ${REQUEST_TIMEOUT} ms`} (--request-timeout ${REQUEST_TIMEOUT} ms, at most ${MAX_RESPONSE_BYTES} bytes)`,
    );
  } else {
    const actualType = (header(transaction.real.headers, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (c.otherMedia) {
      results.push({
        ...record,
        outcome: 'skip',
        reason: `live: the target answered ${c.otherMedia} for this id; give an id of a ${c.mediaType} resource in CONTRACT_TARGET_DATA "requests": {"${c.key} ${c.mediaType}": {"params": …}}`,
      });
      return;
    }
    if (info) problems.push(...checkResponse(info, c.status, transaction.real));
    // Dredd's own findings (status, Content-Type) when the schema check found nothing else.
    if (!problems.length && transaction.test && transaction.test.valid === false && transaction.test.message) {
      problems.push(
        ...transaction.test.message
          .trim()
          .split('\n')
          .map((m: string) => `dredd: ${m}`),
      );
    }
    if (!problems.length && info && c.status.startsWith('2')) {
      if (/^application\/(gzip|sql)$/.test(actualType) && MODE === 'live' && CHECKS.has('download_conformance'))
        problems.push(...(await downloadProblems(transaction, actualType)));
      // A list that holds nothing checks no item: against a target with data it must not be empty.
      let parsed: Json;
      try {
        parsed = /json/.test(actualType) ? JSON.parse(transaction.real.body) : undefined;
      } catch {
        parsed = undefined;
      }
      if (Array.isArray(parsed?.data) && parsed.data.length === 0) {
        empty = true;
        if (data.nonEmptyLists && !(data.emptyLists ?? []).includes(c.key)) {
          problems.push(
            'body/data is an empty list, so no item was checked: the target data must select a request that lists something',
          );
        }
      }
    }
    failedProbe = undefined;
    if (PROBES && info && c.status === '401' && !problems.length)
      problems.push(...(await authProbes(transaction, info)));
    if (MAX_RESPONSE_TIME && c.ms! > MAX_RESPONSE_TIME)
      problems.push(`response time ${c.ms} ms, over the limit of ${MAX_RESPONSE_TIME} ms`);
  }
  // Problems of checks left out (--exclude-checks) are not reported; "not sent" ones always are.
  const failures = problems
    .map((message) => ({ check: transaction.real ? checkOfProblem(message) : 'status_code_conformance', message }))
    .filter((f) => CHECKS.has(f.check) || !transaction.real);
  problems.splice(0, problems.length, ...failures.map((f) => f.message));
  if (problems.length) {
    transaction.fail = problems.join('; ');
    if (transaction.test) transaction.test.message = `${transaction.test.message ?? ''}${problems.join('\n')}\n`;
  }
  // For error responses, what the target said (in --results files: was it the intended error?).
  const said = !c.status.startsWith('2') && transaction.real?.body ? transaction.real.body.slice(0, 240) : undefined;
  results.push({
    ...record,
    outcome: problems.length ? 'fail' : 'pass',
    errors: problems.length ? problems : undefined,
    failures: failures.length ? failures : undefined,
    actual: failedProbe?.statusCode ?? transaction.real?.statusCode,
    ms: c.ms,
    request: requestOf(transaction, failedProbe, token),
    said,
    empty: empty || undefined,
    probed: PROBES && c.status === '401' ? true : undefined,
  });
  // The ledger records what the answer says the run created or deleted; the plan puts back a
  // setting that exists once.
  if (planHooks && transaction.real && !TOKEN_OPERATIONS.has(c.operationId ?? ''))
    planHooks.observe(
      transaction.request.method,
      transaction.request.uri,
      transaction.real.statusCode,
      transaction.request.body,
      transaction.real.body,
    );
  if (c.planned && ALLOW_WRITES && c.status.startsWith('2') && transaction.real && info)
    await planHooks!.after(info.model, transaction.real);
  // A service that hands out the same token again: the revoked one was ours, get a fresh one.
  if (c.revokes && c.revokes === token) token = await obtainToken().catch(() => token);
}

/**
 * The target data's `expire` (sandbox: move the clock on past a token's lifetime): a token
 * obtained before it must then get 401 on an authorised read. Runs last, after every transaction.
 */
async function expiredTokenProbe() {
  const info = operations.get('GET /account');
  const old = await obtainToken();
  const step = data.expire;
  const root = step.root === 'auth' ? AUTH_URL : BASE_URL;
  await send(step.method ?? 'POST', new URL(step.path.replace(/^\//, ''), withSlash(root)), step.body);
  const real = await request(new URL('account', withSlash(BASE_URL)), {
    headers: { Accept: 'application/json', Authorization: `Bearer ${old}` },
  });
  return checkResponse(info!, '401', real).map((p) => `auth probe with an expired token: ${p}`);
}

hooks.afterAll((_transactions: Transaction[], done: Done) => {
  const planned = planHooks
    ? planHooks.finish().catch((error: Error) =>
        planHooks!.results.push({
          key: 'state diff',
          name: 'state diff: resources that existed before the run are unchanged',
          outcome: 'fail',
          errors: [`could not run: ${error.message}`],
          failures: [{ check: 'state_unchanged', message: `could not run: ${error.message}` }],
        }),
      )
    : Promise.resolve();
  const probe = planned.then(() =>
    PROBES && data.expire && (!ONLY.length || ONLY.some((o) => o.split(' ')[0] === 'getAccount'))
      ? expiredTokenProbe()
      : null,
  );
  probe
    .then(
      (problems) => {
        if (problems)
          results.push({
            key: 'getAccount 401',
            name: 'auth probe: expired token',
            operationId: 'getAccount',
            status: '401',
            ...resultOf(problems, 'ignored_auth'),
          });
      },
      (error) =>
        results.push({
          key: 'getAccount 401',
          name: 'auth probe: expired token',
          operationId: 'getAccount',
          status: '401',
          outcome: 'fail',
          errors: [`could not run: ${error.message}`],
          failures: [{ check: 'ignored_auth', message: `could not run: ${error.message}` }],
        }),
    )
    .finally(() => {
      results.push(...(planHooks?.results ?? []));
      if (env.CONTRACT_RESULTS)
        writeFileSync(env.CONTRACT_RESULTS, JSON.stringify(shown({ mode: MODE, results }), null, 1));
      done();
    });
});
