// The examples phase's requests (Dredd's beforeEach): for each transaction, why it is skipped, or
// its request: the path parameters and body from the spec's examples, the target data or the live
// plan's ids, the token (or none for a 401), `Prefer: code=…` against the mock, and the target
// data's set-up steps.

import {
  ALLOW_WRITES,
  AUTH_URL,
  BASE_URL,
  data,
  EXCLUDE,
  MODE,
  ONLY,
  PLANNED,
  SKIPS,
  scopeOverride,
  withSlash,
} from './hooks-config';
import { buildUri } from './hooks-request';
import {
  credentials,
  firstExample,
  keyOf,
  lookup,
  obtainToken,
  resetRequest,
  revokeOp,
  send,
  session,
  TOKEN_OPERATIONS,
  tokenOp,
} from './hooks-spec';
import type { Done, Override, Transaction } from './hooks-types';
import { needsWrites, READ_ONLY_REASON } from './safety';
import type { Json, OperationInfo } from './types';

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

/**
 * Dredd's beforeEach: names the transaction, skips it with the reason, or builds its request (from
 * the target data, or from the live plan's ids).
 */
export function beforeEach(transaction: Transaction, done: Done) {
  const { plan } = session;
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
    if (!session.token) {
      failWith(transaction, session.tokenError ?? 'no token');
      return done();
    }
    headers.Authorization = `Bearer ${session.token}`;
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
  if (data.reset) await send(...resetRequest());
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

/** Fails a transaction before it is sent; Dredd keeps only `true` in transaction.fail. */
export function failWith(transaction: Transaction, message: string) {
  transaction.fail = message;
  if (transaction.contract) transaction.contract.error = message;
}
