// The CLI (built dist/cli.js; turbo builds before testing): help, argument errors, startup line.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadFixture, seedState } from '../src/index.js';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 20_000 });

describe('hosting-api-sandbox', () => {
  it('prints help and exits 0', () => {
    const r = run('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('--client-id ID');
    expect(r.stdout).toContain('/__sandbox/reset');
  });

  it('exits 2 with a message saying what to fix', () => {
    for (const [args, text] of [
      [['--port', 'abc'], '--port must be an integer'],
      [['--speed=-1'], '--speed must be a number'],
      [['--speed', '-1'], '--speed needs a value (write --speed=VALUE for one that starts with "-")\nRun with'],
      [['--client-id', 'x'], '--client-id and --client-secret go together'],
      [['--bogus'], "Unknown option '--bogus'"],
      [['--seed', '/no/such/file.json', '--port', '0'], 'Cannot read seed fixture'],
      [['--webhook-url', 'ftp://x'], '--webhook-url must be an http(s) URL'],
      [['--cors', 'http://127.0.0.1:5173/app'], '--cors takes origins such as http://127.0.0.1:5173'],
      [['--cors', 'localhost:5173'], '--cors takes origins such as'],
      [['--cors-control', 'evil'], '--cors-control takes origins such as'],
      [['--fault', 'getSite'], '--fault takes TARGET:KIND'],
      [['--fault', 'getSite:status=503,often=1'], '--fault option "often=1"'],
      [['--outcome', 'git_deploy_failed'], '--outcome takes NAME:SITE_ID[:COUNT]'],
    ] as const) {
      const r = run(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(text);
    }
  });

  it('seed files: a byte order mark is read; __proto__ and deep nesting are refused, naming the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const state = seedState(Date.parse('2026-11-02T09:00:00Z'));
    expect(loadFixture(file('bom.json', `\uFEFF${JSON.stringify(state)}`))).toEqual(state);
    const proto = file('proto.json', JSON.stringify(state).replace('{', '{"__proto__": {"polluted": true},'));
    expect(() => loadFixture(proto)).toThrow(
      `Seed fixture ${proto} is not a sandbox state: (the fixture).__proto__: not allowed (a state has no such key)`,
    );
    // Valid but for a value 100,000 levels deep where any JSON goes (a DNS record's ssl details):
    // copying it would overflow the stack, far from the file's name.
    const nested = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const withSsl = { ...state, dnsRecords: [{ ...state.dnsRecords[0]!, ssl: { deep: 'DEEP' } }] };
    const deep = file('deep.json', JSON.stringify(withSsl).replace('"DEEP"', nested));
    expect(() => loadFixture(deep)).toThrow(`Cannot read seed fixture ${deep}: nested deeper than 64 levels`);
  });

  it('refuses an outcome its site cannot produce in one line, without a stack', () => {
    const r = run('--port', '0', '--outcome', 'git_deploy_failed:123461');
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      'hosting-api-sandbox: --outcome: outcome.site_id: site 123461 is not enrolled in git (its git deploys answer 422), so it cannot produce git_deploy_failed',
    );
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });

  it('starts, prints the URL and the credentials, and answers', async () => {
    const child = spawn(
      process.execPath,
      [cli, '--port', '0', '--client-id', 'ci', '--client-secret', 'cs', '--cors'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const out = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout.on('data', (c) => {
          text += c;
          if (text.includes('sandbox-limited')) resolve(text);
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      expect(out).toContain('ci / cs → authorized owner git_edit');
      expect(out).toMatch(/CORS: +any origin/); // a bare --cors, last on the line
      const url = /API:\s+(\S+)/.exec(out)?.[1];
      const res = await fetch(`${url}/account`);
      expect(res.status).toBe(401);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('warns when it binds an address that is not loopback', () => {
    // 192.0.2.1 (TEST-NET-1) is on no interface here: the warning comes, then the bind fails.
    const r = run('--host', '192.0.2.1', '--port', '0');
    expect(r.stderr.split('\n')[0]).toBe(
      'hosting-api-sandbox: warning: binding 192.0.2.1, not a loopback address: other machines can reach the sandbox (its API, and its control routes with Host 192.0.2.1)',
    );
    expect(r.status).toBe(2);
    expect(run('--help').stderr).toBe('');
  });

  it('on SIGTERM finishes a request in flight, refuses new ones, and exits 0', async () => {
    // The request is held 1.5 s by a delay fault: SIGTERM comes while it is in flight.
    const child = spawn(process.execPath, [cli, '--port', '0', '--speed', '0', '--fault', 'listAlerts:delay=1500'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /API:\s+(\S+)\/v1/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const token = await fetch(`${url}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=sandbox-client&client_secret=sandbox-secret',
    }).then(async (r) => ((await r.json()) as { data: { access_token: string } }).data.access_token);
    const inFlight = fetch(`${url}/v1/alerts`, { headers: { authorization: `Bearer ${token}` } });
    // The fault's count shows when the server holds the request.
    for (;;) {
      const faults = (await (await fetch(`${url}/__sandbox/faults`)).json()) as { data: unknown[] };
      if (faults.data.length === 0) break; // applied once: the rule is used up
    }
    child.kill('SIGTERM');
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    expect(await exited).toBe(0);
    await expect(fetch(`${url}/__sandbox/clock`)).rejects.toThrow();
  });
});
