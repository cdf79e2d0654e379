// The generated methods: one generic function per operation, driven by the spec's table
// (generated/client.ts `meta`). It checks the path parameters, builds the URL, the query and the
// body (the openapi-fetch approach: typed calls over openapi-typescript's types, no per-operation code),
// hands the request to the client core and unwraps the envelope.

/** Per-call options; each overrides the client's setting for this call only. */
export interface CallOptions {
  /** Milliseconds per attempt before the call fails with `TimeoutError`; `0` or `Infinity` for none. */
  timeout?: number;
  /** Aborts the call (`RequestAbortedError`). */
  signal?: AbortSignal;
  /** Retries after a connection error, 408, 429 or 5xx. */
  maxRetries?: number;
  /** Check the response against the spec's schema (needs `@hosting-api/schemas`). */
  validate?: boolean;
  /** Resolve to the whole envelope plus the raw `Response` instead of `data`. */
  raw?: boolean;
  /** Extra request headers (names are case-insensitive). An `Authorization` header here replaces the client's bearer token for this call. */
  headers?: Record<string, string>;
}

/** What the runtime knows about an operation; generated from the spec. */
export interface OperationMeta {
  readonly id: string;
  /** The method's name, its `x-client-method` (`sites.notes.list`). */
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly pathParams: readonly string[];
  /** Path parameters the spec types as integers. */
  readonly integers?: readonly string[];
  /** Query parameter names; the rest of the input object is the body. */
  readonly query?: readonly string[];
  /** How the body is sent. */
  readonly body?: 'json' | 'form';
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
  /** Answers without the JSON envelope: a file (an archive, SQL text), or no body at all. */
  readonly noEnvelope?: boolean;
  readonly bodyRequired?: boolean;
}

/** An operation as the generated table holds it: `id` is its key, and `pathParams` are read from `path`. */
export type OperationEntry = Omit<OperationMeta, 'id' | 'pathParams'>;

/** The whole meta of every operation of a generated table. */
export function expandTable<K extends string>(table: Record<K, OperationEntry>): Record<K, OperationMeta> {
  const out = {} as Record<K, OperationMeta>;
  for (const id in table)
    out[id] = { id, pathParams: [...table[id].path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!), ...table[id] };
  return out;
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

/**
 * A generated method: path parameters, then the input object (if any), then call options;
 * `raw: true` resolves to the whole envelope and the `Response`. One call signature, not two
 * overloads, so that an editor shows the method's own JSDoc (from the spec) on hover.
 */
export interface Operation<A extends unknown[], R, E> {
  <Raw extends boolean = false>(
    ...args: [...args: A, options?: CallOptions & { raw?: Raw }]
  ): Promise<Raw extends true ? WithResponse<E> : R>;
  readonly meta: OperationMeta;
}

/** What the core returns for one call. */
export interface CallResult {
  body: unknown;
  response: Response;
}

/** A request as an operation hands it to the core: the path (with query) under its base, and the encoded body. */
export interface OperationRequest {
  path: string;
  body?: string;
  contentType?: string;
}

/** The client core as the operations see it. */
export interface ClientContext {
  call(meta: OperationMeta, request: OperationRequest, options: CallOptions): Promise<CallResult>;
}

export const isEnvelope = (body: unknown): body is { data: unknown; page?: unknown } =>
  !!body && typeof body === 'object' && 'data' in body;

function encode(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const key in params) {
    const value = params[key];
    if (value !== undefined && value !== null) search.append(key, String(value));
  }
  return search.toString();
}

/** Binds one operation of the table to a client. */
export function operation<A extends unknown[], R, E>(ctx: ClientContext, meta: OperationMeta): Operation<A, R, E> {
  const n = meta.pathParams.length;
  const literals = meta.path.split(/\{[^}]+\}/); // n + 1 pieces around the path parameters
  const integers = meta.integers ?? [];
  const hasInput = meta.query !== undefined || meta.body !== undefined;
  const usage = `${meta.name}(${meta.pathParams.map((p) => p.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())).join(', ')}${hasInput ? `${n ? ', ' : ''}input` : ''})`;
  const fn = (...args: unknown[]): Promise<unknown> => {
    let path = literals[0]!;
    for (let i = 0; i < n; i++) {
      const value = args[i];
      const name = meta.pathParams[i]!;
      if (value === undefined || value === null || value === '')
        return Promise.reject(new TypeError(`${usage}: path parameter ${name} is missing`));
      if (
        integers.includes(name) ? !Number.isSafeInteger(value) : typeof value !== 'string' && typeof value !== 'number'
      ) {
        return Promise.reject(
          new TypeError(
            `${usage}: path parameter ${name} must be ${integers.includes(name) ? 'an integer' : 'a string'} (got ${typeof value === 'string' ? JSON.stringify(value) : String(value)})`,
          ),
        );
      }
      // `.` and `..` stay dot segments even percent-encoded (URL parsers resolve %2E%2E too): they
      // would take the request to another route, so they are refused, never sent.
      if (value === '.' || value === '..')
        return Promise.reject(
          new TypeError(`${usage}: path parameter ${name} cannot be "${value}" (a dot segment names another path)`),
        );
      path += encodeURIComponent(String(value)) + literals[i + 1]!;
    }
    const input = (hasInput ? args[n] : undefined) as Record<string, unknown> | undefined;
    const options = ((hasInput ? args[n + 1] : args[n]) ?? {}) as CallOptions;
    const request: OperationRequest = { path };
    if (input !== undefined && input !== null) {
      let body: Record<string, unknown> | undefined = input;
      if (meta.query) {
        const query: Record<string, unknown> = {};
        body = meta.body ? {} : undefined;
        for (const key in input) (meta.query.includes(key) || !body ? query : body)[key] = input[key];
        const search = encode(query);
        if (search) request.path += `?${search}`;
        if (body && !Object.keys(body).length) body = undefined;
      }
      if (body) {
        request.body = meta.body === 'form' ? encode(body) : JSON.stringify(body);
        request.contentType = meta.body === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
      }
    }
    if (request.body === undefined && meta.bodyRequired) {
      request.body = meta.body === 'form' ? '' : '{}';
      request.contentType = meta.body === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
    }
    return ctx.call(meta, request, options).then(({ body, response }) => {
      if (options.raw) return { ...(isEnvelope(body) ? body : { data: body }), response };
      if (!isEnvelope(body)) return body;
      return meta.paginated ? { data: body.data, page: body.page } : body.data;
    });
  };
  Object.defineProperty(fn, 'meta', { value: meta, enumerable: true });
  Object.defineProperty(fn, 'name', { value: meta.id });
  return fn as unknown as Operation<A, R, E>;
}

/** Builds the grouped operations of one client from the table (`sites.notes.list` → `ops.sites.notes.list`). */
export function createOperations<T>(ctx: ClientContext, table: Record<string, OperationMeta>): T {
  const root: Record<string, unknown> = {};
  for (const id in table) {
    const meta = table[id]!;
    const segments = meta.name.split('.');
    let node = root;
    for (const segment of segments.slice(0, -1)) {
      node[segment] ??= {};
      node = node[segment] as Record<string, unknown>;
    }
    node[segments.at(-1)!] = operation(ctx, meta);
  }
  return root as T;
}
