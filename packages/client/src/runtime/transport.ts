// Sends one HTTP request through `fetch`. A GET that carries a body (the PHP and server log reads)
// cannot go through the global fetch, which refuses a body on GET: on Node it goes through
// node:http, in a browser it fails naming the operation (`#get-with-body`, a subpath import that
// resolves per platform, so no browser build reaches node:http). A `fetch` the caller passed gets
// every request, these included.
import { sendWithBodyOnGet } from '#get-with-body';

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface TransportRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | URLSearchParams;
  signal: AbortSignal | undefined;
  /** Largest answer body read (the client's maxResponseBytes). */
  maxBytes?: number;
  /** The operation, for errors that must name it. */
  operationId?: string;
}

/** Not `async`, to spare a promise per call: the caller awaits it inside a `try`, so a `fetch` that throws synchronously is caught there. */
export function send(req: TransportRequest, fetchImpl: FetchLike, customFetch = false): Promise<Response> {
  if (req.method === 'GET' && req.body !== undefined && !customFetch) return sendWithBodyOnGet(req);
  return fetchImpl(req.url, { method: req.method, headers: req.headers, body: req.body, signal: req.signal });
}

const CONNECT_PHASE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** True when a transport error happened before the request could reach the server (safe to retry any call). */
export function failedBeforeSending(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECT_PHASE.has(code)) return true;
  }
  return false;
}

/** A short description of a transport error, e.g. `fetch failed (ECONNREFUSED)`. */
export function describeTransportError(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
  const code = (err as { code?: unknown }).code ?? cause?.code;
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}
