// The examples phase's configuration, as run.ts sets it in the environment of Dredd's hooks (see
// README): the target, what the run may send, the target data file, the checks that run.
import { readFileSync } from 'node:fs';
import { checksFromEnv } from './checks';
import { cappedFetch } from './http-cap';
import type { FetchInit, Json, OperationInfo } from './types';

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

/** A URL that ends in `/`, so that a relative path resolves under it. */
const withSlash = (u: URL) => new URL(u.href.endsWith('/') ? u.href : `${u.href}/`);

// Auth probes (live targets, the sandbox included): every 401 transaction that runs is repeated
// with a garbage token, a malformed Authorization header (another scheme with the run's valid
// token; `Bearer` with no token) and a token the gate revoked itself; each must get the documented
// 401. Against the mock there are no real tokens to tell apart; CONTRACT_AUTH_PROBES=0 turns the
// probes off for another stand-in that accepts any token.
const PROBES = MODE === 'live' && env.CONTRACT_AUTH_PROBES !== '0' && CHECKS.has('ignored_auth');
// Live targets without a reset in the target data: live-plan.ts finds existing ids, creates what
// the writes go to, orders the transactions, cleans up and diffs the state (see its header).
const PLANNED = MODE === 'live' && !data.reset && env.CONTRACT_PLAN !== '0';

export {
  ALLOW_WRITES,
  AUTH_URL,
  BASE_URL,
  CHECKS,
  data,
  EXCLUDE,
  MAX_RESPONSE_TIME,
  MODE,
  ONLY,
  PLANNED,
  PROBES,
  REQUEST_TIMEOUT,
  request,
  SKIPS,
  scopeOverride,
  withSlash,
};
