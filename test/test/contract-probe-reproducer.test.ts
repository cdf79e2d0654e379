// An auth probe's failure in the examples phase reports what the probe got, and its curl
// reproducer sends what the probe sent (the garbage token as it was, not $TOKEN), so that replaying
// it reproduces the failure. One sandbox and one drifting server (garbage tokens accepted on a site read).
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Sandbox, startSandbox } from '@hosting-api/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { contractPackage } from './gate';

let sandbox: Sandbox;
let server: http.Server;
let url: string;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, speed: 0, startTime: '2026-11-02T09:00:00.000Z' });
  server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && !['host', 'content-length'].includes(k)) headers[k] = v;
    // The drift: a garbage token reads a site.
    if (
      req.method === 'GET' &&
      /^\/v1\/sites\/\d+$/.test(req.url ?? '') &&
      /^Bearer garbage/.test(headers.authorization ?? '')
    )
      headers.authorization = `Bearer ${await sandbox.token()}`;
    const answer = await fetch(`${sandbox.authUrl}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === 'GET' || !chunks.length ? undefined : Buffer.concat(chunks),
    });
    const challenge = answer.headers.get('www-authenticate');
    res
      .writeHead(answer.status, {
        'content-type': answer.headers.get('content-type') ?? 'application/json',
        ...(challenge ? { 'www-authenticate': challenge } : {}),
      })
      .end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await sandbox?.stop();
});

it('reports the status the probe got, and its reproducer sends the garbage token and gets it again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'contract-probe-'));
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CONTRACT_')));
  const child = spawn(
    process.execPath,
    [
      join(contractPackage, 'bin/hosting-api-contract.js'),
      'examples',
      '--only',
      'getSite 401',
      // The client id given as a flag, not in the environment: the reproducer's token line carries it.
      '--client-id',
      sandbox.clients[0]!.clientId,
      '--json',
      join(dir, 'r.json'),
    ],
    {
      env: {
        ...clean,
        CONTRACT_BASE_URL: `${url}/v1`,
        CONTRACT_AUTH_URL: url,
        CONTRACT_CLIENT_SECRET: sandbox.clients[0]!.clientSecret,
      },
    },
  );
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c));
  child.stderr.on('data', (c: Buffer) => (output += c));
  const code = await new Promise((done) => child.on('exit', done));
  expect(code, output).toBe(1);
  const cases: { name: string; check: string; outcome: string; expected: unknown; actual: unknown; curl?: string }[] =
    JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).checks;
  // Every case carries its check (a passing transaction: the response checks, the schema last).
  expect(cases.filter((c) => !c.check)).toEqual([]);
  expect(output).toMatch(/Coverage: documented responses \d+(\.\d+)?%/);
  const probe = cases.find((c) => c.outcome === 'failed')!;
  expect(probe).toMatchObject({ check: 'ignored_auth', expected: '401', actual: 200 });
  expect(probe.curl).toMatch(/-H 'Authorization: Bearer garbage-[a-z0-9]+'/);
  expect(probe.curl).not.toContain('$TOKEN');
  const { stdout } = await promisify(execFile)('sh', ['-c', probe.curl!]);
  expect(stdout).toMatch(/^HTTP\/1\.1 200/);
  expect(output).not.toContain(sandbox.clients[0]!.clientSecret);
  // The token line replays with the secret from the environment alone.
  const tokenLine = /^ {2}(TOKEN=.*)$/m.exec(output)![1]!;
  expect(tokenLine).toContain(`client_id=${sandbox.clients[0]!.clientId}`);
  const replay = await promisify(execFile)('sh', ['-c', `${tokenLine}; printf %s "$TOKEN"`], {
    env: { PATH: process.env.PATH, CONTRACT_CLIENT_SECRET: sandbox.clients[0]!.clientSecret },
  });
  expect(replay.stdout).toMatch(/^\S{16,}$/);
}, 60_000);
