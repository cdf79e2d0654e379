// Exit statuses, one per class of failure, and the one-line (plus the API's `errors`) report.
import { ConnectionError, HostingApiError, operationMeta, TargetError } from '@hosting-api/client';
import { CredentialsError } from './session';
import { UsageError } from './values';

export const EXIT = {
  ok: 0,
  /** Anything not classed below (a bug, an answer the CLI cannot read). */
  failure: 1,
  /** The command line is wrong: unknown command or flag, a value the spec does not allow. */
  usage: 2,
  /** 401 or 403, credentials the token service refuses, or none. */
  auth: 4,
  notFound: 5,
  /** Any other 4xx. */
  client: 6,
  /** 5xx. */
  server: 7,
  /** No answer: refused, reset, DNS, timed out. */
  network: 8,
  /** `--wait` gave up: the state did not change within `--timeout`. */
  waitTimeout: 9,
} as const;

/** `--wait` ran out of time. */
export class WaitTimeoutError extends Error {
  override name = 'WaitTimeoutError';
}

export function exitCode(error: unknown): number {
  if (error instanceof UsageError || error instanceof TargetError) return EXIT.usage;
  if (error instanceof CredentialsError) return EXIT.auth;
  if (error instanceof WaitTimeoutError) return EXIT.waitTimeout;
  if (error instanceof ConnectionError) return EXIT.network;
  if (error instanceof HostingApiError && error.status !== undefined) {
    const s = error.status;
    if (s === 401 || s === 403) return EXIT.auth;
    // The token service refusing the credentials (its 400 `Invalid client credentials.`) is an auth failure too.
    const meta = error.operationId ? operationMeta[error.operationId as keyof typeof operationMeta] : undefined;
    if (meta?.base === 'auth' && s >= 400 && s < 500) return EXIT.auth;
    if (s === 404) return EXIT.notFound;
    if (s >= 400 && s < 500) return EXIT.client;
    if (s >= 500) return EXIT.server;
  }
  return EXIT.failure;
}

/** `error: <message>` and, for an API error, one `  - <line>` per entry of its `errors`. Never a stack. */
export function describe(error: unknown): string {
  if (error instanceof HostingApiError) {
    const status = error.status === undefined ? '' : ` (HTTP ${error.status})`;
    const lines = [`error: ${error.message}${status}`];
    for (const line of error.errors ?? []) lines.push(`  - ${line}`);
    return lines.join('\n');
  }
  return `error: ${error instanceof Error ? error.message : String(error)}`;
}
