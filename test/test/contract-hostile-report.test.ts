// What a hostile target sends never reaches the gate's reports verbatim, and costs no more than its
// size: a target that echoes the bearer token it got (with and without its scheme), answers a 60 KB
// list of `{}` (the schema check stops at the first error: the case fails cleanly), or a 2 MiB body
// that fails. The console, the JUnit and the JSON report hold no token and no text over a few KiB.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '@hosting-api/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractPackage, forward } from './gate';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let server: http.Server;
let url: string;
/** Every bearer token the gate sent to the target. */
const sent = new Set<string>();

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, speed: 0 });
  server = http.createServer((req, res) => {
    const authorization = req.headers.authorization ?? '';
    const token = authorization.replace(/^Bearer\s+/i, '');
    if (token && token !== authorization) sent.add(token);
    const path = (req.url ?? '/').split('?')[0];
    const json = { 'content-type': 'application/json' };
    if (path === '/v1/account' && req.method === 'GET')
      // The header echoed as it came, first in a body that is not JSON (the check quotes its start).
      return res.writeHead(200, json).end(`${authorization} was your header`);
    if (path === '/v1/alerts' && req.method === 'GET')
      // The token alone, no scheme: only the gate's memory of what it sent can find it.
      return res.writeHead(200, json).end(`${token} <- your token`);
    if (path === '/v1/sites' && req.method === 'GET')
      return res
        .writeHead(200, json)
        .end(JSON.stringify({ message: 'Success', data: Array(20_000).fill({}), errors: null }));
    if (path === '/v1/zones' && req.method === 'GET')
      return res.writeHead(200, json).end(`<${'x'.repeat(2 * 1024 * 1024)}>`);
    forward(req, res, sandbox.authUrl).catch(() => res.destroy());
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
  await sandbox.stop();
});

describe('a target that echoes what it got and answers too much', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gate-hostile-report-'));
  let code: number;
  let output = '';
  let junit = '';
  let json = '';
  beforeAll(async () => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CONTRACT_')));
    const child = spawn(
      process.execPath,
      [
        join(contractPackage, 'bin/hosting-api-contract.js'),
        'examples',
        '--base-url',
        `${url}/v1`,
        '--auth-url',
        url,
        '--client-id',
        'sandbox-client',
        '--only',
        'getAccount 200,listAlerts 200,listSites 200,listZones 200',
        '--exclude-checks',
        'response_coverage',
        '--json',
        join(dir, 'run.json'),
        '--junit',
        join(dir, 'run.xml'),
      ],
      { env: { ...clean, CONTRACT_CLIENT_SECRET: 'sandbox-secret', CONTRACT_AUTH_PROBES: '0' } },
    );
    child.stdout.on('data', (c: Buffer) => (output += c));
    child.stderr.on('data', (c: Buffer) => (output += c));
    code = await new Promise<number>((done) => child.on('exit', (c) => done(c ?? 1)));
    junit = readFileSync(join(dir, 'run.xml'), 'utf8');
    json = readFileSync(join(dir, 'run.json'), 'utf8');
  }, 120_000);

  it('fails each hostile case and writes both reports', () => {
    expect(code, output.slice(-3000)).toBe(1);
    const checks = JSON.parse(json).checks as { operation?: string; outcome: string }[];
    for (const operation of ['getAccount', 'listAlerts', 'listSites', 'listZones'])
      expect(checks.find((c) => c.operation === operation)?.outcome, operation).toBe('failed');
  });

  it('the echoed token is in none of the console, the JUnit and the JSON', () => {
    expect(sent.size).toBeGreaterThan(0);
    for (const token of sent)
      for (const [where, text] of Object.entries({ output, junit, json }))
        expect(
          text.includes(token),
          `${where}: ${text.slice(Math.max(0, text.indexOf(token) - 300), text.indexOf(token) + 100)}`,
        ).toBe(false);
    // What replaced it says so.
    expect(json).toContain('Bearer [redacted] was your header');
    expect(json).toContain('[redacted] <- your token');
  });

  it('the quadratic answer fails on its first error', () => {
    expect(json).toMatch(/listSites \(GET \/sites\) 200: body\/data\/0 must have required property/);
  });

  it('no text of the reports is longer than a few KiB, and a cut says how much it cut', () => {
    const longest = (text: string) => Math.max(...text.split('\n').map((l) => l.length));
    expect(longest(output)).toBeLessThan(8 * 1024);
    for (const check of JSON.parse(json).checks as { failures?: { message: string }[] }[])
      for (const f of check.failures ?? []) expect(f.message.length).toBeLessThan(8 * 1024);
    expect(junit.length).toBeLessThan(256 * 1024);
    expect(output).toMatch(/… \(\d+ more characters cut\)/);
  });
});
