// A hostile target: answers that never end, are huge, trickle, redirect, or come in another media
// type. Each case must fail on its own, within its deadline, with a line that says why; the run
// goes on, writes its reports, and the gate's processes stay under 300 MB. The gate is the one
// installed from its packed tarball (gate.ts).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '@hosting-api/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractPackage, forward } from './gate';

const DEADLINE_MS = 1500;
const CAP = 1024 * 1024;

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let server: http.Server;
let url: string;
const open = new Set<http.ServerResponse>();

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, speed: 0 });
  server = http.createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/v1/sites' && req.method === 'GET') {
      // Endless: chunks until the client goes away.
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) {}
        if (!res.destroyed) res.once('drain', pump);
      };
      res.write('{"data":[');
      return pump();
    }
    if (path === '/v1/zones' && req.method === 'GET') {
      // Huge: declares 3 GB and sends until stopped.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(3 * 1024 ** 3) });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) {}
        if (!res.destroyed) res.once('drain', pump);
      };
      return pump();
    }
    if (path === '/v1/alerts' && req.method === 'GET') {
      // Trickle: one byte every 100 ms, never done (an idle timeout never fires).
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 100);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (path === '/v1/sites/datacenters')
      return res.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere', 'content-type': 'text/plain' }).end();
    if (path === '/v1/sites/php-versions')
      return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>not the API</html>');
    forward(req, res, sandbox.authUrl).catch(() => res.destroy());
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of open) res.destroy();
  await new Promise<void>((done) => server.close(() => done()));
  await sandbox.stop();
});

interface Run {
  code: number;
  output: string;
  maxRssKb?: number;
}
function gate(args: string[], env: Record<string, string>): Promise<Run> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CONTRACT_')));
  const bin = join(contractPackage, 'bin/hosting-api-contract.js');
  // GNU time reports the largest resident set of the command and the processes it waited for.
  const time = existsSync('/usr/bin/time') ? ['/usr/bin/time', '-f', 'MAXRSS %M'] : [];
  const [cmd, ...rest] = [...time, process.execPath, bin, ...args];
  const child = spawn(cmd!, rest, { env: { ...clean, ...env } });
  let output = '';
  child.stdout.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    output += c.toString();
  });
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      const rss = /MAXRSS (\d+)/.exec(output)?.[1];
      resolve({ code: code ?? 1, output, maxRssKb: rss ? Number(rss) : undefined });
    }),
  );
}

describe('a hostile target', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gate-hostile-'));
  let run: Run;
  let cases: { name: string; operation?: string; outcome: string; failures?: { message: string }[] }[];
  beforeAll(async () => {
    run = await gate(
      [
        'examples',
        '--base-url',
        `${url}/v1`,
        '--auth-url',
        url,
        '--client-id',
        'sandbox-client',
        '--only',
        'listSites 200,listZones 200,listAlerts 200,listSiteDatacenters 200,listSitePhpVersions 200,getAccount 200',
        '--request-timeout',
        String(DEADLINE_MS),
        '--exclude-checks',
        'response_coverage',
        '--json',
        join(dir, 'run.json'),
        '--junit',
        join(dir, 'run.xml'),
      ],
      { CONTRACT_CLIENT_SECRET: 'sandbox-secret', CONTRACT_MAX_RESPONSE_BYTES: String(CAP), CONTRACT_AUTH_PROBES: '0' },
    );
    cases = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')).checks;
  }, 120_000);

  const failure = (operation: string) =>
    cases
      .filter((c) => c.operation === operation && c.outcome === 'failed')
      .flatMap((c) => (c.failures ?? []).map((f) => f.message))
      .join('\n');

  it('fails each case on its own and still writes both reports', () => {
    expect(run.code, run.output.slice(-3000)).toBe(1);
    expect(existsSync(join(dir, 'run.xml'))).toBe(true);
    expect(readFileSync(join(dir, 'run.xml'), 'utf8')).toContain('listSitePhpVersions');
  });

  it('stops reading an endless body at the size cap', () => {
    expect(failure('listSites')).toMatch(new RegExp(`over ${CAP} bytes`));
  });

  it('refuses a huge body by its declared length', () => {
    expect(failure('listZones')).toMatch(/over \d+ bytes \(Content-Length 3221225472\)/);
  });

  it('gives up on a trickle at the wall-clock deadline', () => {
    expect(failure('listAlerts')).toMatch(new RegExp(`no complete answer within ${DEADLINE_MS} ms`));
  });

  it('does not follow a redirect: the 302 is the answer checked', () => {
    expect(failure('listSiteDatacenters')).toMatch(/status 302, expected 200/);
  });

  it('fails a wrong Content-Type on its operation and goes on', () => {
    expect(failure('listSitePhpVersions')).toMatch(/content-type|text\/html/i);
    // The run went on past it: the operation the target answers well passed.
    expect(cases.find((c) => c.operation === 'getAccount')?.outcome).toBe('passed');
  });

  it('stays under 300 MB', () => {
    if (run.maxRssKb === undefined) return; // no GNU time on this machine
    expect(run.maxRssKb).toBeLessThan(300 * 1024);
  });
});
