// Streamable HTTP (behind `--http`): stateless, one server and transport per request, at `/mcp`.
// Loaded only when asked for: the SDK's Node transport brings in @hono/node-server.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer, type ServerOptions } from './server';

export interface HttpServer {
  url: string;
  close(): Promise<void>;
}

export async function serveHttp(options: ServerOptions & { port?: number; host?: string }): Promise<HttpServer> {
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  createServer(options); // the configuration errors now, not at the first request
  const host = options.host ?? '127.0.0.1';
  const server = http.createServer(async (req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('The MCP endpoint is /mcp\n');
      return;
    }
    if (req.method !== 'POST') {
      // Stateless: no stream to resume and no session to delete.
      res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' }).end('POST JSON-RPC messages to /mcp\n');
      return;
    }
    const mcp = createServer(options);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
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
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
