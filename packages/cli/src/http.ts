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

export function nodeFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const target = new URL(url);
  const transport = target.protocol === 'https:' ? https : http;
  const body = init.body === undefined || init.body === null ? undefined : Buffer.from(String(init.body));
  const headers: Record<string, string> = { ...(init.headers as Record<string, string> | undefined) };
  if (body) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const request = transport.request(
      target,
      { method: init.method ?? 'GET', headers, signal: init.signal ?? undefined },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
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
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
