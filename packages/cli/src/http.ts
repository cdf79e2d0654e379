// A small fetch over node:http/node:https for the client (`createClient({ fetch })`). The global
// fetch of Node 20 loads undici and compiles its WebAssembly parser on the first request, about
// 80 ms of a CLI run that is over in 200; this sends the same request without it. It answers with
// what the client reads of a Response: `ok`, `status`, `statusText`, `headers.get()`, `text()`.
import http from 'node:http';
import https from 'node:https';

class ResponseHeaders {
  readonly #raw: http.IncomingHttpHeaders;
  constructor(raw: http.IncomingHttpHeaders) {
    this.#raw = raw;
  }
  get(name: string): string | null {
    const value = this.#raw[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }
  has(name: string): boolean {
    return this.#raw[name.toLowerCase()] !== undefined;
  }
  forEach(fn: (value: string, name: string) => void): void {
    for (const name of Object.keys(this.#raw)) fn(this.get(name)!, name);
  }
}

/** The answer outgrew the size cap (`--max-size`, HOSTING_API_MAX_SIZE). */
export class ResponseTooLargeError extends Error {
  override name = 'ResponseTooLargeError';
}

/** Default cap on one answer's body: 32 MiB (the largest page of the API is a small fraction of it). */
export const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

export interface FetchLimits {
  /** Largest body read, in bytes; a bigger answer fails as soon as it passes the cap. */
  maxBytes?: number;
}

/** A fetch with a cap on the body's size; the client's per-attempt signal ends it at any point, headers or body. */
export function limitedFetch(limits: FetchLimits = {}) {
  const maxBytes = limits.maxBytes ?? DEFAULT_MAX_BYTES;
  return (url: string, init: RequestInit = {}) => nodeFetch(url, init, maxBytes);
}

export function nodeFetch(url: string, init: RequestInit = {}, maxBytes = DEFAULT_MAX_BYTES): Promise<Response> {
  const target = new URL(url);
  const transport = target.protocol === 'https:' ? https : http;
  const body = init.body === undefined || init.body === null ? undefined : Buffer.from(String(init.body));
  const headers: Record<string, string> = { ...(init.headers as Record<string, string> | undefined) };
  if (body) headers['content-length'] = String(body.length);
  const signal = init.signal ?? undefined;
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      request.destroy();
      reject(error);
    };
    // The signal ends the request whether it is waiting for headers or reading the body.
    const onAbort = () => fail(signal?.reason ?? new Error('aborted'));
    const request = transport.request(target, { method: init.method ?? 'GET', headers }, (res) => {
      const declared = Number(res.headers['content-length']);
      const tooLarge = () =>
        new ResponseTooLargeError(
          `the answer is larger than ${maxBytes} bytes (raise --max-size or HOSTING_API_MAX_SIZE)`,
        );
      if (declared > maxBytes) return fail(tooLarge());
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          chunks.length = 0;
          return fail(tooLarge());
        }
        chunks.push(chunk);
      });
      res.on('error', fail);
      res.on('close', () => {
        if (!res.complete) fail(new Error('the connection closed before the answer was complete'));
      });
      res.on('end', () => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        const status = res.statusCode ?? 0;
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          ok: status >= 200 && status < 300,
          status,
          statusText: res.statusMessage ?? '',
          url,
          headers: new ResponseHeaders(res.headers),
          text: async () => text,
          json: async () => JSON.parse(text),
        } as unknown as Response);
      });
    });
    if (signal?.aborted) return fail(signal.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', fail);
    request.end(body);
  });
}
