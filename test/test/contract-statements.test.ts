// The checks derived from the spec's behaviour statements (@hosting-api/contract src/checks/), each
// against a drift that keeps every answer schema-valid, one drift per check on its own route, in
// front of the sandbox: each drift fails its own check and no other, every failure names the spec
// statement (file:line) it checks, and the reproducers replay. The same operations against the
// sandbox itself pass. One sandbox and one drifting server for the whole file.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Sandbox, startSandbox } from '@hosting-api/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenLocal, relay, runContractCli } from './gate';

const STATEMENT_CHECKS = [
  'list_filters',
  'list_search',
  'list_order',
  'paging_consistency',
  'write_read_back',
  'create_listed',
  'delete_gone',
  'value_units',
  'token_credentials',
  'state_transitions',
  'counts_follow_lists',
  'timestamps_move',
  'derived_values',
  'documented_rules',
];

const gate = runContractCli;

/** A server in front of the sandbox with one drift for each statement check. */
function driftingServer(sandbox: Sandbox, secret: string) {
  // delete_gone: firewall rules read before their delete, answered again after it.
  const deleted = new Map<string, string>();
  // state_transitions: deleted sites (as the search showed them) that the search still finds.
  const searchable: unknown[] = [];
  const server = http.createServer((req, res) => {
    drift(req, res).catch((error) =>
      res.writeHead(502, { 'content-type': 'text/plain' }).end(`the drifting server broke: ${error.message}`),
    );
  });
  async function drift(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body = chunks.length ? Buffer.concat(chunks).toString('utf8') : undefined;
    const url = new URL(req.url ?? '/', 'http://drift');
    const path = url.pathname;
    let method = req.method ?? 'GET';
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && !['host', 'content-length'].includes(k)) headers[k] = v;
    const json = (status: number, value: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    const upstream = (m = method, b = body, target = `${url.pathname}${url.search}`) =>
      fetch(`${sandbox.authUrl}${target}`, { method: m, headers, body: m === 'GET' ? undefined : b });
    // token_credentials: the application's client id gets a token whatever secret comes with it.
    if (path === '/auth/token' && body) {
      const form = new URLSearchParams(body);
      if (form.get('client_id') === sandbox.clients[0]!.clientId) form.set('client_secret', secret);
      body = form.toString();
    }
    // create_listed: a clone ignores the datacenter it is sent (it stays in its source's).
    if (method === 'POST' && /^\/v1\/sites\/\d+\/clone$/.test(path) && body) {
      const { datacenter_code: _ignored, ...rest } = JSON.parse(body);
      body = JSON.stringify(rest);
    }
    // write_read_back: `datacenter_code: null` is answered as done, and the default stays.
    if (method === 'PUT' && path === '/v1/account' && body && JSON.parse(body).datacenter_code === null)
      return json(200, { message: 'Success', data: null, errors: null });
    // list_filters: `contains` filters of the account activity log are applied as `equals`.
    if (path === '/v1/account/logs/activity' && body)
      body = body.replaceAll('"operator":"contains"', '"operator":"equals"');
    // documented_rules: a display name with a character outside the Basic Multilingual Plane is refused.
    if (method === 'PUT' && /^\/v1\/sites\/\d+$/.test(path) && body && /[\u{10000}-\u{10FFFF}]/u.test(body))
      return json(400, {
        message: 'There was a problem processing your request.',
        data: null,
        errors: ['body.name: invalid characters'],
      });
    // state_transitions: a deleted site is gone (404, not listed) but the search still finds it.
    const deletedSite = path.match(/^\/v1\/sites\/(\d+)$/);
    if (deletedSite && method === 'DELETE') {
      const { data } = await (await upstream('GET', undefined, path)).json();
      const filters = [{ key: 'name', value: data?.name }];
      const found = await (
        await fetch(`${sandbox.authUrl}/v1/sites/search`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ filters }),
        })
      ).json();
      searchable.push(...(found.data ?? []).filter((s: { id: number }) => s.id === Number(deletedSite[1])));
    }
    if (path === '/v1/sites/search' && method === 'POST') {
      const answer = await upstream();
      const found = JSON.parse(await answer.text());
      if (answer.status === 200 && !found.page?.nextPage) found.data.push(...searchable);
      return relay(res, answer, JSON.stringify(found));
    }
    // list_search: the alert search is ignored.
    if (path === '/v1/alerts') url.searchParams.delete('search');
    // paging_consistency: an alert page size over 500 is refused, not applied as 500.
    if (path === '/v1/alerts' && Number(url.searchParams.get('per_page')) > 500)
      return json(400, {
        message: 'There was a problem processing your request.',
        data: null,
        errors: ['per_page: at most 500'],
      });
    // list_order: alert pages come in reverse order (page 1 holds the last page's items); each
    // page, and the whole list, stay newest first.
    const pageAsked = Number(url.searchParams.get('page'));
    if (path === '/v1/alerts' && pageAsked && method === 'GET') {
      const answer = await upstream();
      const asked = JSON.parse(await answer.text());
      const last = asked.page?.lastPage;
      if (answer.status === 200 && last > 1 && pageAsked <= last) {
        url.searchParams.set('page', String(last + 1 - pageAsked));
        asked.data = (await (await upstream('GET', undefined, `${url.pathname}${url.search}`)).json()).data;
      }
      return relay(res, answer, JSON.stringify(asked));
    }
    // write_read_back: marking a favorite site as favorite removes the mark (a toggle, not a set).
    const favorite = path.match(/^\/v1\/sites\/(\d+)\/favorites$/);
    if (favorite && method === 'POST') {
      const site = await (await upstream('GET', undefined, `/v1/sites/${favorite[1]}`)).json();
      if (site?.data?.favorite === true) method = 'DELETE';
    }
    // create_listed: a new note's subject is stored in capitals.
    if (method === 'POST' && /^\/v1\/sites\/\d+\/notes$/.test(path) && body) {
      const note = JSON.parse(body);
      if (typeof note.subject === 'string') body = JSON.stringify({ ...note, subject: note.subject.toUpperCase() });
    }
    // delete_gone: a deleted firewall rule can still be read.
    if (/^\/v1\/sites\/\d+\/firewall_rules\/\d+$/.test(path)) {
      if (method === 'DELETE') {
        const before = await upstream('GET');
        if (before.status === 200) deleted.set(path, await before.text());
      } else if (method === 'GET' && deleted.has(path) && headers.authorization)
        return res.writeHead(200, { 'content-type': 'application/json' }).end(deleted.get(path));
    }
    const answer = await upstream();
    let text = await answer.text();
    // state_transitions: a clone forgets its source (clonedFromId null in its answer and reads).
    if (/^\/v1\/sites\/\d+(\/clone)?$/.test(path) && answer.status === 200) {
      const site = JSON.parse(text);
      if (site.data?.clonedFromId) site.data.clonedFromId = null;
      // counts_follow_lists: a site's collaboratorsCount counts one more than its collaborators.
      if (Array.isArray(site.data?.collaborators)) site.data.collaboratorsCount = site.data.collaborators.length + 1;
      text = JSON.stringify(site);
    }
    // derived_values: a must-use plugin's slug drops its file extension (not the path's last segment).
    if (/^\/v1\/mu-plugins(\/\d+)?$/.test(path) && method === 'GET' && answer.status === 200) {
      const plugins = JSON.parse(text);
      for (const p of [plugins.data].flat()) if (typeof p?.slug === 'string') p.slug = p.slug.replace(/\.php$/, '');
      text = JSON.stringify(plugins);
    }
    // timestamps_move: a note's `updated` stays at its creation time.
    if (/^\/v1\/sites\/\d+\/notes(\/\d+)?$/.test(path) && answer.status === 200) {
      const notes = JSON.parse(text);
      for (const note of [notes.data].flat()) if (note?.created) note.updated = note.created;
      text = JSON.stringify(notes);
    }
    // list_order: the whole site list comes back favorites last.
    if (method === 'GET' && path === '/v1/sites' && !url.searchParams.has('paginate') && answer.status === 200) {
      const list = JSON.parse(text);
      list.data.reverse();
      text = JSON.stringify(list);
    }
    // value_units: on-demand backups' `requested` in epoch milliseconds.
    if (method === 'GET' && /^\/v1\/sites\/\d+\/ondemand-backups$/.test(path) && answer.status === 200) {
      const list = JSON.parse(text);
      for (const b of list.data) b.requested *= 1000;
      text = JSON.stringify(list);
    }
    relay(res, answer, text);
  }
  return listenLocal(server);
}

let sandbox: Sandbox;
let drifting: { url: string; close(): Promise<void> };
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, speed: 0, startTime: '2026-11-02T09:00:00.000Z' });
  drifting = await driftingServer(sandbox, sandbox.clients[0]!.clientSecret);
  // A third alert (a site deployed), so that the alerts span two pages of two for list_order.
  await fetch(`${sandbox.authUrl}/v1/sites`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await sandbox.token()}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'order-probe' }),
  });
  await sandbox.advance(60_000);
});
afterAll(async () => {
  await drifting?.close();
  await sandbox?.stop();
});

const liveAt = (url: string) => ({
  CONTRACT_BASE_URL: `${url}/v1`,
  CONTRACT_AUTH_URL: url,
  CONTRACT_CLIENT_ID: sandbox.clients[0]!.clientId,
  CONTRACT_CLIENT_SECRET: sandbox.clients[0]!.clientSecret,
  // State waits move the (frozen) clock of the sandbox behind the URL on.
  CONTRACT_CONTROL_URL: sandbox.authUrl,
});

interface Case {
  phase: string;
  check?: string;
  name: string;
  operation?: string;
  outcome: string;
  expected?: unknown;
  actual?: unknown;
  curl?: string;
  failures?: { check: string; message: string }[];
}

const OPS = [
  'searchAccountActivityLogs',
  'listAlerts',
  'listSites',
  'addSiteFavorite',
  'createSiteNote',
  'deleteSiteFirewallRule',
  'listSiteOndemandBackups',
  'createAccessToken',
  'getSite',
  'cloneSite',
  'updateSiteNote',
  'updateAccount',
  'listMuPlugins',
  'updateSite',
  'deleteSite',
];

describe('the behaviour statement checks against a drifting server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'contract-statements-'));
  let run: Awaited<ReturnType<typeof gate>>;
  let checks: Case[];
  beforeAll(async () => {
    const args = ['fuzz', '--allow-writes', '--only', OPS.join(','), '--seed', '7', '--max-examples', '2'];
    run = await gate([...args, '--json', join(dir, 'drift.json')], liveAt(drifting.url));
    checks = JSON.parse(readFileSync(join(dir, 'drift.json'), 'utf8')).checks;
  }, 90_000);

  it('fails each drift in its own check and operation, and nothing else', () => {
    expect(run.code, run.output + run.stderr).toBe(1);
    const failed = [...new Set(checks.filter((c) => c.outcome === 'failed').map((c) => `${c.check} ${c.operation}`))];
    const statementCases = checks.filter((c) => STATEMENT_CHECKS.includes(c.check!) && c.outcome !== 'failed');
    expect(failed.sort(), JSON.stringify(statementCases, null, 1)).toEqual(
      [
        'list_filters searchAccountActivityLogs',
        'list_search listAlerts',
        'list_order listSites',
        'paging_consistency listAlerts',
        'write_read_back addSiteFavorite',
        'create_listed createSiteNote',
        'delete_gone deleteSiteFirewallRule',
        'value_units listSiteOndemandBackups',
        'token_credentials createAccessToken',
        'state_transitions cloneSite',
        'counts_follow_lists getSite',
        'timestamps_move updateSiteNote',
        'create_listed cloneSite',
        'write_read_back updateAccount',
        'derived_values listMuPlugins',
        'documented_rules updateSite',
        'state_transitions deleteSite',
        'list_order listAlerts',
        // The clone's ignored datacenter and the note's capitals are on the accepting side of a
        // documented rule too (a listed datacenter, free text): read back changed.
        'documented_rules cloneSite',
        'documented_rules createSiteNote',
      ].sort(),
    );
  });

  it('names the spec statement (its place in the spec the run reads) in every failure, and every case its check', () => {
    for (const c of checks) expect(c.check, c.name).toMatch(/^[a-z_]+$/);
    // Outside the spec's own repository no spec/<file> exists: the statement is cited in the bundle
    // (a field rule's case after its field, rule and side: `(name free-text, accepting: …)`).
    const cited = /\((?:[a-z_]+ [a-zA-Z-]+, (?:accepting|refusing): )?@hosting-api\/openapi\/openapi\.json#\/[^)]+\)$/;
    for (const c of checks.filter((x) => x.outcome === 'failed' && STATEMENT_CHECKS.includes(x.check!))) {
      expect(c.name).toMatch(cited);
      expect(c.failures![0]!.message).toMatch(cited);
    }
    const units = checks.find((c) => c.check === 'value_units' && c.outcome === 'failed')!;
    expect(units.failures![0]!.message).toMatch(
      /requested is \d{13}: epoch milliseconds, not seconds .*\(@hosting-api\/openapi\/openapi\.json#\/components\/schemas\/OndemandBackup\//,
    );
    const order = checks.find((c) => c.check === 'list_order' && c.outcome === 'failed')!;
    expect(order.failures![0]!.message).toContain('"favorites first" does not hold');
    expect(run.output).toMatch(/Behaviour statements exercised: \d+ of \d+ \(/);
    expect(run.output).toMatch(/Coverage: behaviour statements \d+(\.\d+)?%/);
    const report = JSON.parse(readFileSync(join(dir, 'drift.json'), 'utf8'));
    expect(report.coverage.fuzz.statements).toMatchObject({
      statements: expect.any(Number),
      percent: expect.any(Number),
    });
  });

  it('gives reproducers that replay the failure: a wrong secret shown as sent, the real one never', async () => {
    const token = checks.find((c) => c.check === 'token_credentials' && c.outcome === 'failed')!;
    expect(token.curl).toMatch(/client_secret=wrong-secret-/);
    expect(token.curl).not.toContain(sandbox.clients[0]!.clientSecret);
    expect(run.output + run.stderr).not.toContain(sandbox.clients[0]!.clientSecret);
    const replay = (curl: string) =>
      promisify(execFile)('sh', ['-c', curl], {
        env: { ...process.env, TOKEN: '', CONTRACT_CLIENT_SECRET: sandbox.clients[0]!.clientSecret },
      });
    expect((await replay(token.curl!)).stdout).toMatch(/^HTTP\/1\.1 200[\s\S]*"access_token"/);
    const units = checks.find((c) => c.check === 'value_units' && c.outcome === 'failed')!;
    expect(units.curl).toContain('Bearer $TOKEN');
    const { stdout } = await promisify(execFile)('sh', ['-c', units.curl!], {
      env: { ...process.env, TOKEN: await sandbox.token() },
    });
    expect(stdout).toMatch(/"requested":\d{13}/);
  });

  it('passes the same operations against the sandbox itself', async () => {
    const ok = await gate(
      [
        'fuzz',
        '--allow-writes',
        '--only',
        OPS.join(','),
        '--checks',
        STATEMENT_CHECKS.join(','),
        '--json',
        join(dir, 'sandbox.json'),
      ],
      liveAt(sandbox.authUrl),
    );
    const cases: Case[] = JSON.parse(readFileSync(join(dir, 'sandbox.json'), 'utf8')).checks;
    expect(
      cases.filter((c) => c.outcome === 'failed').map((c) => c.name),
      ok.output,
    ).toEqual([]);
    expect(ok.code).toBe(0);
    expect(cases.filter((c) => c.outcome === 'passed').length).toBeGreaterThanOrEqual(9);
  }, 60_000);
});
