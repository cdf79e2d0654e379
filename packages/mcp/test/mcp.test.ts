// The MCP server against one sandbox (frozen clock): the SDK's own client over stdio (the built
// executable, default flags and --allow-destructive --tools), and in-process for the rest
// (in-memory transport, Streamable HTTP).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Sandbox, startSandbox } from '@hosting-api/sandbox';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, createServer, type ServerOptions, selectTools, serveHttp } from '../src/index';

const SECRET = 'sandbox-secret';
const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);
const bin = fileURLToPath(new URL('../bin/hosting-api-mcp.js', import.meta.url));
let sb: Sandbox;
let env: Record<string, string>;
/** Everything the servers said (tool results, stderr): the secret and tokens must never be in it. */
let said = '';
const clients: Client[] = [];

async function stdio(args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, ...args], env, stderr: 'pipe' });
  transport.stderr?.on('data', (c) => (said += c));
  const client = new Client({ name: 'test', version: '0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function inMemory(options: ServerOptions): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createServer({ env, ...options }).connect(serverSide);
  const client = new Client({ name: 'test', version: '0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  said += JSON.stringify(result);
  return result;
}

const byName = (tools: Tool[]) => new Map(tools.map((t) => [t.name, t]));
let stdioDefault: Client;
let defaultTools: Tool[];

beforeAll(async () => {
  sb = await startSandbox({ port: 0, speed: 0 });
  env = {
    PATH: process.env.PATH ?? '',
    HOSTING_API_BASE_URL: sb.url,
    HOSTING_API_AUTH_URL: sb.authUrl,
    HOSTING_API_CLIENT_ID: 'sandbox-client',
    HOSTING_API_CLIENT_SECRET: SECRET,
  };
  stdioDefault = await stdio([]);
  defaultTools = (await stdioDefault.listTools()).tools;
});

afterAll(async () => {
  for (const c of clients) await c.close();
  await sb?.stop();
  expect(said).not.toContain(SECRET);
  expect(said).not.toMatch(/sbx_/); // the sandbox's tokens
});

describe('tools from the spec', () => {
  it('lists one tool per operation (the token operations aside), destructive ones only with the flag', async () => {
    const spec = JSON.parse(
      readFileSync(fileURLToPath(import.meta.resolve('@hosting-api/openapi/openapi.json')), 'utf8'),
    );
    const ids = Object.entries(spec.paths as Record<string, Record<string, { operationId: string }>>)
      .filter(([path]) => !path.startsWith('/auth/'))
      .flatMap(([, item]) => Object.entries(item).filter(([method]) => METHODS.has(method)))
      .map(([, o]) => o.operationId);
    expect(ids).toHaveLength(114);

    const all = (await (await inMemory({ allowDestructive: true })).listTools()).tools;
    expect(all.map((t) => t.name).sort()).toEqual([...ids].sort());
    const destructive = all.filter((t) => t.annotations?.destructiveHint).map((t) => t.name);
    expect(destructive).toEqual(
      expect.arrayContaining(['deleteSite', 'createSiteRestore', 'deleteSiteGitToken', 'batchDestroyCollaborators']),
    );
    expect(destructive).toHaveLength(14);

    // Over stdio with no flag: all but the destructive ones.
    expect(defaultTools).toHaveLength(114 - 14);
    expect(defaultTools.map((t) => t.name).sort()).toEqual(ids.filter((id) => !destructive.includes(id)).sort());
    expect(defaultTools.some((t) => t.annotations?.destructiveHint)).toBe(false);
  });

  it('takes annotations from the method and the spec, the schema and description from the spec', () => {
    const tools = byName(defaultTools);
    const hints = (name: string) => {
      const a = tools.get(name)!.annotations!;
      return [a.readOnlyHint, a.destructiveHint, a.idempotentHint];
    };
    expect(hints('listSites')).toEqual([true, false, true]);
    expect(hints('createSiteNote')).toEqual([false, false, false]); // POST
    expect(hints('updateSiteNote')).toEqual([false, false, true]); // PUT
    expect(hints('toggleSiteLightWeight404')).toEqual([false, false, false]); // a toggle flips on every call
    expect(hints('markAlertRead')).toEqual([false, false, true]); // POST the spec marks x-idempotent
    const create = tools.get('createSiteOndemandBackup')!;
    expect(create.description).toMatch(/^Create an on-demand backup\n\nRequests an on-demand backup/);
    expect(create.inputSchema).toMatchObject({
      type: 'object',
      required: ['site_id', 'backup_type'],
      properties: { site_id: { type: 'integer' }, backup_type: { enum: ['fs', 'db'] } },
    });
  });
});

describe('calls over stdio', () => {
  it('a read tool returns structured content plus the same as text', async () => {
    const r = await call(stdioDefault, 'listSites', {});
    expect(r.isError).toBeFalsy();
    const structured = r.structuredContent as { data: { id: number; name: string }[] };
    expect(structured.data.find((s) => s.id === 123456)?.name).toBe('ada-blog');
    expect(JSON.parse((r.content[0] as { text: string }).text)).toEqual(structured);
  });

  it('a write tool changes the account', async () => {
    const created = await call(stdioDefault, 'createSiteNote', {
      site_id: 123456,
      subject: 'From MCP',
      body: 'Written by a tool',
    });
    const note = (created.structuredContent as { data: { id: number } }).data;
    const read = await call(stdioDefault, 'getSiteNote', { site_id: 123456, note_id: note.id });
    expect((read.structuredContent as { data: unknown }).data).toMatchObject({
      subject: 'From MCP',
      body: 'Written by a tool',
    });
  });

  it("an API error is a tool error carrying the API's message", async () => {
    const missing = await call(stdioDefault, 'getSiteNote', { site_id: 123456, note_id: 999 });
    expect(missing).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'We could not locate the requested resources. (HTTP 404)' }],
    });
    const git = await call(stdioDefault, 'getSiteGitConfiguration', { site_id: 123461 });
    expect((git.content[0] as { text: string }).text).toBe(
      'Unprocessable Entity (HTTP 422)\n- The site is not enrolled in the new git integration.',
    );
    const hidden = await call(stdioDefault, 'deleteSite', { site_id: 123460 });
    expect((hidden.content[0] as { text: string }).text).toBe(
      'deleteSite is not enabled on this server (destructive: start it with --allow-destructive)',
    );
  });

  it('--allow-destructive --tools sites.notes: the notes tools, deletion included', async () => {
    const client = await stdio(['--allow-destructive', '--tools', 'sites.notes']);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'createSiteNote',
      'deleteSiteNote',
      'getSiteNote',
      'listSiteNotes',
      'updateSiteNote',
    ]);
    const note = (await call(client, 'createSiteNote', { site_id: 123456, subject: 'Temporary', body: 'x' }))
      .structuredContent as {
      data: { id: number };
    };
    expect((await call(client, 'deleteSiteNote', { site_id: 123456, note_id: note.data.id })).isError).toBeFalsy();
    expect((await call(client, 'getSiteNote', { site_id: 123456, note_id: note.data.id })).isError).toBe(true);
  });
});

describe('options', () => {
  it('--tools names groups of x-client-method; an unknown one says which exist', () => {
    expect(selectTools({ groups: ['alerts'] }).map((t) => t.name)).toContain('markAllAlertsRead');
    expect(() => selectTools({ groups: ['site'] })).toThrow(ConfigError);
    expect(() => selectTools({ groups: ['site'] })).toThrow(
      /^--tools: no group site; the groups are account, .*sites\.notes/,
    );
  });

  it('needs credentials and an address, and says so', () => {
    expect(() => createServer({ env: { HOSTING_API_BASE_URL: sb.url } })).toThrow(
      'no credentials: set HOSTING_API_CLIENT_ID and HOSTING_API_CLIENT_SECRET',
    );
    expect(() => createServer({ env: {} })).toThrow(/^no API address: pass --base-url or set HOSTING_API_BASE_URL/);
    const credentials = { HOSTING_API_CLIENT_ID: 'x', HOSTING_API_CLIENT_SECRET: 'y' };
    expect(() => createServer({ env: credentials, baseUrl: 'ftp://x/v1' })).toThrow(
      '--base-url is not an http(s) URL: "ftp://x/v1".',
    );
    expect(() =>
      createServer({ env: { ...credentials, HOSTING_API_AUTH_URL: 'auth.example.com' }, baseUrl: 'https://x/v1' }),
    ).toThrow('--auth-url is not an http(s) URL: "auth.example.com".');
  });

  it('serves Streamable HTTP', async () => {
    const served = await serveHttp({ env, port: 0 });
    try {
      const client = new Client({ name: 'test', version: '0' });
      const headers = { authorization: `Bearer ${served.token}` };
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers } }));
      clients.push(client);
      expect((await client.listTools()).tools).toHaveLength(defaultTools.length);
      const site = await call(client, 'getSite', { site_id: '123456' }); // a quoted id is the same id
      expect((site.structuredContent as { data: { name: string } }).data.name).toBe('ada-blog');
      await client.close();
    } finally {
      await served.close();
    }
  });
});

describe('README', () => {
  it('has MCP client config blocks that are valid JSON and run this package with the variables it reads', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const blocks = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!));
    expect(blocks).toHaveLength(2); // Claude Desktop (and Cursor), VS Code
    for (const block of blocks) {
      const server = (block.mcpServers ?? block.servers)['hosting-api'];
      expect(server.command).toBe('npx');
      expect(server.args).toEqual(['-y', pkg.name]); // npx runs the package's one bin
      expect(Object.keys(server.env).sort()).toEqual([
        'HOSTING_API_BASE_URL',
        'HOSTING_API_CLIENT_ID',
        'HOSTING_API_CLIENT_SECRET',
      ]);
    }
    expect(Object.keys(pkg.bin)).toEqual(['hosting-api-mcp']);
  });
});
