// The MCP server's guards against one sandbox, seen through a proxy that counts what reaches it:
// HTTP (Host/Origin checked before any tool runs, the bearer token, one API token for twenty calls,
// a page on another origin in Chromium), stdio JSON-RPC errors (the built executable), and the
// agent switches (--read-only, --toolsets, --dynamic reaching every operation).
import { spawn } from 'node:child_process';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type Sandbox, startSandbox } from '@hosting-api/sandbox';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs script without types
import { ensureChromium } from '../../../scripts/ensure-chromium.mjs';
import { ConfigError, createServer, type HttpServer, type ServerOptions, serveHttp, tools } from '../src/index';

const SECRET = 'sandbox-secret';
const bin = fileURLToPath(new URL('../bin/hosting-api-mcp.js', import.meta.url));
const chromiumPath: { path?: string; skip?: string } = ensureChromium();
let sb: Sandbox;
let proxy: http.Server;
let env: Record<string, string>;
/** Requests that reached the API through the proxy: `POST /auth/token`, `GET /v1/sites/123456`... */
const reached: string[] = [];
let served: HttpServer;
let mcpUrl: URL;

const post = (url: URL, body: unknown, headers: Record<string, string>) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
const createNote = (subject: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'createSiteNote', arguments: { site_id: 123456, subject, body: 'x' } },
});

async function notes(): Promise<string[]> {
  const res = await fetch(`${sb.url}/sites/123456/notes`, {
    headers: { authorization: `Bearer ${await token()}` },
  });
  return ((await res.json()) as { data: { subject: string }[] }).data.map((n) => n.subject);
}
async function token(): Promise<string> {
  const res = await fetch(`${sb.authUrl}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: SECRET }),
  });
  return ((await res.json()) as { data: { access_token: string } }).data.access_token;
}

async function inMemory(options: ServerOptions): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createServer({ env, ...options }).connect(serverSide);
  const client = new Client({ name: 'test', version: '0' });
  await client.connect(clientSide);
  return client;
}

beforeAll(async () => {
  sb = await startSandbox({ port: 0, speed: 0 });
  const upstream = new URL(sb.authUrl);
  proxy = http.createServer((req, res) => {
    reached.push(`${req.method} ${req.url}`);
    const out = http.request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(out);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const root = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  env = {
    PATH: process.env.PATH ?? '',
    HOSTING_API_BASE_URL: `${root}/v1`,
    HOSTING_API_CLIENT_ID: 'sandbox-client',
    HOSTING_API_CLIENT_SECRET: SECRET,
  };
  served = await serveHttp({ env, port: 0 });
  mcpUrl = new URL(served.url);
});

afterAll(async () => {
  await served?.close();
  proxy?.closeAllConnections();
  await new Promise((r) => proxy?.close(r));
  await sb?.stop();
});

describe('Streamable HTTP', () => {
  it('a foreign Host or Origin gets 403 before any tool runs; no or a wrong token gets 401; nothing changes', async () => {
    const auth = { authorization: `Bearer ${served.token}` };
    const before = reached.length;
    const rebind = await post(mcpUrl, createNote('rebind-host'), { ...auth, host: 'rebind.evil.example' });
    const origin = await post(mcpUrl, createNote('rebind-origin'), { ...auth, origin: 'http://rebind.evil.example' });
    const both = await post(mcpUrl, createNote('rebind-both'), {
      ...auth,
      host: 'rebind.evil.example',
      origin: 'http://rebind.evil.example',
    });
    const otherPort = await post(mcpUrl, createNote('other-port'), { ...auth, origin: 'http://127.0.0.1:1' });
    expect([rebind.status, origin.status, both.status, otherPort.status]).toEqual([403, 403, 403, 403]);
    expect(JSON.parse(rebind.body).error.message).toMatch(/Host "rebind.evil.example" is not allowed/);
    const none = await post(mcpUrl, createNote('no-token'), {});
    const wrong = await post(mcpUrl, createNote('wrong-token'), { authorization: 'Bearer not-the-token-at-all' });
    expect([none.status, wrong.status]).toEqual([401, 401]);
    expect(reached.length).toBe(before); // not even a token request
    expect(await notes()).not.toEqual(expect.arrayContaining([expect.stringMatching(/rebind|token|port/)]));
    // The loopback names at the bound port, with their own Origin, are served.
    const local = await post(mcpUrl, createNote('from-localhost'), {
      ...auth,
      host: `localhost:${mcpUrl.port}`,
      origin: `http://localhost:${mcpUrl.port}`,
    });
    expect(local.status).toBe(200);
    expect(await notes()).toContain('from-localhost');
  });

  it('--allow-host and --allow-origin add names; a non-loopback address is refused without a token, and warned about with one', async () => {
    const extra = await serveHttp({
      env,
      port: 0,
      token: 'a-token-of-sixteen-or-more',
      allowHosts: ['mcp.internal'],
      allowOrigins: ['https://app.example'],
    });
    try {
      const url = new URL(extra.url);
      const auth = { authorization: 'Bearer a-token-of-sixteen-or-more' };
      const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
      expect((await post(url, list, { ...auth, host: 'mcp.internal', origin: 'https://app.example' })).status).toBe(
        200,
      );
      expect((await post(url, list, { ...auth, origin: 'https://evil.example' })).status).toBe(403);
    } finally {
      await extra.close();
    }
    await expect(serveHttp({ env, host: '0.0.0.0', port: 0 })).rejects.toThrow(
      /refusing to serve on 0\.0\.0\.0, which is not a loopback address, without a token/,
    );
    await expect(serveHttp({ env, port: 0, token: 'short' })).rejects.toThrow(ConfigError);
    // With a token it binds, and warns once; on loopback it says nothing.
    const warnings: string[] = [];
    const token = 'a-token-of-sixteen-or-more';
    const wide = await serveHttp({ env, host: '0.0.0.0', port: 0, token, warn: (l) => warnings.push(l) });
    await wide.close();
    expect(warnings).toEqual([
      expect.stringMatching(/^hosting-api-mcp: warning: serving on 0\.0\.0\.0, reachable from other machines/),
    ]);
    const local = await serveHttp({ env, port: 0, token, warn: (l) => warnings.push(l) });
    await local.close();
    expect(warnings).toHaveLength(1);
  });

  it('a connection with no traffic either way is closed at the idle timeout', async () => {
    // Header and request timeouts far away: only the idle timeout can close this connection.
    // (The same timeout closes one whose client stopped reading: spec/test/http.test.ts.)
    const idle = await serveHttp({ env, port: 0, timeouts: { idle: 300, headers: 120_000, request: 120_000 } });
    const url = new URL(idle.url);
    const closed = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(url.port), url.hostname, () => socket.write('POST /mcp HTTP/1.1\r\n'));
      socket.on('close', () => resolve('closed'));
      socket.on('error', () => {});
    });
    expect(closed).toBe('closed');
    await idle.close();
  });

  it('twenty tool calls make one token request', async () => {
    const fresh = await serveHttp({ env, port: 0 });
    const count = () => reached.filter((r) => r === 'POST /auth/token').length;
    const before = count();
    try {
      const client = new Client({ name: 'test', version: '0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(fresh.url), {
          requestInit: { headers: { authorization: `Bearer ${fresh.token}` } },
        }),
      );
      for (let i = 0; i < 20; i++) {
        const r = (await client.callTool({ name: 'getSite', arguments: { site_id: 123456 } })) as CallToolResult;
        expect(r.isError).toBeFalsy();
      }
      await client.close();
    } finally {
      await fresh.close();
    }
    expect(count() - before).toBe(1);
  });

  it.skipIf(!chromiumPath.path)(
    'a page on another origin in Chromium cannot call a tool, DNS rebinding included',
    async () => {
      const page = http.createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>'));
      await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
      // DNS rebinding, simulated: the attacker's name resolves to 127.0.0.1, so a page loaded from it
      // at the server's port is, to the browser, on the server's own origin (no CORS in the way).
      const browser = await chromium.launch({
        executablePath: chromiumPath.path,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--no-first-run',
          '--host-resolver-rules=MAP rebind.evil.example 127.0.0.1',
        ],
      });
      const attack = ({ url, body }: { url: string; body: string }) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body,
        }).then(
          (r) => `status ${r.status}`,
          (e: Error) => `failed: ${e.name}`,
        );
      try {
        const tab = await browser.newPage();
        const before = reached.length;
        await tab.goto(`http://127.0.0.1:${(page.address() as AddressInfo).port}/`);
        const crossOrigin = await tab.evaluate(attack, {
          url: served.url,
          body: JSON.stringify(createNote('cross-origin')),
        });
        await tab.goto(`http://rebind.evil.example:${mcpUrl.port}/`);
        const rebound = await tab.evaluate(attack, { url: '/mcp', body: JSON.stringify(createNote('rebound')) });
        expect([crossOrigin, rebound]).toEqual(['failed: TypeError', 'status 403']);
        expect(reached.length).toBe(before);
        expect(await notes()).not.toEqual(expect.arrayContaining(['cross-origin', 'rebound']));
      } finally {
        await browser.close();
        page.close();
      }
    },
  );
});

describe('stdio JSON-RPC', () => {
  it('parse errors get -32700 and invalid requests -32600 with id null; an oversized line gets an error; the session goes on', async () => {
    const child = spawn(process.execPath, [bin], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const lines: Record<string, unknown>[] = [];
    let buffer = '';
    let stderr = '';
    let wake: (() => void) | undefined;
    child.stdout.on('data', (c) => {
      buffer += c;
      for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
        lines.push(JSON.parse(buffer.slice(0, nl)));
        buffer = buffer.slice(nl + 1);
      }
      wake?.();
    });
    child.stderr.on('data', (c) => (stderr += c));
    const next = async () => {
      while (!lines.length) await new Promise<void>((r) => (wake = r));
      return lines.shift()!;
    };
    const send = (text: string) => child.stdin.write(`${text}\n`);
    try {
      send('this is not json');
      expect(await next()).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: expect.stringMatching(/^Parse error/) },
      });
      send('{"jsonrpc":"2.0","id":7}');
      expect(await next()).toMatchObject({ id: null, error: { code: -32600 } });
      send('[1,2,3]');
      expect(await next()).toMatchObject({ id: null, error: { code: -32600 } });
      send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
        }),
      );
      expect(await next()).toMatchObject({ id: 1, result: { serverInfo: { name: 'hosting-api' } } });
      send(`{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"${'x'.repeat(11 * 1024 * 1024)}"}}`);
      expect(await next()).toMatchObject({
        id: null,
        error: { code: -32600, message: expect.stringMatching(/larger than 10485760 bytes/) },
      });
      send('{"jsonrpc":"2.0","id":3,"method":"tools/list"}');
      const list = await next();
      expect(list).toMatchObject({ id: 3 });
      expect((list.result as { tools: unknown[] }).tools.length).toBeGreaterThan(50);
      expect(child.exitCode).toBe(null);
      expect(stderr).toContain('a message over 10485760 bytes was refused');
    } finally {
      child.kill();
    }
  });
});

describe('for agents', () => {
  it('--read-only lists only the safe GETs; --toolsets the spec tags; unknown ones say what exists', async () => {
    const readOnly = (await (await inMemory({ readOnly: true, allowDestructive: true })).listTools()).tools;
    // The spec states an effect for two GETs (x-effects): the SSH disconnect and the database-admin URL.
    const effects = ['getSiteCmsDbAdminUrl', 'getSiteDisconnectSsh'];
    const gets = tools.filter((t) => t.method === 'GET' && !effects.includes(t.name));
    expect(readOnly.map((t) => t.name).sort()).toEqual(gets.map((t) => t.name).sort());
    expect(readOnly.every((t) => t.annotations?.readOnlyHint)).toBe(true);
    const all = (await (await inMemory({ allowDestructive: true })).listTools()).tools;
    for (const name of effects) expect(all.find((t) => t.name === name)?.annotations?.readOnlyHint, name).toBe(false);
    const onlyNotes = (await (await inMemory({ toolsets: ['notes'], allowDestructive: true })).listTools()).tools;
    expect(onlyNotes.map((t) => t.name).sort()).toEqual(
      ['createSiteNote', 'deleteSiteNote', 'getSiteNote', 'listSiteNotes', 'updateSiteNote'].sort(),
    );
    expect(() => createServer({ env, toolsets: ['nope'] })).toThrow(
      /--toolsets: no toolset nope; the toolsets are account, alerts/,
    );
    const refused = (await (
      await inMemory({ readOnly: true })
    ).callTool({
      name: 'createSiteNote',
      arguments: { site_id: 123456, subject: 's', body: 'b' },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
  });

  it('--dynamic: three tools that search, describe and call every operation', async () => {
    const client = await inMemory({ dynamic: true, allowDestructive: true });
    const listed = (await client.listTools()).tools;
    expect(listed.map((t) => t.name)).toEqual(['search_operations', 'describe_operation', 'call_operation']);
    const all = (await client.callTool({ name: 'search_operations', arguments: {} })) as CallToolResult;
    const operations = (all.structuredContent as { operations: { name: string }[] }).operations;
    expect(operations).toHaveLength(tools.length);
    for (const { name } of operations) {
      const d = (await client.callTool({ name: 'describe_operation', arguments: { name } })) as CallToolResult;
      expect((d.structuredContent as { inputSchema: unknown }).inputSchema).toEqual(
        tools.find((t) => t.name === name)!.inputSchema,
      );
    }
    const found = (await client.callTool({
      name: 'search_operations',
      arguments: { query: 'note create' },
    })) as CallToolResult;
    expect((found.structuredContent as { operations: { name: string }[] }).operations.map((o) => o.name)).toContain(
      'createSiteNote',
    );
    const site = (await client.callTool({
      name: 'call_operation',
      arguments: { name: 'getSite', arguments: { site_id: 123456 } },
    })) as CallToolResult;
    expect((site.structuredContent as { data: { name: string } }).data.name).toBe('ada-blog');
    const guarded = await inMemory({ dynamic: true });
    const refused = (await guarded.callTool({
      name: 'call_operation',
      arguments: { name: 'deleteSite', arguments: { site_id: 123456 } },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('--allow-destructive');
  });

  it('--dynamic: call_operation is annotated as what it can call (reads only under --read-only)', async () => {
    const hintsOf = async (options: ServerOptions) =>
      (await (await inMemory({ dynamic: true, ...options })).listTools()).tools.find(
        (t) => t.name === 'call_operation',
      )!.annotations;
    expect(await hintsOf({ readOnly: true, allowDestructive: true })).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(await hintsOf({})).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(await hintsOf({ allowDestructive: true })).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });

  it('a missing argument or a path id that is not one: the error names the tool and the argument', async () => {
    const textOf = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;
    const standard = await inMemory({});
    const missing = await standard.callTool({ name: 'getSite', arguments: {} });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toBe('getSite: missing argument site_id (required: site_id)');
    const body = await standard.callTool({ name: 'createSiteNote', arguments: { site_id: 123456 } });
    expect(textOf(body)).toBe('createSiteNote: missing arguments subject, body (required: site_id, subject, body)');
    const notId = await standard.callTool({ name: 'getSite', arguments: { site_id: 'ada-blog' } });
    expect(textOf(notId)).toBe('getSite: argument site_id must be an integer (got "ada-blog")');
    const dynamic = await inMemory({ dynamic: true });
    const viaCall = await dynamic.callTool({ name: 'call_operation', arguments: { name: 'getSite', arguments: {} } });
    expect(textOf(viaCall)).toBe('call_operation getSite: missing argument site_id (required: site_id)');
    const noName = await dynamic.callTool({ name: 'call_operation', arguments: {} });
    expect(textOf(noName)).toBe('call_operation: missing argument name (required: name)');
  });
});
