// The examples phase's checks of each answer (Dredd's beforeEachValidation and afterEach): the
// full OpenAPI 3.1 schema check (spec-check.ts) in place of Dredd's body check, the download check,
// the auth probes of every 401 (a garbage, malformed, other-scheme and revoked token) and of an
// expired token, and the result of each transaction.
import { checkOfProblem } from './checks';
import {
  ALLOW_WRITES,
  AUTH_URL,
  BASE_URL,
  CHECKS,
  data,
  MAX_RESPONSE_TIME,
  MODE,
  PROBES,
  REQUEST_TIMEOUT,
  request,
  withSlash,
} from './hooks-config';
import { downloadProblems, resend } from './hooks-download';
import { requestOf } from './hooks-request';
import {
  checkResponse,
  header,
  lookup,
  obtainToken,
  operations,
  resetRequest,
  send,
  session,
  TOKEN_OPERATIONS,
} from './hooks-spec';
import type { Contract, Transaction } from './hooks-types';
import { MAX_RESPONSE_BYTES } from './http-cap';
import type { ExampleResult, Json, OperationInfo } from './types';

/**
 * Dredd's beforeEachValidation. Dredd's own body check compares the keys of the first example with
 * the response; the full schema check in checkAnswer replaces it (Dredd still checks the status
 * code and Content-Type).
 */
export function beforeValidation(transaction: Transaction) {
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
}

/** The probe that failed last ({authorization, statusCode}): its reproducer sends what the probe sent. */
let failedProbe: { authorization: string; statusCode: number } | undefined;
/** The 401 transaction again with invalid credentials: each must get the documented 401. */
async function authProbes(transaction: Transaction, info: OperationInfo) {
  const base = { ...transaction.request.headers };
  delete base.Authorization;
  const probes: [string, string][] = [
    ['a garbage token', `Bearer garbage-${Math.random().toString(36).slice(2)}`],
    ['a malformed header (Bearer without a token)', 'Bearer'],
    ['a valid token under another scheme', `Basic ${session.token}`],
  ];
  if (session.revoked) probes.push(['a token the gate revoked', `Bearer ${session.revoked}`]);
  const problems: string[] = [];
  if (session.revokedError) problems.push(`auth probe: ${session.revokedError}`);
  for (const [what, authorization] of probes) {
    if (data.reset) await send(...resetRequest());
    const real = await resend(transaction, { ...base, Authorization: authorization });
    const found = checkResponse(info, '401', real);
    for (const p of found) problems.push(`auth probe with ${what}: ${p}`);
    if (found.length && !failedProbe) failedProbe = { authorization, statusCode: real.statusCode };
  }
  return problems;
}

/** Every transaction's result, in the order they ran (hooks.ts writes them to CONTRACT_RESULTS). */
export const results: ExampleResult[] = [];

/**
 * Dredd's afterEach: the answer checked against the spec (schema, status, media type, downloads,
 * an empty list against a target with data, the auth probes of a 401, the response time), the
 * result recorded, and the live plan told what the answer created, changed or deleted.
 */
export async function checkAnswer(transaction: Transaction) {
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
    request: requestOf(transaction, failedProbe, session.token),
    said,
    empty: empty || undefined,
    probed: PROBES && c.status === '401' ? true : undefined,
  });
  // The ledger records what the answer says the run created or deleted; the plan puts back a
  // setting that exists once.
  const { planHooks } = session;
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
  if (c.revokes && c.revokes === session.token) session.token = await obtainToken().catch(() => session.token);
}

/**
 * The target data's `expire` (sandbox: move the clock on past a token's lifetime): a token
 * obtained before it must then get 401 on an authorised read. Runs last, after every transaction.
 */
export async function expiredTokenProbe() {
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
