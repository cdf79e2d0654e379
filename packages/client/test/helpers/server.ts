// A scriptable local API for the runtime tests: one node:http server that answers both the token
// routes (/auth/...) and the API (/v1/...), records every request, and lets each test decide the answers.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Handler = (req: Recorded, res: http.ServerResponse) => void | Promise<void>;

export interface TestServer {
  url: string;
  baseUrl: string;
  authUrl: string;
  requests: Recorded[];
  /** Requests to /auth/token. */
  tokenRequests(): Recorded[];
  /** Requests to the API (/v1). */
  apiRequests(): Recorded[];
  /** Sets the handler for API requests. */
  api(handler: Handler): void;
  /** Sets the handler for /auth/token (default: a fresh token each time, expires_in 3599). */
  token(handler: Handler): void;
  close(): Promise<void>;
}

export function json(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export const ok = (data: unknown, extra: Record<string, unknown> = {}) => ({
  message: 'Success',
  data,
  errors: null,
  ...extra,
});
export const fail = (message: string, errors: string[] | null = null) => ({ message, data: null, errors });

export async function startServer(): Promise<TestServer> {
  let issued = 0;
  const defaultToken: Handler = (_req, res) => {
    issued++;
    json(
      res,
      200,
      ok({ access_token: `token-${issued}`, token_type: 'Bearer', expires_in: 3599, scope: 'authorized' }),
    );
  };
  let tokenHandler: Handler = defaultToken;
  let apiHandler: Handler = (_req, res) => json(res, 200, ok(null));
  const requests: Recorded[] = [];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const rec: Recorded = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      requests.push(rec);
      const handler =
        rec.path === '/auth/token'
          ? tokenHandler
          : rec.path.startsWith('/auth/')
            ? (_: Recorded, r: http.ServerResponse) => json(r, 200, ok(null))
            : apiHandler;
      Promise.resolve(handler(rec, res)).catch((err: unknown) => {
        if (!res.headersSent) json(res, 599, fail(String(err)));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    baseUrl: `${url}/v1`,
    authUrl: url,
    requests,
    tokenRequests: () => requests.filter((r) => r.path === '/auth/token'),
    apiRequests: () => requests.filter((r) => r.path.startsWith('/v1/')),
    api: (h) => (apiHandler = h),
    token: (h) => (tokenHandler = h),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));
