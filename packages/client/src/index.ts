// Public entry of @hosting-api/client.

import { type HostingApiOperations, meta } from './generated/client';
import { ClientCredentials, fixedToken, providedToken, type TokenProvider, type TokenSource } from './runtime/auth';
import { Core, type Logger, lowerCaseKeys } from './runtime/core';
import { createOperations, expandTable } from './runtime/operation';
import { type PaginatedOperation, type PaginateOptions, paginate } from './runtime/pagination';
import { DEFAULT_RETRY, type RetryOptions } from './runtime/retry';
import { resolveTarget, TargetError } from './runtime/target';
import type { FetchLike } from './runtime/transport';
import type { SchemaSource } from './runtime/validate';

/** What the runtime knows about each operation (method, path, parameters, auth, idempotency, pagination), by operationId. */
export const operationMeta = expandTable(meta);

export interface ClientOptions {
  /** The versioned API base, ending in `/v1` (e.g. `https://api.example.com/v1`). Default: `HOSTING_API_BASE_URL`. */
  baseUrl?: string;
  /** Root of the token service (`/auth/token`, `/auth/revoke`). Default: `HOSTING_API_AUTH_URL`, else `baseUrl` without `/v1`. */
  authUrl?: string;
  /** Client-credentials application id. */
  clientId?: string;
  /** Client-credentials application secret. Never logged nor shown in errors. */
  clientSecret?: string;
  /** A fixed bearer token, or a function that returns one, instead of client credentials. */
  accessToken?: string | TokenProvider;
  /** Milliseconds per attempt. Default 60000. `0` or `Infinity`: no timeout (fetch then gets no signal of the client's). */
  timeout?: number;
  /** Largest answer body read, in bytes (default 32 MiB): a longer answer stops there and fails with a ConnectionError. */
  maxResponseBytes?: number;
  /** Retries after a connection error, 408, 429 or 5xx. Default 2. */
  maxRetries?: number;
  /** Backoff tuning. */
  retry?: RetryOptions;
  /** Validate every response with `@hosting-api/schemas`. Default false. */
  validate?: boolean;
  /** Schemas to validate with, keyed by operationId (default: loaded from `@hosting-api/schemas`). */
  schemas?: SchemaSource;
  /** Receives one line per request, retry and failure; never the token or secret. */
  logger?: Logger;
  /** A `fetch` to use instead of the global one. It sends every request, the GETs that carry a body (PHP and server logs) included. */
  fetch?: FetchLike;
  /** Headers sent with every request (names are case-insensitive). An `Authorization` header here replaces the client's bearer token. */
  headers?: Record<string, string>;
}

export type HostingApiClient = HostingApiOperations & {
  /** Iterates over the items of all pages of a paginated method. */
  paginate<A extends unknown[], I>(
    method: PaginatedOperation<A, I>,
    ...args: [...A, PaginateOptions?]
  ): AsyncGenerator<I, void, undefined>;
  /** Revokes the current client-credentials token (`POST {authUrl}/auth/revoke`). */
  revoke(): Promise<void>;
};

const env = (name: string): string | undefined =>
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name] || undefined;

export function createClient(options: ClientOptions = {}): HostingApiClient {
  const baseUrl = (options.baseUrl ?? env('HOSTING_API_BASE_URL'))?.replace(/\/+$/, '');
  if (!baseUrl)
    throw new Error(
      'createClient: baseUrl is required (the versioned API base ending in /v1), or set HOSTING_API_BASE_URL',
    );
  let authUrl: string;
  try {
    ({ authUrl } = resolveTarget(
      { baseUrl, authUrl: options.authUrl ?? env('HOSTING_API_AUTH_URL') },
      { baseUrl: 'baseUrl', authUrl: 'authUrl' },
    ));
  } catch (error) {
    throw new TargetError(`createClient: ${(error as Error).message}`);
  }
  // The global fetch (also when passed explicitly) cannot send a GET with a body; the client sends those itself.
  const customFetch = options.fetch !== undefined && options.fetch !== globalThis.fetch;
  const fetchImpl = customFetch
    ? options.fetch
    : globalThis.fetch
      ? (url: string, init: RequestInit) => globalThis.fetch(url, init)
      : undefined;
  if (!fetchImpl) throw new Error('createClient: no global fetch (Node 18+ has one); pass `fetch`');

  const core = new Core({
    baseUrl,
    authUrl,
    fetch: fetchImpl,
    customFetch,
    timeout: options.timeout ?? 60_000,
    maxResponseBytes: options.maxResponseBytes ?? 32 * 1024 * 1024,
    maxRetries: options.maxRetries ?? 2,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    validate: options.validate ?? false,
    schemas: options.schemas,
    logger: options.logger,
    headers: lowerCaseKeys(options.headers ?? {}),
  });

  const clientId = options.clientId ?? env('HOSTING_API_CLIENT_ID');
  const clientSecret = options.clientSecret ?? env('HOSTING_API_CLIENT_SECRET');
  let tokens: TokenSource | undefined;
  if (options.accessToken !== undefined) {
    tokens =
      typeof options.accessToken === 'function' ? providedToken(options.accessToken) : fixedToken(options.accessToken);
  } else if (clientId && clientSecret) {
    tokens = new ClientCredentials({
      clientId,
      clientSecret,
      authUrl,
      post: async (url, form, operationId) =>
        (
          await core.send({
            method: 'POST',
            url,
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: form,
            auth: false,
            idempotent: true, // a token request has no side effect worth guarding
            operationId,
          })
        ).body,
    });
  } else if (clientId || clientSecret) {
    throw new Error('createClient: clientId and clientSecret go together; pass both (or accessToken)');
  }
  core.tokens = tokens;

  const describe = `HostingApiClient { baseUrl: ${JSON.stringify(baseUrl)}, authUrl: ${JSON.stringify(authUrl)} }`;
  const client = Object.assign(createOperations<HostingApiOperations>(core, operationMeta), {
    paginate,
    revoke: () => (tokens ? tokens.revoke() : Promise.resolve()),
  });
  // Keep the core (and the credentials behind it) out of logs and inspection.
  Object.defineProperties(client, {
    toString: { value: () => describe },
    toJSON: { value: () => ({ baseUrl, authUrl }) },
    [Symbol.for('nodejs.util.inspect.custom')]: { value: () => describe },
  });
  return client as HostingApiClient;
}

export type { components, operations } from '@hosting-api/openapi/types';
export type * from './generated/client';
export * from './runtime/errors';
export type { CallOptions, Operation, OperationMeta, Paged, WithResponse } from './runtime/operation';
export { resolveTarget, type Target, TargetError } from './runtime/target';
export type { OperationSchemas, SchemaLike } from './runtime/validate';
export {
  createWebhookReceiver,
  type ReceivedWebhook,
  WebhookDeliveryError,
  type WebhookDeliveryInput,
  type WebhookReceiver,
  type WebhookReceiverOptions,
  type WebhookSchemaSource,
  webhookSchemaName,
} from './webhooks';
export type { FetchLike, Logger, PaginatedOperation, PaginateOptions, RetryOptions, SchemaSource, TokenProvider };
export { paginate };
