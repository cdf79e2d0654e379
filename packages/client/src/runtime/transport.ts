// Sends one HTTP request through `fetch`. A GET that carries a body (the PHP and server log reads)
// goes through node:http when the client uses the global fetch, which refuses a body on GET; a
// `fetch` the caller passed gets every request, these included.

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface TransportRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | URLSearchParams;
  signal: AbortSignal | undefined;
}

/** Not `async`, to spare a promise per call: the caller awaits it inside a `try`, so a `fetch` that throws synchronously is caught there. */
export function send(req: TransportRequest, fetchImpl: FetchLike, customFetch = false): Promise<Response> {
  if (req.method === 'GET' && req.body !== undefined && !customFetch) return sendWithBodyOnGet(req);
  return fetchImpl(req.url, { method: req.method, headers: req.headers, body: req.body, signal: req.signal });
}

async function sendWithBodyOnGet(req: TransportRequest): Promise<Response> {
  const url = new URL(req.url);
  // Loaded only when such a call is made, so browsers and bundlers never need node:http.
  const http = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
  const payload = Buffer.from(String(req.body));
  return new Promise<Response>((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'GET', headers: { ...req.headers, 'content-length': String(payload.length) }, signal: req.signal },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          const status = res.statusCode ?? 0;
          const body = [204, 205, 304].includes(status) ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, statusText: res.statusMessage, headers }));
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
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
