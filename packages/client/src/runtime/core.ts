// The request pipeline of one client: URL, bearer token, timeout, retries, error mapping,
// validation and logging.
import { readText } from '@hosting-api/openapi/http/web';
import type { TokenSource } from './auth';
import {
  ConnectionError,
  errorForStatus,
  HostingApiError,
  RequestAbortedError,
  ResponseValidationError,
  TimeoutError,
} from './errors';
import {
  type CallOptions,
  type CallResult,
  type ClientContext,
  isEnvelope,
  type OperationMeta,
  type OperationRequest,
} from './operation';
import { isRetryableStatus, type RetryOptions, retryDelay, sleep } from './retry';
import { describeTransportError, type FetchLike, failedBeforeSending, send } from './transport';
import { loadDefaultSchemas, type OperationSchemas, type SchemaSource, validateResponse } from './validate';

type LogFn = (message: string, fields?: Record<string, unknown>) => void;
/** Any object with some of `debug`, `info`, `warn`, `error` (`console` works). */
export type Logger = Partial<Record<'debug' | 'info' | 'warn' | 'error', LogFn>>;

export interface CoreConfig {
  baseUrl: string;
  authUrl: string;
  fetch: FetchLike;
  /** The caller passed its own `fetch`: it also sends the GETs that carry a body. */
  customFetch: boolean;
  timeout: number;
  /** Largest answer body read, in bytes; past it the request fails with a ConnectionError. */
  maxResponseBytes: number;
  maxRetries: number;
  retry: Required<RetryOptions>;
  validate: boolean;
  schemas?: SchemaSource;
  logger?: Logger;
  /** Sent with every request; names in lower case. */
  headers: Record<string, string>;
}

export interface SendRequest {
  method: string;
  url: string;
  /** Names in lower case. */
  headers?: Record<string, string>;
  body?: string | URLSearchParams;
  auth: boolean;
  idempotent: boolean;
  operationId?: string;
}

/** Longest delay setTimeout takes (about 24.8 days); a timeout from here up means none. */
const MAX_TIMER = 2 ** 31 - 1;

const ms = (start: number) => Math.round(performance.now() - start);

/** A copy of `headers` with lower-case names, so that one name is sent once. */
export function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) out[name.toLowerCase()] = headers[name]!;
  return out;
}

export class Core implements ClientContext {
  readonly config: CoreConfig;
  tokens: TokenSource | undefined;
  #schemas: Promise<OperationSchemas> | undefined;

  constructor(config: CoreConfig) {
    this.config = config;
  }

  /** Entry point of every generated operation. */
  call(meta: OperationMeta, request: OperationRequest, options: CallOptions): Promise<CallResult> {
    const url = (meta.base === 'auth' ? this.config.authUrl : this.config.baseUrl) + request.path;
    let headers: Record<string, string> | undefined;
    if (request.contentType !== undefined) headers = { 'content-type': request.contentType };
    if (options.headers !== undefined) headers = { ...headers, ...lowerCaseKeys(options.headers) };
    const req = {
      method: meta.method,
      url,
      headers,
      body: request.body,
      auth: meta.auth,
      idempotent: meta.idempotent,
      operationId: meta.id,
    };
    // Every operation but the downloads and the revocation answers the JSON envelope: anything else
    // (an HTML page behind a wrong baseUrl, a proxy's error page, broken JSON) is an error, not the result.
    const sent = this.send(req, options).then((result) => {
      const { body, response } = result;
      if (meta.noEnvelope || isEnvelope(body)) return result;
      const type = response.headers.get('content-type') || 'no Content-Type';
      throw new ResponseValidationError(
        `${meta.id}: ${meta.method} ${url} answered ${response.status} with ${type}, not the API's JSON envelope (check baseUrl and authUrl)`,
        {
          request: { method: meta.method, url },
          operationId: meta.id,
          response,
          status: response.status,
          body,
          issues: [],
        },
      );
    });
    if (!(options.validate ?? this.config.validate)) return sent;
    return sent.then(async (result) => {
      validateResponse(await this.#loadSchemas(), meta.id, result.response.status, result.body, {
        request: { method: meta.method, url },
        operationId: meta.id,
        response: result.response,
      });
      return result;
    });
  }

  /** Sends a request with retries; resolves to the parsed body of a 2xx response, throws otherwise. */
  async send(req: SendRequest, options: CallOptions = {}): Promise<CallResult> {
    const maxRetries = options.maxRetries ?? this.config.maxRetries;
    const timeout = options.timeout ?? this.config.timeout;
    const log = this.config.logger;
    let refreshedAfter401 = false;
    let freshToken: string | undefined;

    // The caller's own Authorization header (per call or in the client's `headers`) wins: the
    // client then neither gets nor sends a token of its own.
    const useToken =
      req.auth && !(req.headers && 'authorization' in req.headers) && !('authorization' in this.config.headers);
    for (let attempt = 0; ; attempt++) {
      if (options.signal?.aborted) throw aborted(req, options.signal);
      const headers: Record<string, string> = { accept: 'application/json', ...this.config.headers, ...req.headers };
      let token: string | undefined;
      if (useToken) {
        if (!this.tokens)
          throw new Error(
            'this client has no credentials: pass clientId and clientSecret, or accessToken, to createClient()',
          );
        // A token at hand (fixed, or cached and fresh) is used without a trip through the event loop.
        token = freshToken ?? this.tokens.current?.() ?? (await this.tokens.get());
        freshToken = undefined;
        headers.authorization = `Bearer ${token}`;
      }

      // Timings are only for the log lines; without a logger nothing is measured.
      const started = log ? performance.now() : 0;
      log?.debug?.(`→ ${req.method} ${req.url}`, { method: req.method, url: req.url, attempt });
      let outcome: { response: Response; body: unknown } | HostingApiError;
      try {
        outcome = await this.#attempt(req, headers, timeout, options.signal);
      } catch (err) {
        if (err instanceof HostingApiError) outcome = err;
        else throw err;
      }

      if (outcome instanceof HostingApiError) {
        const error = outcome;
        const elapsed = ms(started);
        if (error instanceof RequestAbortedError) throw error;
        const canRetry =
          attempt < maxRetries &&
          (req.idempotent || (!(error instanceof TimeoutError) && failedBeforeSending(error.cause)));
        if (!canRetry) {
          log?.error?.(`✗ ${req.method} ${req.url} ${error.name}: ${error.message} (${elapsed} ms)`, {
            method: req.method,
            url: req.url,
            error: error.name,
            durationMs: elapsed,
          });
          throw error;
        }
        const delay = retryDelay(attempt, undefined, this.config.retry);
        log?.warn?.(`↻ ${req.method} ${req.url} ${error.name}; retry ${attempt + 1}/${maxRetries} in ${delay} ms`, {
          method: req.method,
          url: req.url,
          attempt: attempt + 1,
          delayMs: delay,
        });
        await this.#wait(delay, req, options.signal);
        continue;
      }

      const { response, body } = outcome;
      if (log?.info) {
        const elapsed = ms(started);
        log.info(`← ${req.method} ${req.url} ${response.status} (${elapsed} ms)`, {
          method: req.method,
          url: req.url,
          status: response.status,
          durationMs: elapsed,
        });
      }
      if (response.ok) return { body, response };

      if (response.status === 401 && token !== undefined && !refreshedAfter401 && this.tokens) {
        // One fresh token and one more try; this does not count against maxRetries.
        refreshedAfter401 = true;
        const fresh = await this.tokens.refresh(token);
        if (fresh !== undefined) {
          freshToken = fresh;
          log?.warn?.(`↻ ${req.method} ${req.url} 401; retrying once with a new token`, {
            method: req.method,
            url: req.url,
          });
          attempt--;
          continue;
        }
      }

      const error = errorForStatus(response.status, body, {
        response,
        request: { method: req.method, url: req.url },
        operationId: req.operationId,
      });
      if (attempt < maxRetries && req.idempotent && isRetryableStatus(response.status)) {
        const delay = retryDelay(attempt, response.headers, this.config.retry);
        log?.warn?.(
          `↻ ${req.method} ${req.url} ${response.status}; retry ${attempt + 1}/${maxRetries} in ${delay} ms`,
          { method: req.method, url: req.url, status: response.status, attempt: attempt + 1, delayMs: delay },
        );
        await this.#wait(delay, req, options.signal);
        continue;
      }
      log?.error?.(`✗ ${req.method} ${req.url} ${response.status} ${error.message}`, {
        method: req.method,
        url: req.url,
        status: response.status,
      });
      throw error;
    }
  }

  /** One try: send, read the whole body, parse JSON. Transport failures become ConnectionError/TimeoutError. */
  async #attempt(req: SendRequest, headers: Record<string, string>, timeout: number, signal: AbortSignal | undefined) {
    // With a timeout, the request gets its own controller, aborted by the timer or by the caller's
    // signal; without one (timeout 0 or Infinity), fetch gets the caller's signal, or none at all.
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    let requestSignal = signal;
    if (timeout > 0 && timeout < MAX_TIMER) {
      const controller = new AbortController();
      requestSignal = controller.signal;
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new Error(`timed out after ${timeout} ms`));
      }, timeout);
      if (signal) {
        onAbort = () => controller.abort(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
      }
    }
    try {
      const response = await send(
        {
          method: req.method,
          url: req.url,
          headers,
          body: req.body,
          signal: requestSignal,
          maxBytes: this.config.maxResponseBytes,
          operationId: req.operationId,
        },
        this.config.fetch,
        this.config.customFetch,
      );
      const text = await readText(response, { maxBytes: this.config.maxResponseBytes });
      let body: unknown;
      if (text) {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
      }
      return { response, body };
    } catch (err) {
      // A GET with a body in a browser (get-with-body.browser.ts): a usage error, never retried.
      if ((err as { code?: unknown }).code === 'ERR_GET_WITH_BODY') throw err;
      const request = { method: req.method, url: req.url };
      if (timedOut)
        return new TimeoutError(`${req.method} ${req.url} timed out after ${timeout} ms`, {
          request,
          operationId: req.operationId,
          cause: err,
        });
      if (signal?.aborted) return aborted(req, signal);
      return new ConnectionError(`${req.method} ${req.url} failed: ${describeTransportError(err)}`, {
        request,
        operationId: req.operationId,
        cause: err,
      });
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      if (onAbort) signal!.removeEventListener('abort', onAbort);
    }
  }

  async #wait(delay: number, req: SendRequest, signal: AbortSignal | undefined) {
    try {
      await sleep(delay, signal);
    } catch {
      throw aborted(req, signal);
    }
  }

  #loadSchemas(): Promise<OperationSchemas> {
    const source = this.config.schemas;
    this.#schemas ??= typeof source === 'function' ? source() : source ? Promise.resolve(source) : loadDefaultSchemas();
    this.#schemas.catch(() => (this.#schemas = undefined)); // try again on the next call
    return this.#schemas;
  }
}

function aborted(req: SendRequest, signal: AbortSignal | undefined): RequestAbortedError {
  return new RequestAbortedError(`${req.method} ${req.url} was aborted`, {
    request: { method: req.method, url: req.url },
    operationId: req.operationId,
    cause: signal?.reason,
  });
}
