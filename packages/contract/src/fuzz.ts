#!/usr/bin/env node

// The gate's generated-input phase: seeded fast-check inputs for every operation, checked by the
// fuzz checks of checks.ts (negative_data_rejection, positive_data_acceptance, use_after_delete,
// ensure_resource_availability, filter_semantics, ignored_auth, max_response_time), by the
// statement checks of checks/ and by the response checks (status, Content-Type, headers, 3.1
// schema) on every answer. Started by main.ts (built to dist/fuzz.js).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadModel } from '@hosting-api/openapi/model';
import { createApi } from './api';
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
import { describeObservation, type Observation } from './flaky';
import { createFuzzChecks } from './fuzz-checks';
import { createResults } from './fuzz-results';
import { cappedFetch } from './http-cap';
import { createObserver, openLedger, rememberSetting } from './ledger';
import { guardOutput, shown } from './redact';
import { isRead, needsWrites, READ_ONLY_REASON } from './safety';
import { createChecker, exercisedResponse } from './spec-check';
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
import { createWaits } from './waits';

// Nothing a target sent is printed verbatim: tokens redacted, long lines cut (redact.ts).
guardOutput();

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
const byPath = new Map(model.operations.map((o) => [`${o.method} ${o.path}`, o]));
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
  const readText = async () => (await send(requestOf(read))).text;
  const t0 = Date.now();
  let last = await readText();
  let since = Date.now();
  while (Date.now() - since < QUIET_MS && Date.now() - t0 < QUIET_BUDGET_MS) {
    await new Promise((done) => setTimeout(done, QUIET_MS / 5));
    const now = await readText();
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
  const t0 = performance.now();
  const res = await cappedFetch(
    req.url,
    { method: req.method, headers: req.headers, body: req.body },
    { deadline: REQUEST_TIMEOUT_MS },
  );
  // A refused write (4xx) queued nothing: only an accepted one makes the next comparison wait.
  if (queuedRequests.has(req) && (res.statusCode < 400 || res.statusCode >= 500)) queuedAt = Date.now();
  if (live) observe(req.method, new URL(req.url).pathname.slice(basePath.length), res.statusCode, req.body, res.body);
  let json: Json;
  try {
    json = JSON.parse(res.body);
  } catch {}
  return { status: res.statusCode, headers: res.headers, text: res.body, json, ms: Math.round(performance.now() - t0) };
}

// Live runs: the ledger (ledger.ts) records what every answer says the run created or deleted, and
// a setting that exists once (the account's defaults, an add-on's quantity) is put back after the
// operation's checks.
const ledger = openLedger();
const observer = createObserver(model.operations, ledger);
const basePath = new URL(baseUrl).pathname.replace(/\/$/, '');
const observe = (method: string, path: string, status: number, sent: string | undefined, answer: string) =>
  observer(method, path, status, sent, answer, 'fuzz');
const api = createApi({ baseUrl, token: () => token, timeout: REQUEST_TIMEOUT_MS, observe });

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

// ---- results (fuzz-results.ts) and the checks (fuzz-checks.ts) -----------------------------
const resultsOf = createResults({ seed, numRuns, token: () => token, CHECKS, requestOf });
const { results, record, skip } = resultsOf;
const {
  negativeDataRejection,
  positiveDataAcceptance,
  ignoredAuth,
  ensureResourceAvailability,
  useAfterDelete,
  filterSemantics,
} = createFuzzChecks({
  byPath,
  CHECKS,
  live,
  allowWrites,
  writeParams,
  send,
  requestOf,
  responseFailures,
  reset,
  quiet,
  results: resultsOf,
});

// ---- the operations ------------------------------------------------------------------------
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
// State waits: the gate's own sandbox, or a target with control routes (CONTRACT_CONTROL_URL), has
// its clock moved on; any other live target is polled within the budget.
const control = process.env.CONTRACT_CONTROL_URL?.replace(/\/$/, '');
const { waits, waitFor } = createWaits({
  budgetMs: Number(process.env.CONTRACT_WAIT_BUDGET) || 180_000,
  advance: sandbox
    ? async () => sandbox!.advance(30_000)
    : control
      ? () =>
          cappedFetch(
            `${control}/__sandbox/clock`,
            {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify({ advance: '30s' }),
            },
            { deadline: REQUEST_TIMEOUT_MS },
          )
      : undefined,
});
const statementContext: CheckContext = {
  wait: async (what, probe) => Boolean(await waitFor(what, probe)),
  model,
  live,
  allowWrites,
  authUrl,
  client: { id: process.env.CONTRACT_CLIENT_ID, secret: process.env.CONTRACT_CLIENT_SECRET },
  request: (op: Operation, options?: RequestParts) => ({ ...requestOf(op, options), operationId: op.operationId }),
  // Live: the path parameters of what the run made (the resources \`check\` created for the fuzz
  // phase's writes), so that a write and the read of its effect address the same resource.
  writePath: live && writeParams ? writeParams : undefined,
  // Every answer a statement check gets is checked against the spec too (and counts as exercised).
  async send(req: Req) {
    const res = await send(req);
    const op = req.operationId === undefined ? undefined : model.operation(req.operationId);
    const failures = op ? responseFailures(op, res) : [];
    if (op && failures.length)
      record(
        failures[0]!.check,
        op,
        `${failures[0]!.check} ${op.operationId} (an answer to a statement check)`,
        'fail',
        {
          failures,
          errors: failures.map((f) => f.message),
          request: req,
        },
      );
    return res;
  },
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
      c.outcome === 'fail' || c.outcome === 'flaky'
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
      observations: c.observations as Observation[] | undefined,
    };
    statementCases.push({ ...one, outcome: c.outcome });
    record(check.name, op, `${check.name} ${op.operationId} (${c.statement.source})`, c.outcome, one);
  }
}

for (const op of sorted) {
  const putBack = live && allowWrites ? await rememberSetting(op, api, ledger, 'fuzz') : undefined;
  await fuzzOperation(op);
  const problem = await putBack?.();
  if (problem)
    record('state_unchanged', op, `state_unchanged ${op.operationId} (put back)`, 'fail', {
      failures: [{ check: 'state_unchanged', message: problem }],
      errors: [problem],
    });
}
/** Every check of one operation. */
async function fuzzOperation(op: Operation) {
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
console.log(
  `Behaviour statements exercised: ${coverage.exercised} of ${coverage.statements} (${coverage.percent}%; ${Object.entries(
    coverage.byKind,
  )
    .map(([kind, k]) => `${kind} ${k.exercised}/${k.statements}`)
    .join(', ')}); silent, queued and read-effect (terminated, issued) statements are not counted.`,
);
if (waits.count)
  console.log(
    `State waits: ${waits.count}, ${(waits.ms / 1000).toFixed(1)} s of a budget of ${(waits.budgetMs / 1000).toFixed(0)} s (CONTRACT_WAIT_BUDGET)${waits.timedOut.length ? `; out of budget: ${waits.timedOut.join(', ')}` : ''}.`,
  );
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
console.log(`Took ${((Date.now() - started) / 1000).toFixed(1)} s.`);
if (values.results) {
  mkdirSync(dirname(resolve(values.results)), { recursive: true });
  writeFileSync(
    values.results,
    JSON.stringify(
      shown({
        mode: live ? 'live' : 'sandbox',
        seed,
        coverage: { statements: coverage, responses: { exercised: [...exercised].sort() } },
        results,
      }),
      null,
      1,
    ),
  );
}
process.exit(by('fail').length ? 1 : 0);
