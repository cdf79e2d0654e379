// The CLI's guards, through the built executable against one sandbox and a few hostile servers:
// destructive commands (no terminal: refused without --yes; under a pseudo-terminal made by
// util-linux `script`: `n` changes nothing, `y` deletes), --dry-run (a server that records every
// request sees none), the network bounds (a silent, a trickling and an endless server: the network
// exit status within the timeout, under 200 MB of RSS), the base URL check and named profiles.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Sandbox, startSandbox } from '@hosting-api/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PEAK_RSS } from './peak-rss.js';

const SECRET = 'sandbox-secret';
const bin = fileURLToPath(new URL('../bin/hosting-api.js', import.meta.url));
let sb: Sandbox;
let env: Record<string, string>;
const servers: http.Server[] = [];
let printed = '';

interface Result {
  code: number;
  out: string;
  err: string;
  ms: number;
}

/** The built executable; `tty`: under a pseudo-terminal (`script`), `stdin` typed into it. */
function cli(args: string[], options: { env?: Record<string, string>; stdin?: string; tty?: boolean } = {}) {
  const started = performance.now();
  const quoted = [process.execPath, `--import=${PEAK_RSS}`, bin, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`);
  const child = options.tty
    ? spawn('script', ['-qfec', quoted.join(' '), '/dev/null'], { env: { ...env, ...options.env } })
    : spawn(process.execPath, [`--import=${PEAK_RSS}`, bin, ...args], { env: { ...env, ...options.env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  child.stdin.end(options.stdin ?? '');
  return new Promise<Result & { rss: number }>((resolve) =>
    child.on('close', (code) => {
      printed += out + err;
      const all = out + err;
      const rss = Number(/maxrss=(\d+)/.exec(all)?.[1] ?? 0);
      const strip = (s: string) => s.replace(/maxrss=\d+\r?\n/, '');
      resolve({ code: code ?? -1, out: strip(out), err: strip(err), ms: performance.now() - started, rss });
    }),
  );
}

async function listen(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function newNote(subject: string): Promise<number> {
  const r = await cli(['sites', 'notes', 'create', '123456', '--subject', subject, '--body', 'b', '--json']);
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out).id;
}

beforeAll(async () => {
  sb = await startSandbox({ port: 0, speed: 0 });
  env = {
    PATH: process.env.PATH ?? '',
    HOSTING_API_BASE_URL: sb.url,
    HOSTING_API_AUTH_URL: sb.authUrl,
    HOSTING_API_CLIENT_ID: 'sandbox-client',
    HOSTING_API_CLIENT_SECRET: SECRET,
    XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cli-guard-')),
  };
});

afterAll(async () => {
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  await sb?.stop();
  expect(printed).not.toContain(SECRET);
});

describe('destructive commands', () => {
  it('without a terminal: refused without --yes in one line (exit 2), nothing changed; --yes deletes', async () => {
    const id = await newNote('Keep me');
    const refused = await cli(['sites', 'notes', 'delete', '123456', String(id)]);
    expect(refused.code).toBe(2);
    expect(refused.err).toBe(
      `error: DELETE /sites/123456/notes/${id} (deleteSiteNote) is destructive: pass --yes to run it without a terminal (nothing was sent)\n`,
    );
    expect((await cli(['sites', 'notes', 'get', '123456', String(id)])).code).toBe(0);
    // Not only DELETEs: what the spec marks x-destructive (a restore) too.
    const restore = await cli(['sites', 'restores', 'create', '123456', '--filesystem_id', '1', '--database_id', '1']);
    expect([restore.code, restore.err]).toEqual([
      2,
      expect.stringMatching(/^error: POST \/sites\/123456\/restores \(createSiteRestore\) is destructive/),
    ]);
    expect((await cli(['sites', 'notes', 'delete', '123456', String(id), '--yes'])).code).toBe(0);
    expect((await cli(['sites', 'notes', 'get', '123456', String(id)])).code).toBe(5);
  });

  it('a GET the spec states an effect for (the SSH disconnect) asks like a destructive one', async () => {
    const refused = await cli(['sites', 'ssh', 'disconnect', '123456']);
    expect([refused.code, refused.err]).toEqual([
      2,
      'error: GET /sites/123456/disconnect-ssh (getSiteDisconnectSsh) is not only a read (terminated: SSH connections): pass --yes to run it without a terminal (nothing was sent)\n',
    ]);
    const raw = await cli(['api', 'GET', '/sites/123456/cms/db-admin-url']);
    expect(raw.code).toBe(2);
    expect(raw.err).toContain('is not only a read (issued: time-limited database-admin URL)');
    expect((await cli(['sites', 'ssh', 'disconnect', '123456', '--yes'])).code).toBe(0);
    // A safe GET does not ask.
    expect((await cli(['sites', 'get', '123456'])).code).toBe(0);
  });

  it('under a pseudo-terminal: shows what the read answers and asks; n aborts (exit 2, nothing changed), y deletes', async () => {
    const id = await newNote('Ask first');
    const no = await cli(['sites', 'notes', 'delete', '123456', String(id)], { tty: true, stdin: 'n\n' });
    expect(no.code).toBe(2);
    expect(no.out).toContain(`DELETE /sites/123456/notes/${id} (deleteSiteNote) is destructive`);
    expect(no.out).toContain(`It acts on id: ${id}, subject: "Ask first"`);
    expect(no.out).toContain('aborted: nothing was changed');
    expect((await cli(['sites', 'notes', 'get', '123456', String(id)])).code).toBe(0);
    const yes = await cli(['sites', 'notes', 'delete', '123456', String(id)], { tty: true, stdin: 'y\n' });
    expect(yes.code, yes.out).toBe(0);
    expect((await cli(['sites', 'notes', 'get', '123456', String(id)])).code).toBe(5);
  });
});

describe('hosting-api api', () => {
  it('calls any operation by method and path, checked against the spec, with the same guard', async () => {
    const created = await cli(['api', 'POST', '/sites/123456/notes', '-f', 'subject=Raw', '-f', 'body=call']);
    expect(created.code, created.err).toBe(0);
    const note = JSON.parse(created.out);
    expect(note).toMatchObject({ message: 'Success', data: { subject: 'Raw', body: 'call' } });
    const page = JSON.parse((await cli(['api', 'get', '/sites/123456/notes', '-F', 'per_page=1'])).out);
    expect(page.page).toMatchObject({ perPage: 1 });
    const all = JSON.parse((await cli(['api', 'GET', '/v1/sites/123456/notes', '--paginate', '-F', 'per_page=1'])).out);
    expect(all.map((n: { subject: string }) => n.subject)).toContain('Raw');
    const path = `/sites/123456/notes/${note.data.id}`;
    const refused = await cli(['api', 'DELETE', path]);
    expect([refused.code, refused.err]).toEqual([
      2,
      `error: DELETE ${path} (deleteSiteNote) is destructive: pass --yes to run it without a terminal (nothing was sent)\n`,
    ]);
    expect((await cli(['api', 'GET', path])).code).toBe(0);
    expect((await cli(['api', 'DELETE', path, '--yes'])).code).toBe(0);
    expect((await cli(['api', 'GET', path])).code).toBe(5);
    for (const [args, message] of [
      [['PATCH', '/sites/123456'], 'the spec has no PATCH /sites/{site_id} (it has GET, PUT, DELETE)'],
      [['GET', '/nowhere'], 'the spec has no path /nowhere; see `hosting-api --help` for the commands'],
      [['GET', '/sites/abc'], 'site_id in /sites/{site_id} must be an integer (got "abc")'],
      [['POST', '/auth/token'], 'POST /auth/token is a token operation: use `hosting-api auth login`/`logout`'],
    ] as const) {
      const r = await cli(['api', ...args]);
      expect([r.code, r.err]).toEqual([2, `error: ${message}\n`]);
    }
  });
});

describe('--dry-run', () => {
  it('prints method, URL, headers with the token masked and the body; a recording server sees nothing', async () => {
    const seen: string[] = [];
    const url = await listen((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(500).end();
    });
    const target = { HOSTING_API_BASE_URL: `${url}/v1`, HOSTING_API_AUTH_URL: url };
    const create = await cli(['sites', 'notes', 'create', '123456', '--subject', 'S', '--body', 'B', '--dry-run'], {
      env: target,
    });
    expect(create.code, create.err).toBe(0);
    expect(create.out).toBe(
      `POST ${url}/v1/sites/123456/notes\naccept: application/json\ncontent-type: application/json\nauthorization: Bearer ***\n\n{\n  "subject": "S",\n  "body": "B"\n}\n`,
    );
    const del = await cli(['sites', 'delete', '200002', '--dry-run'], { env: target });
    expect([del.code, del.out.split('\n')[0]]).toEqual([0, `DELETE ${url}/v1/sites/200002`]);
    const secret = await cli(['sites', 'git', 'storeToken', '123456', '--token', 'ghp_secretvalue', '--dry-run'], {
      env: target,
    });
    expect(secret.out).toContain('"token": "***"');
    expect(secret.out).not.toContain('ghp_secretvalue');
    const raw = await cli(['api', 'DELETE', '/sites/200002', '--dry-run'], { env: target });
    expect([raw.code, raw.out.split('\n')[0]]).toEqual([0, `DELETE ${url}/v1/sites/200002`]);
    const home = mkdtempSync(join(tmpdir(), 'cli-dry-'));
    const login = await cli(['auth', 'login', '--client-id', 'sandbox-client', '--dry-run'], {
      env: { ...target, XDG_CONFIG_HOME: home },
      stdin: `${SECRET}\n`,
    });
    expect(login.code, login.err).toBe(0);
    expect(login.out).toContain('client_secret=***');
    expect(() => statSync(join(home, 'hosting-api'))).toThrow(); // nothing stored
    expect(seen).toEqual([]);
  });
});

describe('network bounds', () => {
  it('a silent, a trickling and an endless server: exit 8 in one line within the timeout, under 200 MB RSS', async () => {
    const silent = await listen(() => {});
    const trickle = await listen((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"message":"');
      const timer = setInterval(() => res.write('a'), 50);
      res.on('close', () => clearInterval(timer));
    });
    const endless = await listen((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        while (res.write(chunk)) {}
      };
      res.on('drain', pump);
      pump();
    });
    const run = (url: string, extra: string[] = [], more: Record<string, string> = {}) =>
      cli(['sites', 'get', '123456', '--retries', '0', ...extra], {
        env: { HOSTING_API_BASE_URL: `${url}/v1`, HOSTING_API_AUTH_URL: url, ...more },
      });
    const [a, b, c, d] = await Promise.all([
      run(silent, ['--timeout', '1s']),
      run(trickle, [], { HOSTING_API_TIMEOUT: '1s' }),
      run(endless, ['--timeout', '20s']),
      run(endless, ['--timeout', '20s', '--max-size', '64KiB']),
    ]);
    console.log(
      `silent ${a.ms.toFixed(0)} ms ${(a.rss / 2 ** 20).toFixed(0)} MB; trickle ${b.ms.toFixed(0)} ms ${(b.rss / 2 ** 20).toFixed(0)} MB; endless ${c.ms.toFixed(0)} ms ${(c.rss / 2 ** 20).toFixed(0)} MB; endless 64KiB ${d.ms.toFixed(0)} ms ${(d.rss / 2 ** 20).toFixed(0)} MB`,
    );
    for (const r of [a, b, c, d]) {
      expect(r.code, r.err).toBe(8);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.rss).toBeLessThan(200 * 1024 * 1024);
    }
    // The token request is the first to hang: the timeout is per attempt.
    expect(a.err).toMatch(/^error: POST .*\/auth\/token timed out after 1000 ms/);
    expect(b.err).toMatch(/timed out after 1000 ms/);
    // Far under the trickle's endless drip: the deadline is per attempt, not per chunk (a loaded
    // machine's wall time is no measure of the 1 s itself, which the messages above state).
    expect(a.ms).toBeLessThan(15_000);
    expect(b.ms).toBeLessThan(15_000);
    expect(c.err).toMatch(/the answer is larger than 33554432 bytes \(raise --max-size or HOSTING_API_MAX_SIZE\)/);
    expect(d.err).toMatch(/the answer is larger than 65536 bytes/);
    const bad = await cli(['sites', 'get', '1', '--timeout', 'soon']);
    expect([bad.code, bad.err]).toEqual([
      2,
      'error: --timeout must be a duration such as 90, 90s, 5m or 1h (got "soon")\n',
    ]);
  });
});

describe('addresses and profiles', () => {
  it('a base URL without /v1: the gate’s message, exit 2', async () => {
    const r = await cli(['sites', 'list'], { env: { HOSTING_API_BASE_URL: 'http://127.0.0.1:9/api' } });
    expect([r.code, r.err]).toEqual([
      2,
      "error: --base-url must end in /v1, the API's version path (got http://127.0.0.1:9/api); for example http://127.0.0.1:9/v1.\n",
    ]);
  });

  it('auth login --profile: its own 0600 files in a 0700 directory; an existing config dir is tightened; --profile and HOSTING_API_PROFILE pick it', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cli-profile-'));
    const config = join(home, 'hosting-api');
    mkdirSync(config, { mode: 0o755 });
    chmodSync(config, 0o755);
    const noCredentials = { XDG_CONFIG_HOME: home, HOSTING_API_CLIENT_ID: '', HOSTING_API_CLIENT_SECRET: '' };
    const login = await cli(['auth', 'login', '--profile', 'staging', '--client-id', 'sandbox-client'], {
      env: noCredentials,
      stdin: `${SECRET}\n`,
    });
    expect(login.code, login.err).toBe(0);
    expect(login.out).toContain('in profile staging');
    const file = join(config, 'profiles', 'staging', 'credentials.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    for (const dir of [config, join(config, 'profiles'), join(config, 'profiles', 'staging')])
      expect(statSync(dir).mode & 0o777, dir).toBe(0o700);
    // The default profile has nothing; the named one works by flag and by variable.
    expect((await cli(['sites', 'get', '123456'], { env: noCredentials })).code).toBe(4);
    expect((await cli(['sites', 'get', '123456', '--profile', 'staging'], { env: noCredentials })).code).toBe(0);
    const status = await cli(['auth', 'status', '--json'], {
      env: { ...noCredentials, HOSTING_API_PROFILE: 'staging' },
    });
    expect(JSON.parse(status.out)).toMatchObject({ profile: 'staging', clientId: 'sandbox-client' });
    const bad = await cli(['auth', 'status', '--profile', '../x'], { env: noCredentials });
    expect(bad.code).toBe(2);
  });
});
