// The installed command-line tools on the Node lines users run (installed.ts): the CLI and the MCP
// server against the installed sandbox, and the contract gate. The gate's whole run against its own
// sandbox is the docs' `npx -y @hosting-api/contract check --sandbox` line, run as written by
// install-lines.test.ts, which also reads the JUnit and JSON reports of the docs' CI lines.
import { mkdtempSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  binScript,
  describeInstalled,
  nodeLines,
  nodeOf,
  run,
  runBin,
  SANDBOX_SECRET,
  scratch,
  startSandbox,
  stop,
} from './installed.ts';

describeInstalled('the installed command-line tools', () => {
  // One installed sandbox for every line's CLI (bins.test.ts starts it on each line), its clock at
  // 600x, so a 30-second deploy takes 50 ms; and a server whose every answer, the token's too, is a
  // 500 envelope (exit status 7). The lines run one after another: each pages through the same notes.
  let sandbox: ReturnType<typeof startSandbox> | undefined;
  let baseUrl = '';
  let authUrl = '';
  const failing = http.createServer((_, res) =>
    res
      .writeHead(500, { 'content-type': 'application/json' })
      .end(JSON.stringify({ message: 'Internal Server Error', data: null, errors: ['always'] })),
  );
  let failingUrl = '';
  beforeAll(async () => {
    sandbox = startSandbox(process.execPath, 600);
    ({ baseUrl, authUrl } = await sandbox.ready);
    await new Promise<void>((r) => failing.listen(0, '127.0.0.1', r));
    failingUrl = `http://127.0.0.1:${(failing.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => failing.close(r));
    await stop(sandbox?.child);
  });

  // The command line and the MCP server as their users run them: the installed bins on each line.
  it.each(nodeLines)(
    "Node %i: the CLI from its installed bin: a note created, updated and deleted, --paginate, --wait on a deploy, every exit status, login 0600, the secret never printed; the MCP server through the SDK's client",
    async (major) => {
      const node = nodeOf(major);
      let printed = '';
      const env = {
        HOSTING_API_BASE_URL: baseUrl,
        HOSTING_API_AUTH_URL: authUrl,
        HOSTING_API_CLIENT_ID: 'sandbox-client',
        HOSTING_API_CLIENT_SECRET: SANDBOX_SECRET,
        XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cli-config-')),
      };
      const cli = async (args: string[], extra: Record<string, string> = {}, stdin = '') => {
        const r = await runBin(node, binScript('hosting-api'), args, { ...env, ...extra }, stdin);
        printed += r.out + r.err;
        return r;
      };
      const json = async (args: string[]) => {
        const r = await cli([...args, '--json']);
        expect(r.code, r.err).toBe(0);
        return JSON.parse(r.out);
      };

      const note = await json([
        'sites',
        'notes',
        'create',
        '123456',
        '--subject',
        'Packed',
        '--body',
        'From the tarball',
      ]);
      expect(note).toMatchObject({ subject: 'Packed', body: 'From the tarball' });
      const updated = await json([
        'sites',
        'notes',
        'update',
        '123456',
        String(note.id),
        '--subject',
        'Renamed',
        '--body',
        'Again',
      ]);
      expect(updated).toMatchObject({ id: note.id, subject: 'Renamed' });
      // Destructive without a terminal: refused without --yes, nothing changed; --dry-run sends nothing.
      const unconfirmed = await cli(['sites', 'notes', 'delete', '123456', String(note.id)]);
      expect([unconfirmed.code, unconfirmed.err]).toEqual([2, expect.stringContaining('pass --yes to run it')]);
      const dry = await cli(['sites', 'notes', 'delete', '123456', String(note.id), '--dry-run']);
      expect([dry.code, dry.out.split('\n')[0]]).toEqual([0, `DELETE ${baseUrl}/sites/123456/notes/${note.id}`]);
      expect((await cli(['sites', 'notes', 'get', '123456', String(note.id)])).code).toBe(0);
      expect((await cli(['sites', 'notes', 'delete', '123456', String(note.id), '--yes'])).code).toBe(0);
      const gone = await cli(['sites', 'notes', 'get', '123456', String(note.id)]);
      expect([gone.code, gone.err]).toEqual([5, 'error: We could not locate the requested resources. (HTTP 404)\n']);

      const onePage = (await json(['sites', 'notes', 'list', '123456', '--per_page', '100'])).map(
        (n: { id: number }) => n.id,
      );
      const walked = (await json(['sites', 'notes', 'list', '123456', '--per_page', '1', '--paginate'])).map(
        (n: { id: number }) => n.id,
      );
      expect(onePage.length).toBeGreaterThan(1);
      expect(walked).toEqual(onePage);

      const waited = await cli(['sites', 'create', '--name', `packed-${major}`, '--wait', '--json']);
      expect(waited.code, waited.err).toBe(0);
      expect(JSON.parse(waited.out)).toMatchObject({ name: `packed-${major}`, state: 'live' });
      expect(waited.err).toContain('state: "deploying" → "live"');

      const usage = await cli(['sites', 'get', 'abc']);
      expect([usage.code, usage.err]).toEqual([2, 'error: site_id must be an integer (got "abc")\n']);
      // (a config folder of its own: the others' cached token would be used)
      const refused = await cli(['sites', 'list'], {
        HOSTING_API_CLIENT_SECRET: 'not-the-secret',
        XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cli-config-')),
      });
      expect(refused.code).toBe(4);
      const unprocessable = await cli(['sites', 'git', 'get', '123461']);
      expect(unprocessable.code).toBe(6);
      expect(unprocessable.err).toContain('The site is not enrolled in the new git integration.');
      const broken = await cli(['sites', 'list', '--retries', '0'], {
        HOSTING_API_BASE_URL: `${failingUrl}/v1`,
        HOSTING_API_AUTH_URL: failingUrl,
      });
      expect([broken.code, broken.err]).toEqual([7, 'error: Internal Server Error (HTTP 500)\n  - always\n']);
      const unreachable = await cli(['sites', 'list', '--retries', '0', '--base-url', 'http://127.0.0.1:9/v1']);
      expect(unreachable.code).toBe(8);
      expect(unreachable.err.trim().split('\n')).toHaveLength(1);

      const home = mkdtempSync(join(tmpdir(), 'cli-login-'));
      const login = await runBin(
        node,
        binScript('hosting-api'),
        ['auth', 'login', '--client-id', 'sandbox-client', '--base-url', baseUrl, '--auth-url', authUrl],
        { XDG_CONFIG_HOME: home },
        `${SANDBOX_SECRET}\n`,
      );
      printed += login.out + login.err;
      expect(login.code, login.err).toBe(0);
      for (const file of ['credentials.json', 'token.json'])
        expect((statSync(join(home, 'hosting-api', file)).mode & 0o777).toString(8), file).toBe('600');
      expect(printed).not.toContain(SANDBOX_SECRET);

      // The MCP server, started by the SDK's own client over stdio.
      const mcp = async (args: string[]) => {
        const transport = new StdioClientTransport({
          command: node,
          args: [binScript('hosting-api-mcp'), ...args],
          env: { PATH: process.env.PATH ?? '', ...env },
          stderr: 'pipe',
        });
        transport.stderr?.on('data', (c) => (printed += c));
        const client = new Client({ name: 'packaging-test', version: '0' });
        await client.connect(transport);
        return client;
      };
      const standard = await mcp([]);
      try {
        const { tools } = await standard.listTools();
        const listSites = tools.find((t) => t.name === 'listSites')!;
        expect(tools).toHaveLength(100); // 114 tools, 14 of them destructive and left out
        expect(tools.some((t) => t.name === 'deleteSite')).toBe(false);
        expect(listSites.annotations).toMatchObject({
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
        });
        const site = (await standard.callTool({
          name: 'getSite',
          arguments: { site_id: 123456 },
        })) as CallToolResult;
        expect(site.structuredContent).toMatchObject({ message: 'Success', data: { id: 123456 } });
        const created = (await standard.callTool({
          name: 'createSiteNote',
          arguments: { site_id: 123456, subject: 'From MCP', body: 'Through the SDK' },
        })) as CallToolResult;
        expect(created.isError).toBeFalsy();
        expect(created.structuredContent).toMatchObject({ data: { subject: 'From MCP' } });
        printed += JSON.stringify([site, created]);
      } finally {
        await standard.close();
      }
      const dynamic = await mcp(['--dynamic']);
      try {
        expect((await dynamic.listTools()).tools.map((t) => t.name)).toEqual([
          'search_operations',
          'describe_operation',
          'call_operation',
        ]);
      } finally {
        await dynamic.close();
      }
      const destructive = await mcp(['--allow-destructive']);
      try {
        const deleteSite = (await destructive.listTools()).tools.find((t) => t.name === 'deleteSite');
        expect(deleteSite?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      } finally {
        await destructive.close();
      }
      expect(printed).not.toContain(SANDBOX_SECRET);
    },
    120_000,
  );

  it.each(nodeLines)(
    'Node %i: the contract gate from its installed bin: its help, its checks, one-line usage errors',
    (major) => {
      const node = nodeOf(major);
      const bin = binScript('hosting-api-contract');
      const help = run(node, [bin, 'check', '--help'], scratch);
      expect(help.status, help.out).toBe(0);
      expect(help.out).toContain('--max-examples');
      const checks = run(node, [bin, 'checks'], scratch);
      expect(checks.out).toContain('negative_data_rejection');
      const usage = run(
        node,
        [
          bin,
          'examples',
          '--base-url',
          'http://127.0.0.1:9/api',
          '--auth-url',
          'http://127.0.0.1:9',
          '--client-id',
          'x',
        ],
        scratch,
        30_000,
        { CONTRACT_CLIENT_SECRET: 'x' },
      );
      expect(usage.status, usage.out).toBe(2);
      expect(usage.out.trim().split('\n')).toEqual([expect.stringContaining('--base-url must end in /v1')]);
    },
    30_000,
  );
});
