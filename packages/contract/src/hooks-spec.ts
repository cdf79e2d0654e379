// The examples phase's spec and session: the spec model and its checks (spec-check.ts), loaded
// before the first transaction; the run's token; what the hooks learn as the run goes (the revoked
// token of the auth probes, the live plan); and the requests the hooks send of their own.

import { AUTH_URL, data, request, withSlash } from './hooks-config';
import type { createHooksPlan } from './hooks-plan';
import type { Transaction } from './hooks-types';
import type { createPlan } from './live-plan';
import { createChecker } from './spec-check';
import type { Operation, OperationInfo, SpecModel } from './types';

type Checker = Awaited<ReturnType<typeof createChecker>>;
const env = process.env;

// ---- the spec: its model (@hosting-api/openapi/model) and the checks of spec-check.ts --
// Loaded before the first transaction (beforeAll, loadSpec()); the token operations (served at the
// auth URL, outside /v1) and their paths come from the model, not from a list kept here.
export let operations: Checker['operations'];
export let firstExample: Checker['firstExample'];
export let checkResponse: Checker['checkResponse'];
export let header: Checker['header'];
export let TOKEN_OPERATIONS: Set<string>;
/** The token operation that issues tokens (client-credentials grant), from the model. */
export let tokenOp: Operation;
/** The one that revokes a token, from the model. */
export let revokeOp: Operation;
export let credentials: Record<string, string>;
export let specModel: SpecModel;
let checker: Checker;
let requestToken: typeof import('./cli').obtainToken; // cli.ts obtainToken

export async function loadSpec() {
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

/** The operation of a transaction, by its method and path. */
export function lookup(transaction: Transaction) {
  return operations.get(`${transaction.request.method} ${transaction.origin.resourceName}`);
}

/** A transaction's name in results and target data: `<operationId> <status>`. */
export function keyOf(info: OperationInfo, status: string) {
  return `${info.op.operationId} ${status}`;
}

// ---- the session: what the hooks learn as the run goes --------------------------------------
export const session = {
  /** The run's token, renewed when it gets old (hooks.ts beforeEach); `tokenError` why there is none. */
  token: undefined as string | undefined,
  tokenAt: Date.now(),
  tokenError: undefined as string | undefined,
  /** A token the gate revoked itself, for the auth probes (or why there is none). */
  revoked: undefined as string | undefined,
  revokedError: undefined as string | undefined,
  /** Live targets: the plan (live-plan.ts) and its hooks (hooks-plan.ts), made in beforeAll. */
  plan: undefined as ReturnType<typeof createPlan> | undefined,
  planHooks: undefined as ReturnType<typeof createHooksPlan> | undefined,
};

// ---- tokens and the hooks' own requests -------------------------------------------------------
const authUrl = (o: Operation) => new URL(o.path.replace(/^\//, ''), withSlash(AUTH_URL));

/** A token for `client` (default: the run's credentials), its response checked against the spec. */
export const obtainToken = (client: Record<string, string> = credentials) =>
  requestToken(AUTH_URL, tokenOp, { checker, client });

/** Revokes a token at the target's revoke operation (POST /auth/revoke), with the run's client credentials. */
export async function revokeToken(value: string) {
  const url = authUrl(revokeOp);
  const res = await request(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams({ token: value, ...credentials }),
  });
  if (res.statusCode !== 200) throw new Error(`POST ${url} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
}

/** A request of the target data's (a reset, a set-up step), with the run's token when `authorised`; a 4xx or 5xx throws. */
export async function send(method: string, url: URL, body?: unknown, authorised = false) {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (authorised && session.token) headers.Authorization = `Bearer ${session.token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await request(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.statusCode >= 400)
    throw new Error(`${method} ${url.pathname} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
}

/** The target data's `reset` (e.g. "POST /__sandbox/reset", at the auth URL) as send()'s method and URL. */
export function resetRequest(): [string, URL] {
  const [method, path] = data.reset.includes(' ') ? data.reset.split(' ') : ['POST', data.reset];
  return [method, new URL(path.replace(/^\//, ''), withSlash(AUTH_URL))];
}
