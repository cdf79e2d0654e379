// Error classes. `instanceof` is answered by a brand that every instance carries (a list of the
// kinds along its class chain, under a global symbol), so an error thrown by the CommonJS build is
// still an instance of the ESM build's classes and the other way round.

const KINDS = Symbol.for('@hosting-api/client.error-kinds');

export interface RequestInfo {
  method: string;
  url: string;
}

export interface HostingApiErrorOptions {
  status?: number;
  errors?: string[] | null;
  response?: Response;
  request?: RequestInfo;
  operationId?: string;
  body?: unknown;
  cause?: unknown;
}

/** Any failure of a call: an error status, a transport failure or a response that fails validation. */
export class HostingApiError extends Error {
  static readonly kind: string = 'HostingApiError';
  /** HTTP status, or `undefined` when no response arrived. */
  readonly status: number | undefined;
  /** The envelope's `errors` (strings), or `null`. */
  readonly errors: string[] | null;
  /** The raw response (its body has been read), when one arrived. */
  readonly response: Response | undefined;
  /** The response's headers (`Retry-After`, request ids, ...), when a response arrived. */
  readonly headers: Headers | undefined;
  /** Method and URL of the request. */
  readonly request: RequestInfo | undefined;
  /** The operation's `operationId`, when the call came from a generated method. */
  readonly operationId: string | undefined;
  /** The parsed response body, when there was one. */
  readonly body: unknown;

  constructor(message: string, options: HostingApiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const kinds: string[] = [];
    for (let c = new.target as unknown as { kind?: string } | null; c?.kind; c = Object.getPrototypeOf(c))
      kinds.push(c.kind);
    Object.defineProperty(this, KINDS, { value: kinds });
    this.name = kinds[0] ?? 'HostingApiError';
    this.status = options.status;
    this.errors = options.errors ?? null;
    this.response = options.response;
    this.headers = options.response?.headers;
    this.request = options.request;
    this.operationId = options.operationId;
    this.body = options.body;
  }

  // `this` is the class `instanceof` asks about (a subclass has its own `kind`).
  static override [Symbol.hasInstance](value: unknown): boolean {
    const kinds = (value as { [KINDS]?: unknown } | null)?.[KINDS];
    // biome-ignore lint/complexity/noThisInStatic: the subclass is meant, not HostingApiError
    return Array.isArray(kinds) && kinds.includes(this.kind);
  }
}

/** 400 */
export class BadRequestError extends HostingApiError {
  static override readonly kind: string = 'BadRequestError';
}
/** 401: missing, invalid, expired or revoked token. */
export class AuthenticationError extends HostingApiError {
  static override readonly kind: string = 'AuthenticationError';
}
/** 403: the token lacks a scope (e.g. `git_edit`) or the caller lacks a permission. */
export class PermissionDeniedError extends HostingApiError {
  static override readonly kind: string = 'PermissionDeniedError';
}
/** 404 */
export class NotFoundError extends HostingApiError {
  static override readonly kind: string = 'NotFoundError';
}
/** 409: the request conflicts with the resource's current state. */
export class ConflictError extends HostingApiError {
  static override readonly kind: string = 'ConflictError';
}
/** 422 */
export class UnprocessableEntityError extends HostingApiError {
  static override readonly kind: string = 'UnprocessableEntityError';
}
/** 429 */
export class RateLimitError extends HostingApiError {
  static override readonly kind: string = 'RateLimitError';
}
/** 500 and above. */
export class InternalServerError extends HostingApiError {
  static override readonly kind: string = 'InternalServerError';
}
/** No response: the connection failed, or the request was sent and no answer came. */
export class ConnectionError extends HostingApiError {
  static override readonly kind: string = 'ConnectionError';
}
/** The call took longer than its `timeout`. */
export class TimeoutError extends ConnectionError {
  static override readonly kind: string = 'TimeoutError';
}
/** The caller's `signal` aborted the call. */
export class RequestAbortedError extends HostingApiError {
  static override readonly kind: string = 'RequestAbortedError';
}
/** A response did not match the spec's schema (`validate: true`). */
export class ResponseValidationError extends HostingApiError {
  static override readonly kind: string = 'ResponseValidationError';
  /** The failing locations, e.g. `data.state`, with the validator's message. */
  readonly issues: { path: string; message: string }[];
  constructor(message: string, options: HostingApiErrorOptions & { issues: { path: string; message: string }[] }) {
    super(message, options);
    this.issues = options.issues;
  }
}

const byStatus: Record<number, typeof HostingApiError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/** The error for an error status; its `message` and `errors` are the envelope's. */
export function errorForStatus(status: number, body: unknown, options: HostingApiErrorOptions): HostingApiError {
  const envelope = (body && typeof body === 'object' ? body : {}) as { message?: unknown; errors?: unknown };
  const message = typeof envelope.message === 'string' && envelope.message ? envelope.message : `HTTP ${status}`;
  const errors = Array.isArray(envelope.errors) ? envelope.errors.map(String) : null;
  const Cls = byStatus[status] ?? (status >= 500 ? InternalServerError : HostingApiError);
  return new Cls(message, { ...options, status, errors, body });
}
