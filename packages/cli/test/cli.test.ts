// The CLI against one sandbox (frozen clock): the command layer in-process (run()), and the built
// executable where a process is needed (exit status, the secret prompt on stdin, file modes).
import { execFile, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Sandbox, startSandbox } from '@hosting-api/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs script without types
import { ensureDebianPrograms } from '../../../scripts/ensure-debian.mjs';
import { credentialsPath, operations, tokenPath } from '../src/index';
import { type CliResult, runCli } from './run-cli';

const SECRET = 'sandbox-secret';
/** zsh and fish for the completion tests (bash is always there): from Debian's packages when missing. */
const shells: { skip?: string } = ensureDebianPrograms({ '/usr/bin/zsh': 'zsh', '/usr/bin/fish': 'fish' });
if (shells.skip) console.warn(`completion tests in zsh and fish skipped: ${shells.skip}`);
/** A folder with a `hosting-api` that runs this package's executable, for the shells' PATH. */
const onPath = mkdtempSync(join(tmpdir(), 'hosting-api-path-'));
const bin = fileURLToPath(new URL('../bin/hosting-api.js', import.meta.url));
writeFileSync(join(onPath, 'hosting-api'), `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`);
chmodSync(join(onPath, 'hosting-api'), 0o755);
let sb: Sandbox;
let env: Record<string, string>;
/** Everything any run printed: the secret must never be in it. */
let printed = '';

type Result = CliResult;

/** One in-process run with the test's environment; everything printed is kept for the secret checks. */
async function cli(
  args: string[],
  options: { env?: Record<string, string | undefined>; stdin?: string; onErr?: (text: string) => void } = {},
): Promise<Result> {
  const r = await runCli(args, { ...options, env: { ...env, ...options.env } });
  printed += r.out + r.err;
  return r;
}

const json = async (args: string[]) => {
  const r = await cli([...args, '--json']);
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out);
};

/** The built executable, with stdin piped. */
function spawnCli(
  args: string[],
  options: { env: Record<string, string | undefined>; stdin?: string },
): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env: options.env as NodeJS.ProcessEnv });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('close', (code) => {
      printed += out + err;
      resolve({ code: code ?? -1, out, err });
    });
    child.stdin.end(options.stdin ?? '');
  });
}

/** A server that answers every API call with a 500 envelope, and counts the calls. */
let stub: http.Server;
let stubUrl: string;
let stubCalls = 0;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, speed: 0 });
  env = {
    HOSTING_API_BASE_URL: sb.url,
    HOSTING_API_AUTH_URL: sb.authUrl,
    HOSTING_API_CLIENT_ID: 'sandbox-client',
    HOSTING_API_CLIENT_SECRET: SECRET,
    XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'hosting-api-cli-')),
  };
  stub = http.createServer((req, res) => {
    const token = req.url === '/auth/token';
    if (!token) stubCalls++;
    res.writeHead(token ? 200 : 500, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        token
          ? {
              message: 'Success',
              data: { access_token: 'stub-token', token_type: 'Bearer', expires_in: 3600 },
              errors: null,
            }
          : { message: 'Internal Server Error', data: null, errors: ['the stub always fails'] },
      ),
    );
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
  stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await sb?.stop();
  await new Promise((r) => stub?.close(r));
  expect(printed).not.toContain(SECRET);
});

describe('commands from the spec', () => {
  it('has one command per operation of the bundled spec, with its help', async () => {
    const spec = JSON.parse(
      readFileSync(fileURLToPath(import.meta.resolve('@hosting-api/openapi/openapi.json')), 'utf8'),
    );
    const methods = Object.values(spec.paths as Record<string, Record<string, { 'x-client-method'?: string }>>)
      .flatMap((item) => Object.values(item))
      .map((o) => o['x-client-method'])
      .filter(Boolean);
    expect(operations.map((o) => o.clientMethod).sort()).toEqual([...methods].sort());
    const kebab = (m: string) => m.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`).split('.');
    for (const o of operations) expect(o.words).toEqual(kebab(o.clientMethod));
    const help = await cli(['sites', 'notes', 'create', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: hosting-api sites notes create [options] <site_id>');
    expect(help.out).toContain('Create a note');
    expect(help.out).toContain('POST /sites/{site_id}/notes (createSiteNote)');
    expect(help.out).toMatch(/--subject <string>/);
    expect((await cli(['sites', 'backups', 'ondemand', 'create', '--help'])).out).toContain('--backup_type <fs|db>');
  });

  it('lists as a table, and --json prints the data', async () => {
    const table = await cli(['sites', 'list']);
    expect(table.code).toBe(0);
    const [header, ...rows] = table.out.trimEnd().split('\n');
    expect(header).toMatch(/^ID\s+Display name\s+Name\s+State\s+Created\s+Account ID\s+Collaborators count\s/);
    expect(rows.find((r) => r.startsWith('123456'))).toMatch(/ada-blog\s+live/);
    const data = await json(['sites', 'list']);
    expect(data.map((s: { id: number }) => s.id)).toContain(123460);
    expect(rows).toHaveLength(data.length);
    const ids = await cli(['sites', 'list', '--columns', 'id,state', '--no-headers']);
    expect(ids.out.split('\n')[0]).toMatch(/^123456 +live$/);
  });

  it('--columns picks the fields of one object too; with --no-headers, the values alone', async () => {
    const picked = await cli(['sites', 'get', '123456', '--columns', 'state,id,collaboratorsCount']);
    expect(picked).toMatchObject({
      code: 0,
      out: 'state               live\nid                  123456\ncollaboratorsCount  2\n',
    });
    const values = await cli(['sites', 'get', '123456', '--columns', 'id,state', '--no-headers']);
    expect(values.out).toBe('123456\nlive\n');
  });

  it('groups and commands are kebab-case; the client spelling is a hidden alias', async () => {
    const help = await cli(['--help']);
    expect(help.out).toMatch(/^ {2}mu-plugins +Must-use plugins/m);
    expect(help.out).not.toContain('muPlugins');
    const sites = await cli(['sites', '--help']);
    expect(sites.out).toMatch(/^ {2}convert-to-kit <site_id> /m);
    expect(sites.out).not.toMatch(/convertToKit|\|/);
    const kebab = await json(['mu-plugins', 'list']);
    expect(kebab.length).toBeGreaterThan(0);
    expect(await json(['muPlugins', 'list'])).toEqual(kebab);
    const usage = await cli(['muPlugins', 'get', '--help']);
    expect(usage.out).toContain('Usage: hosting-api mu-plugins get [options] <mu_plugin_id>');
  });

  it('creates, reads, updates and deletes a note', async () => {
    const note = await json(['sites', 'notes', 'create', '123456', '--subject', 'Deploy', '--body', 'Friday']);
    expect(note).toMatchObject({ subject: 'Deploy', body: 'Friday' });
    const updated = await json([
      'sites',
      'notes',
      'update',
      '123456',
      String(note.id),
      '--subject',
      'Deploy',
      '--body',
      'Monday',
    ]);
    expect(updated.body).toBe('Monday');
    expect((await json(['sites', 'notes', 'get', '123456', String(note.id)])).body).toBe('Monday');
    const shown = await cli(['sites', 'notes', 'get', '123456', String(note.id)]);
    expect(shown.out).toMatch(/^subject\s+Deploy$/m);
    expect((await cli(['sites', 'notes', 'delete', '123456', String(note.id), '--yes'])).code).toBe(0);
    const gone = await cli(['sites', 'notes', 'get', '123456', String(note.id)]);
    expect(gone.code).toBe(5);
    expect(gone.err).toBe('error: We could not locate the requested resources. (HTTP 404)\n');
  });

  it('takes a whole body with --data @file and --data -, flags over it', async () => {
    const file = join(env.XDG_CONFIG_HOME!, 'note.json');
    writeFileSync(file, JSON.stringify({ subject: 'From a file', body: 'file body' }));
    expect(await json(['sites', 'notes', 'create', '123456', '--data', `@${file}`])).toMatchObject({
      subject: 'From a file',
    });
    const r = await cli(['sites', 'notes', 'create', '123456', '--data', '-', '--body', 'flag body', '--json'], {
      stdin: '{"subject": "From stdin", "body": "stdin body"}',
    });
    expect(JSON.parse(r.out)).toMatchObject({ subject: 'From stdin', body: 'flag body' });
    const bad = await cli(['sites', 'notes', 'create', '123456', '--data', '{"subject": 5, "body": "x"}']);
    expect([bad.code, bad.err]).toEqual([2, 'error: --data: subject must be a string (got 5)\n']);
  });

  it('--paginate walks every page; one page says how to get the next', async () => {
    const all = await json(['sites', 'list']);
    const one = await cli(['sites', 'list', '--per_page', '2']);
    expect(one.out.trimEnd().split('\n')).toHaveLength(3);
    expect(one.err).toBe(
      `page 1 of ${Math.ceil(all.length / 2)} (${all.length} items): --page 2 for the next, --paginate for all\n`,
    );
    const walked = await json(['sites', 'list', '--paginate', '--per_page', '2']);
    expect(walked.map((s: { id: number }) => s.id)).toEqual(all.map((s: { id: number }) => s.id));
    const notes = await json(['sites', 'notes', 'list', '123456', '--paginate', '--per_page', '1']);
    expect(notes.length).toBeGreaterThanOrEqual(2);
  });

  it('--wait follows a site deploy until its state changes; --timeout gives up with 9', async () => {
    let advanced = false;
    const r = await cli(['sites', 'create', '--name', 'waited', '--wait', '--json'], {
      // The sandbox's clock is frozen: the deploy completes when the test moves it.
      onErr: (text) => {
        if (!advanced && text.includes('waiting while state is "deploying"')) {
          advanced = true;
          sb.advance(30_000);
        }
      },
    });
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ name: 'waited', state: 'live' });
    expect(r.err).toContain('state: "deploying" → "live"');
    const late = await cli(['sites', 'create', '--name', 'late', '--wait', '--wait-timeout', '100ms']);
    expect(late.code).toBe(9);
    expect(late.err).toMatch(/--wait: state is still "deploying" after 0.1s; raise --wait-timeout/);
    sb.advance(30_000);
  });
});

describe('typed flags: checked before anything is sent', () => {
  it.each([
    [
      ['sites', 'backups', 'ondemand', 'create', '123456', '--backup_type', 'full'],
      '--backup_type must be one of fs, db (got "full")',
    ],
    [['sites', 'notes', 'list', '123456', '--per_page', 'ten'], '--per_page must be an integer (got "ten")'],
    [['sites', 'notes', 'list', '123456', '--page', '0'], '--page must be at least 1 (got 0)'],
    [['sites', 'get', '12x'], 'site_id must be an integer (got "12x")'],
    [
      ['sites', 'notes', 'create', '123456', '--subject', 'x'],
      'missing --body: `sites notes create` requires it (or give the whole body with --data)',
    ],
    [
      ['sites', 'create', '--wait', '--wait-timeout', 'soon'],
      '--wait-timeout must be a duration such as 90, 90s, 5m or 1h (got "soon")',
    ],
    [['sites', 'notes', 'list', '123456', '--bogus'], "unknown option '--bogus'"],
  ])('%j', async (args, message) => {
    const before = stubCalls;
    const r = await cli(args, { env: { HOSTING_API_BASE_URL: `${stubUrl}/v1`, HOSTING_API_AUTH_URL: stubUrl } });
    expect(r.code).toBe(2);
    expect(r.err.split('\n')[0]).toBe(`error: ${message}`);
    expect(stubCalls).toBe(before);
  });
});

describe('hosting-api api and absolute URLs', () => {
  it('calls a URL under the configured API; refuses another origin or path in one line', async () => {
    const site = await cli(['api', 'GET', `${sb.url}/sites/123456`]);
    expect(site.code, site.err).toBe(0);
    expect(JSON.parse(site.out).data.id).toBe(123456);
    for (const url of [`${stubUrl}/v1/sites/123456`, `${sb.url.replace('/v1', '')}/sites/123456`, 'file:///v1/sites']) {
      const r = await cli(['api', 'GET', url]);
      expect([r.code, r.err]).toEqual([
        2,
        `error: ${url} is not on the configured API (${sb.url}): give a path such as /sites, or a URL under ${sb.url}\n`,
      ]);
    }
  });
});

describe('exit statuses', () => {
  it('4 for 401/403, refused credentials and none', async () => {
    const limited = await cli(['sites', 'convertToKit', '123458'], {
      env: { HOSTING_API_CLIENT_ID: 'sandbox-limited', HOSTING_API_CLIENT_SECRET: 'sandbox-limited-secret' },
    });
    expect(limited.code).toBe(4);
    expect(limited.err).toMatch(/^error: .+ \(HTTP 403\)\n/);
    const wrong = await cli(['sites', 'list'], { env: { HOSTING_API_CLIENT_SECRET: 'not-the-secret' } });
    expect(wrong.code).toBe(4);
    expect(wrong.err).toBe(
      'error: There was a problem processing your request. (HTTP 400)\n  - Invalid client credentials.\n',
    );
    const none = await cli(['sites', 'list'], {
      env: { HOSTING_API_CLIENT_ID: undefined, HOSTING_API_CLIENT_SECRET: undefined },
    });
    expect([none.code, none.err]).toEqual([
      4,
      'error: no credentials: set HOSTING_API_CLIENT_ID and HOSTING_API_CLIENT_SECRET, or run `hosting-api auth login`\n',
    ]);
  });

  it('6 for another 4xx, with the API message and errors lines', async () => {
    const r = await cli(['sites', 'git', 'get', '123461']);
    expect(r.code).toBe(6);
    expect(r.err).toBe(
      'error: Unprocessable Entity (HTTP 422)\n  - The site is not enrolled in the new git integration.\n',
    );
  });

  it('7 for 5xx and 8 for no answer', async () => {
    const server = await cli(['sites', 'list', '--retries', '0'], {
      env: { HOSTING_API_BASE_URL: `${stubUrl}/v1`, HOSTING_API_AUTH_URL: stubUrl },
    });
    expect([server.code, server.err]).toEqual([
      7,
      'error: Internal Server Error (HTTP 500)\n  - the stub always fails\n',
    ]);
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const network = await cli(['sites', 'list', '--retries', '0', '--base-url', `http://127.0.0.1:${port}/v1`]);
    expect(network.code).toBe(8);
    expect(network.err).toMatch(/^error: GET http:\/\/127\.0\.0\.1:\d+\/v1\/sites failed: .*ECONNREFUSED/);
    expect(network.err.split('\n')).toHaveLength(2); // one line, no stack
  });

  it('the executable exits with them too', async () => {
    const missing = await spawnCli(['sites', 'get', '999999'], { env: { ...process.env, ...env } });
    expect([missing.code, missing.err]).toEqual([
      5,
      'error: We could not locate the requested resources. (HTTP 404)\n',
    ]);
  });
});

describe('auth', () => {
  it('login prompts for the secret, stores it 0600, caches the token; logout revokes it and deletes both', async () => {
    const home = mkdtempSync(join(tmpdir(), 'hosting-api-login-'));
    const clean = { PATH: process.env.PATH, XDG_CONFIG_HOME: home };
    const login = await spawnCli(
      ['auth', 'login', '--client-id', 'sandbox-client', '--base-url', sb.url, '--auth-url', sb.authUrl],
      { env: clean, stdin: `${SECRET}\n` },
    );
    expect(login.code, login.err).toBe(0);
    expect(login.err).toBe('Client secret: \n');
    expect(login.out).toContain('Logged in as sandbox-client');
    const files = { env: clean as Record<string, string> };
    for (const path of [credentialsPath(files.env), tokenPath(files.env)])
      expect((statSync(path).mode & 0o777).toString(8), path).toBe('600');
    expect((statSync(join(home, 'hosting-api')).mode & 0o777).toString(8)).toBe('700');
    const token = JSON.parse(readFileSync(tokenPath(files.env), 'utf8')).accessToken;

    // Stored credentials and addresses, and the cached token: no environment needed, no new token.
    const listed = await cli(['sites', 'list', '--json'], {
      env: {
        ...clean,
        HOSTING_API_CLIENT_ID: undefined,
        HOSTING_API_CLIENT_SECRET: undefined,
        HOSTING_API_BASE_URL: undefined,
        HOSTING_API_AUTH_URL: undefined,
      },
    });
    expect(listed.code, listed.err).toBe(0);
    expect(JSON.parse(readFileSync(tokenPath(files.env), 'utf8')).accessToken).toBe(token);

    const logout = await cli(['auth', 'logout'], {
      env: { ...clean, HOSTING_API_CLIENT_ID: undefined, HOSTING_API_CLIENT_SECRET: undefined },
    });
    expect(logout.code, logout.err).toBe(0);
    expect(logout.out).toMatch(/^Logged out: token revoked; deleted .*credentials\.json, .*token\.json\n$/);
    expect(() => statSync(credentialsPath(files.env))).toThrow();
    const revoked = await fetch(`${sb.url}/account`, { headers: { authorization: `Bearer ${token}` } });
    expect(revoked.status).toBe(401);
  });

  it('a refused secret stores nothing', async () => {
    const home = mkdtempSync(join(tmpdir(), 'hosting-api-login-'));
    const r = await cli(['auth', 'login', '--client-id', 'sandbox-client'], {
      env: { XDG_CONFIG_HOME: home },
      stdin: 'wrong-secret\n',
    });
    expect(r.code).toBe(4);
    expect(() => statSync(credentialsPath({ XDG_CONFIG_HOME: home }))).toThrow();
    expect(r.out + r.err).not.toContain('wrong-secret');
  });
});

describe('the README', () => {
  it('its snapshot script requests both backups of every site, through the CLI on PATH', async () => {
    const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
    const script = /```sh\n(#!\/bin\/sh\n# snapshot-sites\.sh[\s\S]*?)```/.exec(readme)?.[1];
    expect(script, 'the README has the snapshot script').toBeDefined();
    const sites = (await json(['sites', 'list', '--paginate'])).map((site: { id: number }) => site.id);
    // Asynchronously: the sandbox answers from this process.
    const r = await new Promise<{ status: number | null; stdout: string; stderr: string }>((done) =>
      execFile(
        'sh',
        ['-c', script!],
        { env: { ...process.env, ...env, PATH: `${onPath}:${process.env.PATH}` } },
        (error, stdout, stderr) => done({ status: error ? (error.code as number) : 0, stdout, stderr }),
      ),
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').sort()).toEqual(
      sites.flatMap((id: number) => [`site ${id}: db backup requested`, `site ${id}: fs backup requested`]).sort(),
    );
    printed += r.stdout + r.stderr;
  });
});

describe('completion', () => {
  it('prints scripts for bash, zsh and fish that ask the CLI', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const r = await cli(['completion', shell]);
      expect(r.code).toBe(0);
      expect(r.out).toContain('hosting-api __complete');
    }
    expect((await cli(['completion', 'tcsh'])).code).toBe(2);
  });

  it('completes commands and flags from the spec', async () => {
    expect((await cli(['__complete', 'sites', 'no'])).out).toBe('notes\n');
    expect((await cli(['__complete', 'mu'])).out).toBe('mu-plugins\n');
    expect((await cli(['__complete', 'sites', 'convert-to-'])).out).toBe(
      'convert-to-kit\nconvert-to-live\nconvert-to-sandbox\nconvert-to-staging\n',
    );
    // Words typed in the old spelling still lead to the command's flags.
    expect((await cli(['__complete', 'muPlugins', 'list', '--per'])).out).toBe(
      (await cli(['__complete', 'mu-plugins', 'list', '--per'])).out,
    );
    expect((await cli(['__complete', 'sites', 'notes', 'list', '123456', '--p'])).out).toBe(
      '--page\n--paginate\n--per_page\n--profile\n',
    );
  });

  // The scripts in the shells themselves, with `hosting-api` on PATH as an installed CLI is: bash and
  // fish run their own completion (`COMPREPLY` from the function, fish's `complete -C`); zsh runs the
  // function with `compadd`/`compdef` stubbed, since its completion system needs a terminal.
  describe.each([
    [
      'bash',
      '/usr/bin/bash',
      (line: string[]) =>
        `eval "$(hosting-api completion bash)"; complete -p hosting-api; COMP_WORDS=(${line.join(' ')}); COMP_CWORD=${line.length - 1}; _hosting_api_complete; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    [
      'zsh',
      '/usr/bin/zsh',
      (line: string[]) =>
        `compdef() { print -r -- "complete: $*" }; compadd() { [[ $1 == -a ]] && print -rl -- "\${(@P)2}" }; eval "$(hosting-api completion zsh)"; words=(${line.join(' ')}); CURRENT=${line.length}; _hosting_api_complete`,
    ],
    [
      'fish',
      '/usr/bin/fish',
      (line: string[]) =>
        `hosting-api completion fish | source; echo complete: (complete -c hosting-api); complete -C '${line.join(' ')}'`,
    ],
  ] as const)('in %s', (shell, path, script) => {
    const complete = (line: string[]) => {
      const r = spawnSync(path, ['-c', script(line)], {
        encoding: 'utf8',
        env: { ...process.env, ...env, PATH: `${onPath}:${process.env.PATH}` },
      });
      expect(r.stderr).toBe('');
      return r.stdout.split('\n').filter(Boolean);
    };
    it.skipIf(shell !== 'bash' && !!shells.skip)('completes a group and the flags of a command', () => {
      const [registered, ...groups] = complete(['hosting-api', 'sites', 'no']);
      expect(registered).toMatch(/complete.*hosting-api/);
      expect(groups).toEqual(['notes']);
      expect(complete(['hosting-api', 'sites', 'notes', 'list', '123456', '--p']).slice(1)).toEqual([
        '--page',
        '--paginate',
        '--per_page',
        '--profile',
      ]);
    });
  });
});
