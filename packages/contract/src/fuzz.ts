#!/usr/bin/env node

// The gate's generated-input phase: seeded fast-check inputs for every operation, checked by the
// fuzz checks of checks.ts (negative_data_rejection, positive_data_acceptance, use_after_delete,
// ensure_resource_availability, filter_semantics, ignored_auth, max_response_time), by the
// statement checks of checks/ and by the response checks (status, Content-Type, headers, 3.1
// schema) on every answer. Started by main.ts (built to dist/fuzz.js).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadModel } from '@hosting-api/openapi/model';
import fc from 'fast-check';
import { checkOfProblem, checksFromEnv } from './checks';
import { STATEMENT_CHECKS, statementCoverage } from './checks/index';
import { citeForThisRepository } from './citations';
import {
  obtainToken,
  parseCommandLine,
  REQUEST_TIMEOUT_MS,
  requireLiveVars,
  specFile,
  startGateSandbox,
  TOKEN_REFRESH_MS,
} from './cli';
import { describeObservation, judge, type Observation } from './flaky';
import { bodyMutations, breaking, valid } from './generate';
import { cappedFetch } from './http-cap';
import { changesEveryItem } from './live-plan';
import { needsWrites, READ_ONLY_REASON } from './safety';
import { createChecker, exercisedResponse, READ_VERBS } from './spec-check';
import type {
  Case,
  CheckContext,
  Failure,
  Json,
  Operation,
  PhaseResult,
  Req,
  RequestParts,
  Res,
  StatementCheck,
} from './types';

/** What one generated input of a property did: its failures ([] passes), and for the record what was sent and seen. */
interface Attempt {
  failures: Failure[];
  what: string;
  request: Req;
  expected: string | number;
  actual: number;
  /** The start of the answer's body, for a flaky case's observations. */
  answer?: string;
}
/** A generated change of a request: a body mutation (generate.ts), a query or a path parameter. */
interface Input {
  what: string;
  apply?: (body: Json) => unknown;
  query?: Record<string, unknown>;
  path?: Record<string, unknown>;
}
/** What a list is read with (walk, pagingProblems). */
interface ListRequest {
  query?: Record<string, unknown>;
  body?: Json;
  path?: Record<string, unknown> | undefined;
}

const HELP = `Usage: node dist/fuzz.js (--sandbox | --live) [--seed N] [--max-examples N] [--only IDS] [--results FILE]

  --sandbox          start @hosting-api/sandbox (frozen clock, reset before each operation)
  --live             CONTRACT_BASE_URL / CONTRACT_AUTH_URL / CONTRACT_CLIENT_ID / CONTRACT_CLIENT_SECRET;
                     operations that change the target only with CONTRACT_ALLOW_WRITES=1, and then
                     only on resources the run created
  --seed N           fast-check seed (default: random, printed); the same seed gives the same inputs
  --max-examples N   generated inputs per operation and check (default 20)
  --only IDS         comma-separated operationIds
  --results FILE     every case as JSON
Path parameters come from the spec's examples; CONTRACT_FUZZ_PARAMS (a JSON object) overrides them.`;

const { values, usage } = parseCommandLine('contract fuzz', HELP, {
  sandbox: { type: 'boolean', default: false },
  live: { type: 'boolean', default: false },
  seed: { type: 'string' },
  'max-examples': { type: 'string', default: '20' },
  only: { type: 'string' },
  results: { type: 'string' },
});
if (values.sandbox === values.live) usage('say one target: --sandbox or --live.');
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const numRuns = Number(values['max-examples']);
if (!Number.isInteger(seed)) usage(`--seed must be an integer, got "${values.seed}"`);
if (!(Number.isInteger(numRuns) && numRuns > 0))
  usage(`--max-examples must be a positive integer, got "${values['max-examples']}"`);
let CHECKS!: ReturnType<typeof checksFromEnv>;
try {
  CHECKS = checksFromEnv();
} catch (error) {
  usage((error as Error).message);
}
const MAX_MS = Number(process.env.CONTRACT_MAX_RESPONSE_TIME) || 0;
let params: Record<string, Json> = {};
try {
  params = JSON.parse(process.env.CONTRACT_FUZZ_PARAMS ?? '{}');
} catch (error) {
  usage(`CONTRACT_FUZZ_PARAMS is not a JSON object: ${(error as Error).message}`);
}

// Live runs: the ids of resources the run created, for every path parameter of a write (set by
// hosting-api-contract check; live-plan.ts). Without them a write's path comes from `params`.
let writeParams: Record<string, Json> | null | undefined;
try {
  writeParams = JSON.parse(process.env.CONTRACT_FUZZ_WRITE_PARAMS ?? 'null');
} catch (error) {
  usage(`CONTRACT_FUZZ_WRITE_PARAMS is not a JSON object: ${(error as Error).message}`);
}

const model = await loadModel(specFile(usage));
citeForThisRepository(model);
const checker = await createChecker(model);
const started = Date.now();

let sandbox: Awaited<ReturnType<typeof startGateSandbox>> | undefined;
let baseUrl: string;
let authUrl: string;
if (values.sandbox) {
  sandbox = await startGateSandbox(usage);
  ({ url: baseUrl, authUrl } = sandbox);
} else {
  requireLiveVars('fuzz --live', 'Operations that change the target run only with CONTRACT_ALLOW_WRITES=1.');
  baseUrl = process.env.CONTRACT_BASE_URL!.replace(/\/$/, '');
  authUrl = process.env.CONTRACT_AUTH_URL!.replace(/\/$/, '');
}
const live = !sandbox;
const allowWrites = !live || process.env.CONTRACT_ALLOW_WRITES === '1';
let token: string | undefined;
let tokenAt = 0;
try {
  token = await obtainToken(authUrl, model.issueTokenOperation!, { checker });
  tokenAt = Date.now();
} catch (error) {
  process.stderr.write(`contract fuzz: ${(error as Error).message}\n`);
  await sandbox?.stop();
  process.exit(3);
}
console.log(
  `Contract fuzz: ${live ? 'live' : 'sandbox'} target, base URL ${baseUrl}; seed ${seed}, ${numRuns} examples per operation and check`,
);

// ---- requests ------------------------------------------------------------------------------
/** A read or a query (its answer is what it checks); whether a read-only run may send it is `needsWrites` (safety.ts). */
const isRead = (op: Operation) => op.method === 'get' || READ_VERBS.test(op.operationId);
const byPath = new Map(model.operations.map((o) => [`${o.method} ${o.path}`, o]));
const jsonBody = (op: Operation) => op.requestBody?.content?.['application/json'];
const example = (media: Json) => media?.example ?? Object.values<Json>(media?.examples ?? {})[0]?.value;
const paramExample = (p: Json) =>
  p.example ?? Object.values<Json>(p.examples ?? {})[0]?.value ?? p.schema?.example ?? p.schema?.examples?.[0];

/** The request of `op`: path parameters from `over`, CONTRACT_FUZZ_PARAMS or the spec's examples. */
function requestOf(op: Operation, { path: over = {}, query = {}, body, auth = 'token' }: RequestParts = {}): Req {
  const url = new URL(
    op.path
      .replace(/\{([^}]+)\}/g, (_, name: string) =>
        encodeURIComponent(
          String(
            over[name] ??
              (live && writeParams && needsWrites(op) ? writeParams[name] : undefined) ??
              params[name] ??
              paramExample(op.parameters.find((p) => p.name === name && p.in === 'path') ?? {}) ??
              1,
          ),
        ),
      )
      .replace(/^\//, ''),
    `${op.outsideV1 ? authUrl : baseUrl}/`,
  );
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (auth === 'token' && op.requiresToken) headers.Authorization = `Bearer ${token}`;
  else if (auth === 'garbage') headers.Authorization = 'Bearer garbage-token';
  let text: string | undefined;
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    text = JSON.stringify(body);
  }
  const req = { method: op.method.toUpperCase(), url: url.href, headers, body: text };
  if (op.effects?.some((e) => e.kind === 'queued')) queuedRequests.add(req);
  return req;
}

// ---- quiet: queued work the run caused lands before a before/after comparison -----------------
/** Requests of operations the spec states a `queued` effect for: applied later, not at once. */
const queuedRequests = new WeakSet<Req>();
let queuedAt = 0; // when the run last sent one
let quietAt = 0; // when the run last waited for quiet
/** How long a read must keep its answer to count as quiet (CONTRACT_QUIET_MS), and the most a wait takes. */
const QUIET_MS = Number(process.env.CONTRACT_QUIET_MS) || 1000;
const QUIET_BUDGET_MS = 10 * QUIET_MS;
const quietWaits = { count: 0, ms: 0 };
/**
 * Before a before/after comparison through `read`: when the run has sent a queued operation since
 * the last wait, reads until the answer stays the same for QUIET_MS (at most QUIET_BUDGET_MS).
 */
async function quiet(read: Operation | undefined) {
  if (!live || !read || queuedAt <= quietAt) return; // the gate's own sandbox: a frozen clock, nothing lands
  const t0 = Date.now();
  let last = await snapshot(read);
  let since = Date.now();
  while (Date.now() - since < QUIET_MS && Date.now() - t0 < QUIET_BUDGET_MS) {
    await new Promise((done) => setTimeout(done, QUIET_MS / 5));
    const now = await snapshot(read);
    if (now !== last) [last, since] = [now, Date.now()];
  }
  quietAt = Date.now();
  quietWaits.count++;
  quietWaits.ms += quietAt - t0;
}

/** Sends a request (node:http: two operations are GETs with a body, which fetch cannot send). */
/** One request (http-cap.ts: a wall-clock deadline for the whole answer, a size cap). */
async function send(req: Req): Promise<Res> {
  // The run's token is renewed when it gets old (TOKEN_REFRESH_MS): a target's tokens may expire mid-run.
  if (token && req.headers.Authorization === `Bearer ${token}` && Date.now() - tokenAt > TOKEN_REFRESH_MS) {
    token = await obtainToken(authUrl, model.issueTokenOperation!, { checker });
    tokenAt = Date.now();
    req = { ...req, headers: { ...req.headers, Authorization: `Bearer ${token}` } };
  }
  if (queuedRequests.has(req)) queuedAt = Date.now();
  const t0 = performance.now();
  const res = await cappedFetch(
    req.url,
    { method: req.method, headers: req.headers, body: req.body },
    { deadline: REQUEST_TIMEOUT_MS },
  );
  let json: Json;
  try {
    json = JSON.parse(res.body);
  } catch {}
  return { status: res.statusCode, headers: res.headers, text: res.body, json, ms: Math.round(performance.now() - t0) };
}

/** The documented responses ("<operationId> <status>") this phase got and checked, for the coverage. */
const exercised = new Set<string>();
/** Problems of an answer by check: the response checks, then max_response_time. */
function responseFailures(op: Operation, res: Res, { expect }: { expect?: string } = {}): Failure[] {
  const problems = checker.checkResponse({ op: op.operation }, expect ?? String(res.status), {
    statusCode: res.status,
    headers: res.headers,
    body: res.text,
  });
  const key = exercisedResponse(op.operationId, res.status, res.headers['content-type'], res.text, problems);
  if (key) exercised.add(key);
  if (MAX_MS && res.ms! > MAX_MS) problems.push(`response time ${res.ms} ms, over the limit of ${MAX_MS} ms`);
  return problems.map((message) => ({ check: checkOfProblem(message), message }));
}

const reset = () => (sandbox ? sandbox.reset() : undefined);

// ---- results -------------------------------------------------------------------------------
const results: PhaseResult[] = [];
// The run's own token is shown as $TOKEN (the reproducers get it first); any other token a probe
// sent (a garbage one, none) is shown as it was, so that the reproducer replays the probe.
const masked = (req: Req) => ({
  ...req,
  headers: {
    ...req.headers,
    ...(req.headers?.Authorization === `Bearer ${token}` ? { Authorization: 'Bearer $TOKEN' } : {}),
  },
});
function record(
  check: string,
  op: Operation,
  name: string,
  outcome: PhaseResult['outcome'],
  more: Partial<PhaseResult> = {},
) {
  results.push({
    phase: 'fuzz',
    check,
    operationId: op.operationId,
    key: `${check} ${op.operationId}`,
    name,
    outcome,
    ...more,
    request: more.request && masked(more.request),
  });
}
const skip = (check: string, op: Operation, reason: string | undefined) =>
  CHECKS.has(check) && record(check, op, `${check} ${op.operationId}`, 'skip', { reason });

/**
 * Runs a property with fast-check: `attempt(input)` returns the failures of one input ([] passes).
 * A failing input is shrunk, then sent again a few times (flaky.ts): a failure every time is a
 * failure with its message; one that passes when sent again is `flaky`, with every observation.
 */
async function property<T>(
  check: string,
  op: Operation,
  arbitrary: fc.Arbitrary<T>,
  attempt: (input: T) => Promise<Attempt>,
) {
  // Each operation and check has a seed of its own, so --only replays the same inputs as the full run.
  const index = [...`${check} ${op.operationId}`].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) | 0, 0);
  const t0 = Date.now();
  let failing: Attempt | undefined; // the last input that failed: after shrinking, the counterexample's
  // A request without an answer ends the property: no shrinking against a target that is silent.
  let unanswered: unknown;
  const out = await fc.check(
    fc.asyncProperty(arbitrary, async (input) => {
      if (unanswered) throw unanswered;
      let last: Attempt;
      try {
        last = await attempt(input);
      } catch (error) {
        unanswered = error;
        throw error;
      }
      if (last.failures.length) failing = last;
      return last.failures.length === 0;
    }),
    { seed: (seed + index) | 0, numRuns, endOnFailure: false },
  );
  if (unanswered) throw unanswered;
  const more = { ms: Date.now() - t0, runs: out.numRuns };
  if (!out.failed) return record(check, op, `${check} ${op.operationId}`, 'pass', more);
  const observe = (a: Attempt): Observation => ({
    request: masked(a.request),
    status: a.actual,
    answer: a.answer,
    failures: a.failures,
  });
  const counterexample = out.counterexample?.[0] as T;
  const first =
    failing ??
    ({
      failures: [{ check, message: String(out.errorInstance ?? 'the property failed without a recorded input') }],
      what: 'unknown',
      request: requestOf(op),
      expected: '',
      actual: 0,
    } as Attempt);
  let replayed: Attempt = first;
  const verdict = await judge(observe(first), async () => {
    replayed = await attempt(counterexample);
    return observe(replayed);
  });
  record(check, op, `${check} ${op.operationId}`, verdict.outcome, {
    ...more,
    failures: verdict.failures,
    errors: verdict.failures.map((f) => `${f.check}: ${f.message}`),
    observations: verdict.observations,
    input: first.what,
    expected: first.expected,
    actual: first.actual,
    request: (verdict.outcome === 'fail' ? replayed : first).request,
    shrinks: out.numShrinks,
  });
}

/** The read that shows whether a write changed something: GET of the same path, else of its parent. */
function readOf(op: Operation) {
  if (op.method === 'get') return op;
  let path = op.path;
  while (path) {
    const found = byPath.get(`get ${path}`);
    if (found) return found;
    path = path.replace(/\/[^/]+$/, '');
  }
  return undefined;
}
const snapshot = async (read: Operation | undefined) => (read ? (await send(requestOf(read))).text : undefined);

// ---- the checks ----------------------------------------------------------------------------
// ("<operationId> <status>" selects a response for the examples phase; here, its operation.)
const only = (values.only ?? process.env.CONTRACT_ONLY ?? '')
  .split(',')
  .map((s) => s.trim().split(' ')[0])
  .filter(Boolean);
const excluded = (process.env.CONTRACT_EXCLUDE ?? '').split(',').map((s) => s.trim().split(' ')[0]);
const operations = model.operations.filter(
  (o) => !o.outsideV1 && (!only.length || only.includes(o.operationId)) && !excluded.includes(o.operationId),
);
if (only.length && operations.length === 0)
  usage(`--only selects no operation this phase fuzzes (${only.join(', ')}; the token operations are not fuzzed).`);
const created = new Map<string, Json[]>(); // path parameter name → ids the run created (live runs touch only those)

/** Path parameters of reads that look at what a write changed: the ids the writes went to. */
const writtenPath = (more = {}) => ({ ...(live && writeParams ? writeParams : {}), ...more });

/** Live runs change only what they created: the last path parameter must be one of those. */
function writeAllowed(op: Operation) {
  if (!needsWrites(op)) return { ok: true };
  if (!allowWrites) return { ok: false, reason: READ_ONLY_REASON };
  if (!live) return { ok: true };
  if (changesEveryItem(op.operationId))
    return { ok: false, reason: 'changes every item of its list, those that existed before the run too' };
  const last = op.path.match(/\{([^}]+)\}$/)?.[1];
  const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  const lacking = names.filter((n) => n !== last && writeParams && writeParams[n] === undefined);
  if (lacking.length) return { ok: false, reason: `no ${lacking.join(', ')} the run created to write to` };
  const isCreate = op.method === 'post' && [...byPath.keys()].some((k) => k.startsWith(`get ${op.path}/{`));
  if (isCreate || !last) return { ok: true };
  const ids = created.get(last) ?? (writeParams?.[last] !== undefined ? [writeParams[last]] : undefined);
  return ids?.length
    ? { ok: true, path: { [last]: ids.at(-1) } }
    : { ok: false, reason: `touches a ${last} the run did not create` };
}

async function negativeDataRejection(op: Operation) {
  const media = jsonBody(op);
  const base = example(media) ?? {};
  const documented4xx = Object.keys(op.responses).filter((s) => /^4\d\d$/.test(s) && s !== '401' && s !== '403');
  const arbs: fc.Arbitrary<Input>[] = media?.schema ? bodyMutations(media.schema) : [];
  for (const p of op.parameters.filter((p) => p.in === 'query' && p.schema)) {
    const schema = p.schema;
    const t = Array.isArray(schema.type) ? schema.type : [schema.type];
    const queryArbs = breaking(schema, `query ${p.name}`).filter(
      (_, i) => i > 0 || t.some((x: string) => ['integer', 'number', 'boolean'].includes(x)),
    );
    for (const arb of queryArbs)
      arbs.push(
        arb
          .filter(({ value }) => ['string', 'number', 'boolean'].includes(typeof value))
          .map(({ what, value }) => ({ what, query: { [p.name]: value } })),
      );
  }
  for (const p of op.parameters.filter((p) => p.in === 'path' && ['integer', 'number'].includes(p.schema?.type)))
    arbs.push(
      fc.string({ maxLength: 6 }).map((s) => ({ what: `path ${p.name} not a number`, path: { [p.name]: `x${s}` } })),
    );
  if (!arbs.length) return skip('negative_data_rejection', op, 'declares no body or query constraint to break');
  if (!documented4xx.length) return skip('negative_data_rejection', op, 'documents no 4xx for invalid input');
  // Refused writes must change nothing: a read before and after each (reads change nothing by
  // definition, and a read that answers differently each time proves nothing).
  let read = isRead(op) ? undefined : readOf(op);
  await quiet(read);
  const [first, second] = read ? [await snapshot(read), await snapshot(read)] : [];
  if (first !== second) read = undefined;
  await property('negative_data_rejection', op, fc.oneof(...arbs), async (mutation) => {
    const req = requestOf(op, {
      path: mutation.path,
      query: mutation.query,
      body: mutation.apply ? mutation.apply(base) : media ? base : undefined,
    });
    await quiet(read);
    const before = await snapshot(read);
    const res = await send(req);
    const after = await snapshot(read);
    const failures = [];
    if (!documented4xx.includes(String(res.status)))
      failures.push({
        check: 'negative_data_rejection',
        message: `${mutation.what}: answered ${res.status}, expected a documented 4xx (${documented4xx.join(', ')})`,
      });
    else failures.push(...responseFailures(op, res));
    if (before !== after)
      failures.push({
        check: 'negative_data_rejection',
        message: `${mutation.what}: refused, but ${read!.method.toUpperCase()} ${read!.path} reads differently afterwards: ${whatChanged(before, after)}`,
      });
    return {
      failures: failures.filter((f) => CHECKS.has(f.check)),
      what: mutation.what,
      request: req,
      expected: documented4xx.join(' or '),
      actual: res.status,
      answer: res.text.slice(0, 300),
    };
  });
}

/** What differs between two answers, field by field (at most 5), for a before/after failure. */
function whatChanged(before: string | undefined, after: string | undefined) {
  let a: Json;
  let b: Json;
  try {
    a = JSON.parse(before as string);
    b = JSON.parse(after as string);
  } catch {
    return `${String(before).slice(0, 120)} → ${String(after).slice(0, 120)}`;
  }
  const out: string[] = [];
  const walk = (x: Json, y: Json, at: string) => {
    if (out.length >= 5) return;
    if (x && y && typeof x === 'object' && typeof y === 'object') {
      for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) walk(x[k], y[k], at ? `${at}/${k}` : k);
    } else if (JSON.stringify(x) !== JSON.stringify(y))
      out.push(`${at || 'the body'}: ${JSON.stringify(x)?.slice(0, 80)} → ${JSON.stringify(y)?.slice(0, 80)}`);
  };
  walk(a, b, '');
  return out.join('; ') || 'the same JSON, different text';
}

async function positiveDataAcceptance(op: Operation) {
  const allowed = writeAllowed(op);
  if (!allowed.ok) return skip('positive_data_acceptance', op, allowed.reason);
  const media = jsonBody(op);
  const queryParams = op.parameters.filter((p) => p.in === 'query' && p.schema);
  const arb = fc.record({
    body: media?.schema ? valid(media.schema) : fc.constant(undefined),
    query: fc.record<Record<string, unknown>>(Object.fromEntries(queryParams.map((p) => [p.name, valid(p.schema)])), {
      requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name),
    }),
  });
  await property('positive_data_acceptance', op, arb, async (input) => {
    await reset();
    const req = requestOf(op, {
      path: allowed.path,
      query: input.query,
      body: op.requestBody ? input.body : undefined,
    });
    const res = await send(req);
    const failures = [];
    if (res.status >= 500 || !(String(res.status) in op.responses))
      failures.push({
        check: 'positive_data_acceptance',
        message: `valid input answered ${res.status}; documented: ${Object.keys(op.responses).join(', ')}`,
      });
    else failures.push(...responseFailures(op, res));
    return {
      failures: failures.filter((f) => CHECKS.has(f.check)),
      what: JSON.stringify(input),
      request: req,
      expected: Object.keys(op.responses).join(', '),
      actual: res.status,
      answer: res.text.slice(0, 300),
    };
  });
}

async function ignoredAuth(op: Operation) {
  if (!op.requiresToken || !('401' in op.responses)) return;
  if (needsWrites(op) && !allowWrites) return skip('ignored_auth', op, READ_ONLY_REASON);
  const t0 = Date.now();
  const failures = [];
  let req: Req | undefined;
  for (const auth of ['none', 'garbage']) {
    req = requestOf(op, { auth, body: example(jsonBody(op)) });
    const res = await send(req);
    if (res.status !== 401)
      failures.push({
        check: 'ignored_auth',
        message: `${auth === 'none' ? 'no token' : 'a garbage token'}: answered ${res.status}, expected 401`,
      });
    else failures.push(...responseFailures(op, res).filter((f) => CHECKS.has(f.check)));
    if (failures.length) break;
  }
  record('ignored_auth', op, `ignored_auth ${op.operationId}`, failures.length ? 'fail' : 'pass', {
    ms: Date.now() - t0,
    failures: failures.length ? failures : undefined,
    errors: failures.length ? failures.map((f) => f.message) : undefined,
    request: failures.length ? req : undefined,
    expected: '401',
  });
}

/** The id of a created resource in a create's answer: `data.id`, or the path parameter's field. */
const idOf = (res: Res, param: string) => res.json?.data?.id ?? res.json?.data?.[param.replace(/_id$/, 'Id')];

async function ensureResourceAvailability(op: Operation) {
  const itemPath = [...byPath.values()].find(
    (o) => o.method === 'get' && o.path.startsWith(`${op.path}/{`) && !o.path.slice(op.path.length + 1).includes('/'),
  );
  if (op.method !== 'post' || !itemPath) return;
  const allowed = writeAllowed(op);
  if (!allowed.ok) return skip('ensure_resource_availability', op, allowed.reason);
  const param = itemPath.path.match(/\{([^}]+)\}$/)![1]!;
  const t0 = Date.now();
  await reset();
  const req = requestOf(op, { body: example(jsonBody(op)) });
  const res = await send(req);
  const fail = (message: string, more = {}) =>
    record('ensure_resource_availability', op, `ensure_resource_availability ${op.operationId}`, 'fail', {
      ms: Date.now() - t0,
      failures: [{ check: 'ensure_resource_availability', message }],
      errors: [message],
      request: req,
      ...more,
    });
  if (!/^2/.test(String(res.status)))
    return skip('ensure_resource_availability', op, `the create with the spec's example answered ${res.status}`);
  const id = idOf(res, param);
  if (id === undefined)
    return skip(
      'ensure_resource_availability',
      op,
      `the answer (${res.status}) names no id of the new resource (queued work)`,
    );
  created.set(param, [...(created.get(param) ?? []), id]);
  const read = await send(requestOf(itemPath, { path: writtenPath({ [param]: id }) }));
  if (read.status !== 200)
    return fail(`created ${param} ${id}, but ${itemPath.path} answered ${read.status}`, {
      expected: 200,
      actual: read.status,
    });
  const list = byPath.get(`get ${op.path}`);
  if (list) {
    const items = await walk(list, { path: writtenPath() });
    if (!items.some((item) => String(item?.id) === String(id)))
      return fail(`created ${param} ${id}, but GET ${op.path} does not list it`, {
        expected: `an item with id ${id}`,
        actual: `${items.length} items`,
      });
  }
  record('ensure_resource_availability', op, `ensure_resource_availability ${op.operationId}`, 'pass', {
    ms: Date.now() - t0,
  });
}

async function useAfterDelete(op: Operation) {
  const read = byPath.get(`get ${op.path}`);
  if (op.method !== 'delete' || !read) return;
  const allowed = writeAllowed(op);
  if (!allowed.ok) return skip('use_after_delete', op, allowed.reason);
  const t0 = Date.now();
  await reset();
  const req = requestOf(op, { path: allowed.path, body: example(jsonBody(op)) });
  const res = await send(req);
  if (res.status !== 200 && res.status !== 204)
    return skip('use_after_delete', op, `the delete answered ${res.status}, not a delete done at once (200 or 204)`);
  // A delete that answers the resource in a state ("deleting") is a transition, not a removal.
  const state = res.json?.data?.status ?? res.json?.data?.state;
  if (typeof state === 'string')
    return skip('use_after_delete', op, `the delete answered the resource as ${state}: it is removed later`);
  if (!/\}$/.test(op.path))
    return skip('use_after_delete', op, 'a single sub-resource (no id of its own): its read does not 404 once deleted');
  const after = await send(requestOf(read, { path: writtenPath(allowed.path) }));
  const ok = after.status === 404;
  const message = `deleted (${res.status}), but ${read.method.toUpperCase()} ${read.path} then answered ${after.status}, expected 404`;
  record('use_after_delete', op, `use_after_delete ${op.operationId}`, ok ? 'pass' : 'fail', {
    ms: Date.now() - t0,
    ...(ok
      ? {}
      : {
          failures: [{ check: 'use_after_delete', message }],
          errors: [message],
          request: req,
          expected: 404,
          actual: after.status,
        }),
  });
}

/** The items of a list answer: `data`, or the one array inside it (`{name, email, sites}`). */
function itemsOf(json: Json): Json[] | undefined {
  const data = json?.data;
  if (Array.isArray(data)) return data;
  const arrays = data && typeof data === 'object' ? Object.values(data).filter(Array.isArray) : [];
  return arrays.length === 1 ? arrays[0] : undefined;
}

/** The query that asks for a page: per_page and page, and paginate=true where the list is whole unless asked. */
const pageQuery = (op: Operation, perPage: number, page: number) => ({
  ...(op.parameters.some((p) => p.name === 'paginate') ? { paginate: true } : {}),
  per_page: perPage,
  page,
});

/** Every item of a paged list (per_page 50, at most 20 pages), or of an unpaged one. */
async function walk(op: Operation, { query = {}, body, path }: ListRequest = {}) {
  const paged = op.parameters.some((p) => p.name === 'per_page');
  const items: Json[] = [];
  for (let page = 1; page <= 20; page++) {
    const res = await send(
      requestOf(op, {
        path,
        query: paged ? { ...query, ...pageQuery(op, 50, page) } : query,
        body: body && { ...body, per_page: 50, page },
      }),
    );
    const found = itemsOf(res.json);
    if (!found) break;
    items.push(...found);
    if (!res.json!.page?.nextPage) break;
  }
  return items;
}

/** Paging: perPage holds, totalItems and lastPage agree, the pages add up without repeats. */
async function pagingProblems(op: Operation, { query = {}, body }: ListRequest = {}) {
  const problems: string[] = [];
  const ids: string[] = [];
  let total: number | undefined;
  for (let page = 1; page <= 20; page++) {
    const res = await send(
      requestOf(op, {
        query: body ? query : { ...query, ...pageQuery(op, 2, page) },
        body: body && { ...body, per_page: 2, page },
      }),
    );
    const p = res.json?.page;
    const items = itemsOf(res.json);
    if (res.status !== 200 || !p || !items)
      return [
        `page ${page} with per_page 2: answered ${res.status}${p ? '' : ' without a page block'}${items ? '' : ' without a list'}`,
      ];
    if (items.length > 2) problems.push(`page ${page}: ${items.length} items, per_page was 2`);
    if (p.perPage !== 2) problems.push(`page ${page}: page.perPage is ${p.perPage}, per_page was 2`);
    if (p.currentPage !== page) problems.push(`page ${page}: page.currentPage is ${p.currentPage}`);
    total ??= p.totalItems;
    if (p.totalItems !== total) problems.push(`page ${page}: totalItems ${p.totalItems}, page 1 said ${total}`);
    const last = Math.ceil(p.totalItems / 2);
    if (p.lastPage !== last && !(p.totalItems === 0 && p.lastPage === 1))
      problems.push(
        `page ${page}: lastPage ${p.lastPage} with totalItems ${p.totalItems} and perPage 2 (expected ${last})`,
      );
    ids.push(...items.map((item) => JSON.stringify(item?.id ?? item)));
    const expectedNext = page < p.lastPage! ? page + 1 : null;
    if (p.nextPage !== expectedNext) problems.push(`page ${page}: nextPage ${p.nextPage}, expected ${expectedNext}`);
    if (problems.length || page >= p.lastPage!) break;
  }
  if (!problems.length && total! <= 40 && ids.length !== total)
    problems.push(`the pages hold ${ids.length} items, totalItems is ${total}`);
  if (!problems.length && new Set(ids).size !== ids.length) problems.push('an item is on two pages');
  return problems;
}

/** Filters whose meaning the API documentation states: each item must match what was asked. */
const FILTERS: Record<string, (items: Json[]) => { what: string; body: Json; matches: (i: Json) => boolean }[]> = {
  // POST /sites/search: filters [{key, value}]; keys seen: name, state.
  searchSites: (items: Json[]) =>
    ['state', 'name'].flatMap((key) => {
      const value = items.find((i) => typeof i?.[key] === 'string')?.[key];
      return value === undefined
        ? []
        : [
            {
              what: `${key} = ${value}`,
              body: { filters: [{ key, value }] },
              matches: (i: Json) => i?.[key] === value || String(i?.[key] ?? '').includes(value),
            },
          ];
    }),
};

async function filterSemantics(op: Operation) {
  const paged = op.parameters.some((p) => p.name === 'per_page') || jsonBody(op)?.schema?.properties?.per_page;
  if (!isRead(op) || !paged) return;
  if (needsWrites(op) && !allowWrites) return skip('filter_semantics', op, READ_ONLY_REASON);
  const t0 = Date.now();
  const body = jsonBody(op) ? {} : undefined;
  const problems = (await pagingProblems(op, { body })).map((p) => `paging: ${p}`);
  const all = problems.length ? [] : await walk(op, { body });
  for (const filter of FILTERS[op.operationId]?.(all) ?? []) {
    const got = await walk(op, { body: { ...body, ...filter.body } });
    const wrong = got.filter((i) => !filter.matches(i));
    const expected = all.filter(filter.matches).length;
    if (wrong.length) problems.push(`filter ${filter.what}: ${wrong.length} of ${got.length} items do not match`);
    else if (got.length !== expected)
      problems.push(
        `filter ${filter.what}: ${got.length} items, but ${expected} of the unfiltered ${all.length} match`,
      );
  }
  const failures = problems.map((message) => ({ check: 'filter_semantics', message }));
  record('filter_semantics', op, `filter_semantics ${op.operationId}`, failures.length ? 'fail' : 'pass', {
    ms: Date.now() - t0,
    ...(failures.length
      ? {
          failures,
          errors: problems,
          request: requestOf(op, { query: body ? {} : pageQuery(op, 2, 1), body: body && { per_page: 2, page: 1 } }),
        }
      : {}),
  });
}

// Reads and refusals first, then creates and other writes, deletes last: a run changes state only
// after everything that needs the seeded state has run.
// Among the writes, a git connection first: the seed's transitions need it (connect after a token
// is stored, which the live plan does; the configuration's update and the deploy need a connection).
const FIRST_WRITES = ['connectSiteGitRepository'];
const order = (o: Operation) =>
  isRead(o) ? 0 : o.method === 'delete' ? 2 : FIRST_WRITES.includes(o.operationId) ? 0.5 : 1;
const sorted = [...operations].sort((a, b) => order(a) - order(b));
/** Runs one check of one operation; a request that got no answer fails that check, and the run goes on. */
async function guarded(check: string, op: Operation, run: (op: Operation) => Promise<unknown>) {
  if (!CHECKS.has(check)) return;
  try {
    await run(op);
  } catch (error) {
    const message = `no answer from the target: ${(error as Error).message}`;
    record(check, op, `${check} ${op.operationId}`, 'fail', { failures: [{ check, message }], errors: [message] });
  }
}
// ---- the checks derived from the spec's behaviour statements (src/checks/) ------------------
const statementContext: CheckContext = {
  model,
  live,
  allowWrites,
  authUrl,
  client: { id: process.env.CONTRACT_CLIENT_ID, secret: process.env.CONTRACT_CLIENT_SECRET },
  request: (op: Operation, options?: RequestParts) => requestOf(op, options),
  // Live: the path parameters of what the run made (the resources \`check\` created for the fuzz
  // phase's writes), so that a write and the read of its effect address the same resource.
  writePath: live && writeParams ? writeParams : undefined,
  send,
  reset,
};
const statementCases: (Partial<PhaseResult> & { outcome: string; statementPointer?: string })[] = [];
/** Runs one statement check on one operation: a case per statement, named by its source. */
async function statementCheck(check: StatementCheck, op: Operation) {
  if (!CHECKS.has(check.name)) return;
  const t0 = Date.now();
  let cases: Case[];
  try {
    cases = await check.run(statementContext, op);
  } catch (error) {
    const message = `no answer from the target: ${(error as Error).message}`;
    return record(check.name, op, `${check.name} ${op.operationId}`, 'fail', {
      failures: [{ check: check.name, message }],
      errors: [message],
    });
  } finally {
    await reset();
  }
  const ms = Date.now() - t0;
  for (const c of cases) {
    const failures =
      c.outcome === 'fail'
        ? [{ check: check.name, message: c.message as string, statement: c.statement.source }]
        : undefined;
    const one = {
      ms,
      statement: c.statement.source,
      statementPointer: c.statement.pointer,
      reason: c.reason,
      failures,
      errors: failures?.map((f) => f.message),
      request: c.request,
      expected: c.expected,
      actual: c.actual,
    };
    statementCases.push({ ...one, outcome: c.outcome });
    record(check.name, op, `${check.name} ${op.operationId} (${c.statement.source})`, c.outcome, one);
  }
}

for (const op of sorted) {
  await reset();
  // A write's statement checks first: its stated effect is read on the state the run prepared,
  // before generated input changes it (a repository connected with a generated URL).
  if (!isRead(op)) for (const check of STATEMENT_CHECKS) await statementCheck(check, op);
  await reset();
  await guarded('ignored_auth', op, ignoredAuth);
  await guarded('filter_semantics', op, filterSemantics);
  if (!needsWrites(op) || allowWrites) await guarded('negative_data_rejection', op, negativeDataRejection);
  else skip('negative_data_rejection', op, READ_ONLY_REASON);
  await guarded('ensure_resource_availability', op, ensureResourceAvailability);
  // use_after_delete before positive_data_acceptance: on a live target each deletes the one
  // resource the run created, and the check that comes second finds it gone.
  await guarded('use_after_delete', op, useAfterDelete);
  await guarded('positive_data_acceptance', op, positiveDataAcceptance);
  await reset();
  if (isRead(op) && (allowWrites || !needsWrites(op)))
    for (const check of STATEMENT_CHECKS) await statementCheck(check, op);
}
// The token operations are served outside /v1 and are not fuzzed; their statements are checked.
for (const op of model.tokenOperations.filter((o) => !only.length || only.includes(o.operationId)))
  for (const check of STATEMENT_CHECKS) await statementCheck(check, op);
await sandbox?.stop();

// Coverage of the behaviour statements of the operations this run checked (and the units).
const checkedIds = new Set([...operations, ...model.tokenOperations].map((o) => o.operationId));
const coverage = statementCoverage(
  model.statements.filter((s) =>
    s.operationId ? checkedIds.has(s.operationId) && (!only.length || only.includes(s.operationId)) : !only.length,
  ),
  statementCases,
);
const by = (o: string) => results.filter((r) => r.outcome === o);
console.log(
  `\nFuzz: ${results.length} cases over ${operations.length} operations (seed ${seed}): ${by('pass').length} passed, ${by('fail').length} failed, ${by('flaky').length} flaky, ${by('skip').length} skipped.`,
);
for (const r of by('fail'))
  console.log(`FAILED ${r.name}${r.input ? ` (input: ${r.input})` : ''}:\n    ${r.errors!.join('\n    ')}`);
for (const r of by('flaky'))
  console.log(
    `FLAKY ${r.name}${r.input ? ` (input: ${r.input})` : ''}: failed, then passed when sent again:\n    ${(
      r.observations as Observation[]
    )
      .map(describeObservation)
      .join('\n    ')}`,
  );
if (quietWaits.count)
  console.log(
    `Quiet waits (queued work the run caused, before a before/after comparison): ${quietWaits.count}, ${(quietWaits.ms / 1000).toFixed(1)} s.`,
  );
console.log(
  `Behaviour statements exercised: ${coverage.exercised} of ${coverage.statements} (${coverage.percent}%; ${Object.entries(
    coverage.byKind,
  )
    .map(([kind, k]) => `${kind} ${k.exercised}/${k.statements}`)
    .join(', ')}); silent, queued and read-effect (terminated, issued) statements are not counted.`,
);
console.log(`Took ${((Date.now() - started) / 1000).toFixed(1)} s.`);
if (values.results) {
  mkdirSync(dirname(resolve(values.results)), { recursive: true });
  writeFileSync(
    values.results,
    JSON.stringify(
      {
        mode: live ? 'live' : 'sandbox',
        seed,
        coverage: { statements: coverage, responses: { exercised: [...exercised].sort() } },
        results,
      },
      null,
      1,
    ),
  );
}
process.exit(by('fail').length ? 1 : 0);
