// The shape of a generated method and the glue between it, orval's function and the client core.
import { CALL } from './mutator';

/** Per-call options; each overrides the client's setting for this call only. */
export interface CallOptions {
  /** Milliseconds per attempt before the call fails with `TimeoutError`. */
  timeout?: number;
  /** Aborts the call (`RequestAbortedError`). */
  signal?: AbortSignal;
  /** Retries after a connection error, 408, 429 or 5xx. */
  maxRetries?: number;
  /** Check the response against the spec's schema (needs `@hosting-api/schemas`). */
  validate?: boolean;
  /** Resolve to the whole envelope plus the raw `Response` instead of `data`. */
  raw?: boolean;
  /** Extra request headers. */
  headers?: Record<string, string>;
}

/** What the runtime knows about an operation; generated from the spec. */
export interface OperationMeta {
  readonly id: string;
  readonly method: string;
  readonly path: string;
  readonly pathParams: readonly string[];
  readonly hasInput: boolean;
  /** `auth`: served at `authUrl` (the token operations); `api`: at `baseUrl`. */
  readonly base: 'api' | 'auth';
  /** Whether the call sends a bearer token. */
  readonly auth: boolean;
  /** Whether a call the server may have received can be sent again. */
  readonly idempotent: boolean;
  /** Whether the envelope has a `page` block. */
  readonly paginated: boolean;
  /** Query flag that turns pagination on (`GET /sites?paginate=true`). */
  readonly paginateParam?: string;
  readonly bodyOnGet?: boolean;
  readonly bodyRequired?: boolean;
}

/** An envelope with no payload. */
export interface EmptyEnvelope {
  message?: string;
  data?: null;
  errors?: string[] | null;
}

/** The result of a paginated operation: the envelope's `data` and `page`. */
export type Paged<E extends { data?: unknown }> = { data: E['data'] } & Pick<E, 'page' & keyof E>;

/** `raw: true` result: the whole envelope and the `Response` it came in. */
export type WithResponse<E> = E & { response: Response };

/** A generated method: path parameters, then the input object (if any), then call options. */
export interface Operation<A extends unknown[], R, E> {
  (...args: [...A, (CallOptions & { raw?: false })?]): Promise<R>;
  (...args: [...A, CallOptions & { raw: true }]): Promise<WithResponse<E>>;
  readonly meta: OperationMeta;
}

/** What the core returns to the operation wrapper through orval's function. */
export interface CallResult {
  body: unknown;
  response: Response;
}

/** The client core as the generated code sees it. */
export interface ClientContext {
  call(meta: OperationMeta, url: string, init: RequestInit, options: CallOptions): Promise<CallResult>;
}

type OrvalCall = (path: string[], input: unknown, init: RequestInit) => Promise<unknown>;

const isEnvelope = (body: unknown): body is { data: unknown; page?: unknown } =>
  !!body && typeof body === 'object' && 'data' in body;

/** Binds one orval function to a client. */
export function operation<A extends unknown[], R, E>(ctx: ClientContext, meta: OperationMeta, call: OrvalCall): Operation<A, R, E> {
  const n = meta.pathParams.length;
  const fn = async (...args: unknown[]) => {
    const path: string[] = [];
    for (let i = 0; i < n && i < args.length; i++) {
      const value = args[i];
      if (value === undefined || value === null || value === '') {
        throw new TypeError(`${meta.id}: path parameter ${meta.pathParams[i]} is missing`);
      }
      path.push(encodeURIComponent(String(value)));
    }
    const input = meta.hasInput ? args[n] : undefined;
    const options = ((meta.hasInput ? args[n + 1] : args[n]) ?? {}) as CallOptions;
    const init = { [CALL]: { ctx, meta, options } } as RequestInit;
    const { body, response } = (await call(path, input, init)) as CallResult;
    if (options.raw) return { ...(isEnvelope(body) ? body : { data: body }), response };
    if (!isEnvelope(body)) return body;
    return meta.paginated ? { data: body.data, page: body.page } : body.data;
  };
  Object.defineProperty(fn, 'meta', { value: meta, enumerable: true });
  Object.defineProperty(fn, 'name', { value: meta.id });
  return fn as unknown as Operation<A, R, E>;
}

/** Splits a merged input object into its query part and its body part. */
export function splitInput(input: unknown, queryKeys: readonly string[]): [Record<string, unknown> | undefined, Record<string, unknown> | undefined] {
  if (!input || typeof input !== 'object') return [undefined, undefined];
  const query: Record<string, unknown> = {};
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) (queryKeys.includes(key) ? query : body)[key] = value;
  return [Object.keys(query).length ? query : undefined, Object.keys(body).length ? body : undefined];
}
