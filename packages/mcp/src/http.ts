// Streamable HTTP (behind `--http`): stateless, one MCP server and transport per request (the SDK's
// advice: a transport shared between clients can mix their answers), one API client (and so one
// token until it expires) for all of them, at `/mcp`. Safe by default:
// - Host and Origin are checked on every request before anything else (DNS rebinding): only the
//   loopback names at the bound port, and what --allow-host / --allow-origin add; else 403. The
//   SDK's own check (enableDnsRebindingProtection with allowedHosts/allowedOrigins) runs as well.
// - A bearer token is required (HOSTING_API_MCP_TOKEN, else one generated at start); else 401.
// - A non-loopback address is bound only with a token set, and with a warning.
// Loaded only when asked for: the SDK's Node transport brings in @hono/node-server.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { limitServer, type ServerTimeouts, serverOptions } from '@hosting-api/openapi/http/server';
import { ConfigError, clientFrom, createServer, type ServerOptions } from './server';

export interface HttpServer {
  url: string;
  /** The bearer token clients must send (generated when none was given). */
  token: string;
  /** The token was generated at start (and so must be shown once). */
  generated: boolean;
  close(): Promise<void>;
}

export interface HttpOptions extends ServerOptions {
  port?: number;
  host?: string;
  /** Bearer token clients must send; default HOSTING_API_MCP_TOKEN, else a random one. */
  token?: string;
  /** More Host names (a name, or name:port) to accept. */
  allowHosts?: readonly string[];
  /** More Origins (scheme://host[:port]) to accept. */
  allowOrigins?: readonly string[];
  /** The server's timeouts in ms (the sandbox's: headers 10 s, request 30 s, keep-alive 5 s, idle 30 s). */
  timeouts?: Partial<ServerTimeouts>;
  /** Warnings (binding a non-loopback address); default stderr. */
  warn?: (line: string) => void;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** 127.0.0.0/8, ::1 and localhost. */
export const isLoopback = (host: string) =>
  host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);

const bracket = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function refuse(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  res
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }));
}

export async function serveHttp(options: HttpOptions): Promise<HttpServer> {
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const host = options.host ?? '127.0.0.1';
  const env = options.env ?? process.env;
  const given = options.token ?? env.HOSTING_API_MCP_TOKEN;
  if (given !== undefined && given.length < 16)
    throw new ConfigError('HOSTING_API_MCP_TOKEN must be at least 16 characters');
  if (!isLoopback(host) && !given)
    throw new ConfigError(
      `refusing to serve on ${host}, which is not a loopback address, without a token: set HOSTING_API_MCP_TOKEN (16 characters or more)`,
    );
  const token = given ?? randomBytes(24).toString('base64url');
  // One API client for every request: its token is requested once and reused until it expires.
  const client = clientFrom(options);
  createServer({ ...options, client }); // the configuration errors now, not at the first request
  if (!isLoopback(host))
    (options.warn ?? ((l) => process.stderr.write(`${l}\n`)))(
      `hosting-api-mcp: warning: serving on ${host}, reachable from other machines; every request needs the bearer token, and the traffic is not encrypted (put TLS in front)`,
    );

  let port = 0;
  let allowedHosts: Set<string> = new Set();
  let allowedOrigins: Set<string> = new Set();
  // The sandbox's header, request, keep-alive and idle timeouts (a client that never reads its
  // answer holds the connection for `idle` at most), and answers to a client that half-closes.
  const server = http.createServer(serverOptions(options.timeouts), async (req, res) => {
    // 1. Host and Origin (DNS rebinding), before anything else.
    const hostHeader = (req.headers.host ?? '').toLowerCase();
    if (!allowedHosts.has(hostHeader))
      return refuse(res, 403, `Forbidden: Host ${JSON.stringify(hostHeader)} is not allowed (see --allow-host)`);
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin.toLowerCase()))
      return refuse(res, 403, `Forbidden: Origin ${JSON.stringify(origin)} is not allowed (see --allow-origin)`);
    // 2. The bearer token.
    const auth = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '');
    if (!auth || !sameSecret(auth[1]!, token))
      return refuse(
        res,
        401,
        'Unauthorized: send Authorization: Bearer <token> (HOSTING_API_MCP_TOKEN, or the one printed at start)',
        {
          'www-authenticate': 'Bearer',
        },
      );
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('The MCP endpoint is /mcp\n');
      return;
    }
    if (req.method !== 'POST') {
      // Stateless: no stream to resume and no session to delete.
      res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' }).end('POST JSON-RPC messages to /mcp\n');
      return;
    }
    const mcp = createServer({ ...options, client });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      // The SDK's own check as a second line (deprecated in favour of middleware, which is the check above).
      enableDnsRebindingProtection: true,
      allowedHosts: [...allowedHosts],
      allowedOrigins: [...allowedOrigins],
    });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    try {
      await mcp.connect(transport);
      await transport.handleRequest(req, res);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`${error instanceof Error ? error.message : String(error)}\n`);
    }
  });
  limitServer(server, options.timeouts);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  port = (server.address() as AddressInfo).port;
  // Host values: each loopback name (and the bound name) at the bound port, plus --allow-host
  // (`name` accepts any port of it, `name:port` that port). Origins: http:// of each of those.
  const names = new Set([...LOOPBACK_NAMES, bracket(host)]);
  const hosts = [...names].map((n) => `${n}:${port}`.toLowerCase());
  for (const h of options.allowHosts ?? []) {
    const lower = h.toLowerCase();
    hosts.push(lower);
    if (!/:\d+$/.test(lower)) hosts.push(`${lower}:${port}`);
  }
  allowedHosts = new Set(hosts);
  allowedOrigins = new Set([
    ...[...names].map((n) => `http://${n}:${port}`.toLowerCase()),
    ...(options.allowOrigins ?? []).map((o) => o.toLowerCase().replace(/\/$/, '')),
  ]);
  return {
    url: `http://${bracket(host)}:${port}/mcp`,
    token,
    generated: given === undefined,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
