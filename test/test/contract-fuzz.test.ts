// The gate's command line and its fuzz phase against a server with one drift per fuzz check, in
// front of the sandbox: each drift must fail its own check on its own operation, a failure's
// curl reproducer must reproduce it, and configuration and reachability errors must give their
// exit code and one line. One sandbox and one drifting proxy for the whole file.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Sandbox, startSandbox } from '@hosting-api/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { contractPackage, listenLocal, relay, runContractCli } from './gate';

const gate = runContractCli;

/** A server in front of the sandbox with one drift for each fuzz check. */
function driftingServer(sandbox: Sandbox) {
  let delayed = false;
  const server = http.createServer((req, res) => {
    drift(req, res).catch((error) =>
      res.writeHead(502, { 'content-type': 'text/plain' }).end(`the drifting server broke: ${error.message}`),
    );
  });
  async function drift(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body = chunks.length ? Buffer.concat(chunks).toString('utf8') : undefined;
    const url = req.url ?? '/';
    const path = url.split('?')[0] ?? url;
    const method = req.method ?? 'GET';
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && !['host', 'content-length'].includes(k)) headers[k] = v;
    const json = (status: number, value: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    // use_after_delete: a note delete that answers success and deletes nothing.
    // (Only where the note can be read with the request's token: bad tokens still get 401.)
    if (method === 'DELETE' && /^\/v1\/sites\/\d+\/notes\/\d+$/.test(path)) {
      const readable = await fetch(`${sandbox.authUrl}${url}`, { headers });
      if (readable.status === 200) return json(200, { message: 'Success', data: null, errors: null });
    }
    // positive_data_acceptance: a note whose subject holds a digit breaks the server.
    const subject =
      method === 'POST' && /^\/v1\/sites\/\d+\/notes$/.test(path) ? JSON.parse(body ?? '{}').subject : undefined;
    if (typeof subject === 'string' && /\d/.test(subject))
      return json(500, { message: 'Internal error', data: null, errors: ['boom'] });
    // ignored_auth: the account without a token.
    if (path === '/v1/account' && !headers.authorization) headers.authorization = `Bearer ${await sandbox.token()}`;
    // filter_semantics: the search ignores its filters. negative_data_rejection: … and a bad page size.
    if (path === '/v1/sites/search' && body) {
      const { filters: _ignored, per_page, ...rest } = JSON.parse(body);
      body = JSON.stringify({ ...rest, ...(Number.isInteger(per_page) && per_page > 0 ? { per_page } : {}) });
    }
    // max_response_time: the first plugin list is slow.
    if (/^\/v1\/sites\/\d+\/plugins$/.test(path) && !delayed) {
      delayed = true;
      await new Promise((r) => setTimeout(r, 400));
    }
    const upstream = await fetch(`${sandbox.authUrl}${url}`, {
      method,
      headers,
      body: method === 'GET' ? undefined : body,
    });
    let text = await upstream.text();
    // ensure_resource_availability: the note list leaves out notes made after the seed.
    if (method === 'GET' && /^\/v1\/sites\/\d+\/notes$/.test(path) && upstream.status === 200) {
      const list = JSON.parse(text);
      list.data = list.data.filter((n: { id: number }) => n.id < 1000);
      text = JSON.stringify(list);
    }
    relay(res, upstream, text);
  }
  return listenLocal(server);
}

let sandbox: Sandbox;
let drifting: { url: string; close(): Promise<void> };
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, speed: 0, startTime: '2026-11-02T09:00:00.000Z' });
  drifting = await driftingServer(sandbox);
});
afterAll(async () => {
  await drifting?.close();
  await sandbox?.stop();
});

const live = () => ({
  CONTRACT_BASE_URL: `${drifting.url}/v1`,
  CONTRACT_AUTH_URL: drifting.url,
  CONTRACT_CLIENT_ID: sandbox.clients[0]!.clientId,
  CONTRACT_CLIENT_SECRET: sandbox.clients[0]!.clientSecret,
});

describe('hosting-api-contract fuzz against a drifting server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'contract-fuzz-'));
  const OPS = ['searchSites', 'createSiteNote', 'deleteSiteNote', 'getAccount', 'listSitePlugins', 'getSite'];
  let run: Awaited<ReturnType<typeof gate>>;
  let checks: {
    phase: string;
    check: string;
    operation?: string;
    outcome: string;
    expected?: unknown;
    actual?: unknown;
    curl?: string;
    input?: string;
  }[];
  beforeAll(async () => {
    run = await gate(
      [
        'fuzz',
        '--allow-writes',
        '--only',
        OPS.join(','),
        '--seed',
        '7',
        '--max-examples',
        '5',
        '--max-response-time',
        '300',
        '--json',
        join(dir, 'r.json'),
        '--junit',
        join(dir, 'r.xml'),
      ],
      live(),
    );
    checks = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).checks;
  }, 60_000);

  it('fails each drift in its own check and operation, and nothing else', () => {
    expect(run.code, run.output + run.stderr).toBe(1);
    const failed = [...new Set(checks.filter((c) => c.outcome === 'failed').map((c) => `${c.check} ${c.operation}`))];
    expect(failed.sort()).toEqual(
      [
        // The behaviour statement checks see four of the drifts too (contract-statements.test.ts has their own):
        // documented_rules sends per_page 0 (below its minimum), which the drift drops and answers.
        'create_listed createSiteNote',
        'documented_rules searchSites',
        'delete_gone deleteSiteNote',
        'list_filters searchSites',
        'ensure_resource_availability createSiteNote',
        'filter_semantics searchSites',
        'ignored_auth getAccount',
        'max_response_time listSitePlugins',
        'negative_data_rejection searchSites',
        'positive_data_acceptance createSiteNote',
        'use_after_delete deleteSiteNote',
      ].sort(),
    );
    // The other operations pass: getSite is the control.
    expect(checks.filter((c) => c.operation === 'getSite' && c.outcome === 'passed').length).toBeGreaterThan(0);
    const failures = checks.filter((c) => c.outcome === 'failed').length;
    expect(readFileSync(join(dir, 'r.xml'), 'utf8')).toMatch(
      new RegExp(`<testsuite name="fuzz" tests="\\d+" failures="${failures}"`),
    );
  });

  it('writes JUnit XML that the common JUnit schema accepts: failures with their check, skips with their reason', async () => {
    const xml = readFileSync(join(dir, 'r.xml'), 'utf8');
    const schema = readFileSync(join(__dirname, '../fixtures/junit.xsd'), 'utf8');
    const result = await validateXML({ xml: [{ fileName: 'r.xml', contents: xml }], schema: [schema] });
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    const failed = checks.filter((c) => c.outcome === 'failed').length;
    const skipped = checks.filter((c) => c.outcome === 'skipped').length;
    expect(xml).toContain(`<testsuites tests="${checks.length}" failures="${failed}" errors="0" skipped="${skipped}">`);
    expect(xml).toMatch(
      /<failure message="\[use_after_delete\] deleteSiteNote \(expected 404, actual 200\): [^"]+" type="use_after_delete"/,
    );
    if (skipped) expect(xml).toMatch(/<skipped message="[^"]+"\/>/);
    // A broken file fails the same check: a testcase without its name.
    const broken = await validateXML({
      xml: [{ fileName: 'b.xml', contents: xml.replace(/<testcase classname="[^"]*" name="[^"]*"/, '<testcase') }],
      schema: [schema],
    });
    expect(broken.valid).toBe(false);
  });

  it('shrinks a failing input to a minimal one, and its curl reproducer reproduces the failure', async () => {
    const positive = checks.find((c) => c.check === 'positive_data_acceptance' && c.outcome === 'failed')!;
    // Shrunk: a digit and at most one more character, the smallest kind of input that breaks it.
    expect(JSON.parse(positive.input!).body.subject).toMatch(/^.?\d.?$/);
    expect(positive.curl).toContain('Bearer $TOKEN');
    expect(positive.curl).not.toContain(sandbox.clients[0]!.clientSecret);
    // Asynchronously: the drifting server runs in this process.
    const { stdout: reply } = await promisify(execFile)('sh', ['-c', positive.curl!], {
      env: { ...process.env, TOKEN: await sandbox.token() },
    });
    expect(reply).toMatch(/^HTTP\/1\.1 500/);
    expect(run.output).toContain('TOKEN=$(curl');
    expect(run.output + run.stderr).not.toContain(sandbox.clients[0]!.clientSecret);
  });

  it('the same seed gives the same cases; under GitHub Actions, annotations at the spec given and a step summary', async () => {
    const summary = join(dir, 'summary.md');
    // The team's own copy of the spec (--spec): annotations point into it, never into node_modules.
    const teamSpec = join(dir, 'team-openapi.yaml');
    const fromGate = createRequire(join(contractPackage, 'package.json'));
    copyFileSync(fromGate.resolve('@hosting-api/openapi/openapi.yaml'), teamSpec);
    const again = await gate(
      [
        'fuzz',
        '--spec',
        teamSpec,
        '--allow-writes',
        '--only',
        'createSiteNote',
        '--seed',
        '7',
        '--max-examples',
        '5',
        '--json',
        join(dir, 'again.json'),
      ],
      { ...live(), GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
    );
    expect(again.output).toMatch(
      /^::error file=[^,]*team-openapi\.yaml,line=\d+,title=fuzz: positive_data_acceptance::.*createSiteNote/m,
    );
    expect(again.output).not.toContain('node_modules');
    expect(readFileSync(summary, 'utf8')).toMatch(/\| fuzz \| positive_data_acceptance \| createSiteNote \|/);
    const first = checks.find((c) => c.check === 'positive_data_acceptance' && c.operation === 'createSiteNote');
    const second = JSON.parse(readFileSync(join(dir, 'again.json'), 'utf8')).checks.find(
      (c: { check: string }) => c.check === 'positive_data_acceptance',
    );
    expect(again.code).toBe(1);
    expect(second.input).toBe(first!.input);
  });
});

describe('hosting-api-contract: configuration and reachability errors', () => {
  const oneLine = (text: string) => {
    expect(text.trim().split('\n')).toHaveLength(1);
    expect(text).not.toMatch(/\n\s+at /);
  };

  it('exits 2 for a base URL without /v1, an unknown check, and a secret given as a flag', async () => {
    const noV1 = await gate(['check'], { ...live(), CONTRACT_BASE_URL: drifting.url });
    expect(noV1.code).toBe(2);
    expect(noV1.stderr).toContain('--base-url must end in /v1');
    oneLine(noV1.stderr);
    const unknown = await gate(['fuzz', '--checks', 'no_such_check'], live());
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no check named no_such_check');
    oneLine(unknown.stderr);
    const secret = await gate(['check', '--client-secret', 'x'], live());
    expect(secret.code).toBe(2);
    expect(secret.stderr).toContain('only from CONTRACT_CLIENT_SECRET');
  });

  it('exits 2, in one line and before any request, for a selection that selects nothing or a report it cannot write', async () => {
    const seen: string[] = [];
    const target = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(500).end();
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    const env = { ...live(), CONTRACT_BASE_URL: `${url}/v1`, CONTRACT_AUTH_URL: url };
    try {
      for (const [args, text] of [
        [['fuzz', '--only', 'nope'], '--only: no operation "nope" in the spec'],
        [['check', '--only', 'getSite 999'], `"getSite 999" is not "<operationId>" or "<operationId> <status>"`],
        [['examples', '--min-coverage', '200'], '--min-coverage must be a percentage from 0 to 100'],
        [['check', '--junit', tmpdir()], `--junit: cannot write ${tmpdir()} (EISDIR)`],
      ] as const) {
        const r = await gate([...args], env);
        expect([r.code, args.join(' ')]).toEqual([2, args.join(' ')]);
        expect(r.stderr).toContain(text);
        expect(r.stderr.split('\n')[0]).toMatch(/^hosting-api-contract: /);
        expect(r.stderr).not.toContain('Usage:');
      }
      expect(seen).toEqual([]);
    } finally {
      target.close();
    }
    // The phases' own refusals speak as the command too: a token operation is not fuzzed, a workflow id that is not one.
    const token = await gate(['fuzz', '--sandbox', '--only', 'createAccessToken'], {});
    expect(token.code).toBe(2);
    expect(token.stderr).toMatch(/^hosting-api-contract: --only selects no operation this phase fuzzes/);
    expect(token.stderr).not.toContain('Usage:');
    // Its scratch folders go with it: none is left in its TMPDIR.
    const scratch = mkdtempSync(join(tmpdir(), 'gate-scratch-'));
    const workflow = await gate(['workflows', '--sandbox', '--workflow', 'nope'], { TMPDIR: scratch });
    expect(readdirSync(scratch)).toEqual([]);
    expect(workflow.code).toBe(2);
    expect(workflow.stderr).toMatch(
      /^hosting-api-contract: --workflow: no workflow "nope"; the workflows are .*notes-lifecycle/,
    );
    expect(workflow.stderr).not.toContain('Usage:');
  });

  it('exits 3 for wrong credentials, an HTML server and a refused connection', async () => {
    const wrong = await gate(['examples'], { ...live(), CONTRACT_CLIENT_SECRET: 'wrong' });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toContain('refused the credentials');
    oneLine(wrong.stderr);
    const html = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'),
    );
    await new Promise<void>((r) => html.listen(0, '127.0.0.1', r));
    const htmlUrl = `http://127.0.0.1:${(html.address() as AddressInfo).port}`;
    const page = await gate(['examples'], { ...live(), CONTRACT_AUTH_URL: htmlUrl });
    html.close();
    expect(page.code).toBe(3);
    expect(page.stderr).toContain('text/html');
    oneLine(page.stderr);
    const refused = await gate(['examples'], { ...live(), CONTRACT_AUTH_URL: htmlUrl });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('ECONNREFUSED');
    oneLine(refused.stderr);
  });

  it('fails, in every phase, what a target leaves unanswered past --request-timeout, instead of hanging, and prints no secret', async () => {
    // Tokens and the account (the gate's reachability probe) from the sandbox; nothing else is ever
    // answered. Dredd's own token request (its User-Agent) gets one field too many in the envelope,
    // so that transaction fails: its request holds the client secret, its answer a token.
    const tokens: string[] = [];
    const silent = http.createServer(async (req, res) => {
      if (!(req.url?.startsWith('/auth/') || req.url === '/v1/account')) return;
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const upstream = req.url.startsWith('/auth/') ? sandbox.authUrl + req.url : sandbox.url + req.url.slice(3);
      const answer = await fetch(upstream, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      let body = Buffer.from(await answer.arrayBuffer());
      const token = /"access_token":"([^"]+)"/.exec(body.toString())?.[1];
      if (token) tokens.push(token);
      if (token && req.headers['user-agent']?.startsWith('Dredd/'))
        body = Buffer.from(JSON.stringify({ ...JSON.parse(body.toString()), extra: 1 }));
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? '' });
      res.end(body);
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      // --only scopes the workflows too: alerts-paging reads listAlerts.
      const only = ['--only', 'getSite,createAccessToken,listAlerts', '--workflow', 'alerts-paging'];
      const r = await gate(['check', ...only, '--max-examples', '1', '--request-timeout', '300'], {
        ...live(),
        CONTRACT_BASE_URL: `${url}/v1`,
        CONTRACT_AUTH_URL: url,
      });
      expect(r.code, r.output + r.stderr).toBe(1);
      expect(r.output).toContain('no answer within 300 ms (--request-timeout 300 ms'); // examples (Dredd)
      expect(r.output).toContain('SCHEMA GET /alerts: no answer from the target (no answer within 300 ms)'); // workflows
      expect(r.output).toContain('no answer from the target: no answer within 300 ms'); // fuzz
      expect(r.output).toMatch(
        /examples \d+ passed, [1-9]\d* failed.*workflows 0 passed, [1-9]\d* failed.*fuzz \d+ passed, [1-9]\d* failed/,
      );
      expect(r.output + r.stderr).not.toMatch(/\n\s+at /); // no stack trace
      // Dredd lists the failed requests and answers: with their secrets masked.
      expect(r.output).toContain('Authorization: Bearer ***');
      expect(r.output).toContain('client_secret=***');
      expect(r.output).toContain('"access_token": "***"');
      expect(tokens.length).toBeGreaterThan(0);
      for (const secret of [live().CONTRACT_CLIENT_SECRET, ...tokens])
        expect(r.output + r.stderr).not.toContain(secret);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
