import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { startSandbox } from '@hosting-api/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractDir, failedChecks, type Outcome, runGate } from './gate';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}
interface Request {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}
/** Changes one exchange: answers instead of the sandbox (or undefined to pass it through). */
type Drift = (req: Request, upstream: (req: Request) => Promise<Answer>) => Promise<Answer | undefined>;

let sandbox: Sandbox;
let webhookPort: number;
/** Rewrites webhook payloads on their way from the sandbox to the gate's listener. */
let webhookDrift: ((event: string, payload: Record<string, unknown>) => void) | undefined;
let forwarder: http.Server;

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}
const close = (server: http.Server) => new Promise<void>((done) => server.close(() => done()));
const readBody = async (req: http.IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

beforeAll(async () => {
  const probe = http.createServer();
  webhookPort = await listen(probe);
  await close(probe);
  // The sandbox delivers webhooks here; this forwards them to the port the gate listens on.
  forwarder = http.createServer(async (req, res) => {
    const body = await readBody(req);
    const event = String(req.headers['x-hosting-event'] ?? '');
    const payload = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    webhookDrift?.(event, payload);
    await fetch(`http://127.0.0.1:${webhookPort}/hooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hosting-event': event },
      body: JSON.stringify(payload),
    }).catch(() => undefined);
    res.end('ok');
  });
  const forwarderPort = await listen(forwarder);
  sandbox = await startSandbox({
    port: 0,
    speed: 0,
    startTime: '2026-11-02T09:00:00.000Z',
    webhookUrl: `http://127.0.0.1:${forwarderPort}/hooks`,
  });
});
afterAll(async () => {
  await sandbox?.stop();
  if (forwarder) await close(forwarder);
});

/** A proxy in front of the sandbox that applies the drifts. */
async function proxy(drifts: Drift[]): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = async (req: Request): Promise<Answer> => {
    const res = await fetch(sandbox.authUrl + req.path, {
      method: req.method,
      headers: req.headers,
      body: req.body.length ? new Uint8Array(req.body) : undefined,
    });
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      headers[k] = v;
    });
    delete headers['content-length'];
    delete headers['transfer-encoding'];
    return { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()) };
  };
  const server = http.createServer(async (incoming, res) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(incoming.headers))
      if (typeof v === 'string' && k !== 'host' && k !== 'connection') headers[k] = v;
    const req: Request = {
      method: incoming.method ?? 'GET',
      path: incoming.url ?? '/',
      headers,
      body: await readBody(incoming),
    };
    let answer: Answer | undefined;
    for (const drift of drifts) answer ??= await drift(req, upstream);
    answer ??= await upstream(req);
    res.writeHead(answer.status, answer.headers).end(answer.body);
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, close: () => close(server) };
}

/** A fresh valid token of the sandbox's client (what a server that ignores a bad token acts with). */
async function validToken(): Promise<string> {
  const res = await fetch(`${sandbox.authUrl}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: 'sandbox-client',
      client_secret: 'sandbox-secret',
    }),
  });
  return ((await res.json()) as { data: { access_token: string } }).data.access_token;
}
const json = (answer: Answer) => JSON.parse(answer.body.toString('utf8'));
const withJson = (answer: Answer, value: unknown): Answer => ({ ...answer, body: Buffer.from(JSON.stringify(value)) });
const bearer = (req: Request) => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];

const liveEnv = (url: string): Record<string, string> => ({
  CONTRACT_BASE_URL: `${url}/v1`,
  CONTRACT_AUTH_URL: url,
  CONTRACT_CLIENT_ID: 'sandbox-client',
  CONTRACT_CLIENT_SECRET: 'sandbox-secret',
  CONTRACT_ALLOW_WRITES: '1',
  CONTRACT_MIN_COVERAGE: '0',
  CONTRACT_TARGET_DATA: join(contractDir, 'sandbox-target.json'),
});
function failures(outcome: Outcome): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of outcome.results.filter((x) => x.outcome === 'fail'))
    out[r.key] = `${out[r.key] ?? ''}${(r.errors ?? []).join('; ')} | `;
  return out;
}

// ---- the Dredd half: auth probes, token responses, downloads, empty lists -------------------
const ONLY = 'getSite,listSiteNotes,getAccount,listSiteGitBranches,getSiteBackupDownload,listZones';
const issued = new Set<string>();
const revoked = new Set<string>();
/** Remembers the tokens the sandbox issues and the ones the gate revokes. */
const observeTokens: Drift = async (req, upstream) => {
  if (req.method === 'POST' && req.path === '/auth/revoke')
    revoked.add(new URLSearchParams(req.body.toString('utf8')).get('token') ?? '');
  if (req.method !== 'POST' || req.path !== '/auth/token') return undefined;
  const answer = await upstream(req);
  if (answer.status === 200) issued.add(json(answer).data.access_token);
  return answer;
};
const swapToken = async (req: Request, upstream: (r: Request) => Promise<Answer>) =>
  upstream({ ...req, headers: { ...req.headers, authorization: `Bearer ${await validToken()}` } });

const SERVICE_DRIFTS: Record<string, [Drift, string, RegExp]> = {
  'a garbage token accepted': [
    async (req, upstream) =>
      req.method === 'GET' && /^\/v1\/sites\/\d+$/.test(req.path) && bearer(req)?.startsWith('garbage')
        ? swapToken(req, upstream)
        : undefined,
    'getSite 401',
    /auth probe with a garbage token: status 200, expected 401/,
  ],
  'a revoked token accepted': [
    async (req, upstream) =>
      req.method === 'GET' && /^\/v1\/sites\/\d+\/notes(\?.*)?$/.test(req.path) && revoked.has(bearer(req) ?? '')
        ? swapToken(req, upstream)
        : undefined,
    'listSiteNotes 401',
    /auth probe with a token the gate revoked: status 200, expected 401/,
  ],
  'an expired token accepted': [
    async (req, upstream) => {
      if (req.method !== 'GET' || req.path !== '/v1/account') return undefined;
      const token = bearer(req) ?? '';
      if (!issued.has(token) || revoked.has(token)) return undefined;
      const answer = await upstream(req);
      return answer.status === 401 ? swapToken(req, upstream) : answer;
    },
    'getAccount 401',
    /auth probe with an expired token: status 200, expected 401/,
  ],
  'a token under another scheme accepted': [
    async (req, upstream) => {
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!basic || !/\/git\/branches$/.test(req.path)) return undefined;
      return upstream({ ...req, headers: { ...req.headers, authorization: `Bearer ${basic}` } });
    },
    'listSiteGitBranches 401',
    /auth probe with a valid token under another scheme: status 200, expected 401/,
  ],
  'a gzip download that is not gzip, an SQL download that is binary': [
    async (req, upstream) => {
      if (req.method !== 'GET' || !/^\/v1\/sites\/\d+\/backups\/\d+$/.test(req.path)) return undefined;
      const answer = await upstream(req);
      if (answer.status !== 200) return answer;
      const sql = answer.headers['content-type']?.startsWith('application/sql');
      return { ...answer, body: sql ? gzipSync(answer.body) : Buffer.from('-- not a gzip stream\n') };
    },
    'getSiteBackupDownload 200',
    /gzip magic bytes[\s\S]*not UTF-8 text|not UTF-8 text[\s\S]*gzip magic bytes/,
  ],
  'an empty list where the target has data': [
    async (req, upstream) => {
      if (req.method !== 'GET' || req.path !== '/v1/zones') return undefined;
      const answer = await upstream(req);
      return answer.status === 200 ? withJson(answer, { ...json(answer), data: [] }) : answer;
    },
    'listZones 200',
    /body\/data is an empty list/,
  ],
};

describe('contract gate against a drifting service (auth probes, token responses, downloads, lists)', () => {
  it('reports each drift on exactly the transaction it touches', async () => {
    const p = await proxy([observeTokens, ...Object.values(SERVICE_DRIFTS).map(([drift]) => drift)]);
    try {
      const outcome = await runGate('run.js', ['--live', '--only', ONLY], liveEnv(p.url));
      expect(outcome.code, outcome.output).toBe(1);
      // The control: every transaction the drifts leave alone passes through the proxy (the
      // sandbox keeps the contract; contract:sandbox runs it without a proxy).
      const passed = outcome.results.filter((r) => r.outcome === 'pass').map((r) => r.key);
      expect(passed, outcome.output).toEqual(
        expect.arrayContaining(['getSite 200', 'getSite 404', 'listSiteNotes 200', 'getAccount 200']),
      );
      expect(outcome.results.filter((r) => r.outcome === 'skip').map((r) => r.key)).toEqual([]);
      const found = failures(outcome);
      expect(Object.keys(found).sort(), outcome.output).toEqual(
        Object.values(SERVICE_DRIFTS)
          .map(([, key]) => key)
          .sort(),
      );
      for (const [name, [, key, message]] of Object.entries(SERVICE_DRIFTS)) expect(found[key], name).toMatch(message);
      expect(failedChecks(outcome)).toEqual({
        'getSite 401': ['ignored_auth'],
        'listSiteNotes 401': ['ignored_auth'],
        'getAccount 401': ['ignored_auth'],
        'listSiteGitBranches 401': ['ignored_auth'],
        'getSiteBackupDownload 200': ['download_conformance'],
        'listZones 200': ['non_empty_lists'],
      });
    } finally {
      await p.close();
    }
  });

  it('reports a token response that breaks the spec, though no token transaction was selected', async () => {
    const p = await proxy([
      async (req, upstream) => {
        if (req.path !== '/auth/token') return undefined;
        const answer = await upstream(req);
        const body = json(answer);
        delete body.data.expires_in;
        return withJson(answer, body);
      },
    ]);
    try {
      const outcome = await runGate('run.js', ['--live', '--only', 'getSite'], liveEnv(p.url));
      expect(outcome.code, outcome.output).toBe(1);
      expect(failures(outcome)['getSite 200'], outcome.output).toMatch(
        /token response .* does not match the spec: .*body\/data must have required property 'expires_in'/,
      );
    } finally {
      await p.close();
    }
  });

  it('inflates a gzip bomb of a backup download only up to CONTRACT_MAX_INFLATED_BYTES', async () => {
    // 64 MiB of zeros in about 64 KB of gzip; the cap is 4 MiB.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const p = await proxy([
      async (req, upstream) => {
        if (req.method !== 'GET' || !/^\/v1\/sites\/\d+\/backups\/\d+$/.test(req.path)) return undefined;
        const answer = await upstream(req);
        const gzip = answer.status === 200 && answer.headers['content-type']?.startsWith('application/gzip');
        return gzip ? { ...answer, body: bomb } : answer;
      },
    ]);
    try {
      const outcome = await runGate('run.js', ['--live', '--only', 'getSiteBackupDownload'], {
        ...liveEnv(p.url),
        CONTRACT_MAX_INFLATED_BYTES: String(4 * 1024 * 1024),
      });
      expect(failures(outcome)['getSiteBackupDownload 200'], outcome.output).toMatch(
        /download: application\/gzip, the gzip content inflates to over 4194304 bytes: inflating stopped there \(CONTRACT_MAX_INFLATED_BYTES\)/,
      );
    } finally {
      await p.close();
    }
  });
});

// ---- the workflows: state, behaviour across calls, webhooks --------------------------------
/** Sites whose in-progress alert was dismissed (the drift that treats a dismissal as a cancel). */
const cancelledSites = new Set<number>();
const WORKFLOW_DRIFTS: Record<string, [Drift, string]> = {
  'a state-only field out of its enum (maintenanceModeStatus)': [
    async (req, upstream) => {
      if (req.method !== 'GET' || !/^\/v1\/sites\/\d+$/.test(req.path)) return undefined;
      const answer = await upstream(req);
      const body = answer.status === 200 ? json(answer) : undefined;
      if (body?.data?.maintenanceModeStatus !== 'enabling') return answer;
      body.data.maintenanceModeStatus = 'pending';
      return withJson(answer, body);
    },
    'maintenance-mode',
  ],
  'a step whose state does not change (enable leaves the site disabled)': [
    async (req, upstream) =>
      req.method === 'PUT' && /^\/v1\/sites\/\d+\/enable$/.test(req.path)
        ? upstream({ ...req, method: 'GET', path: req.path.replace(/\/enable$/, ''), body: Buffer.alloc(0) })
        : undefined,
    'site-disable-enable',
  ],
  'a fourth on-demand backup of a type accepted': [
    async (req, upstream) => {
      if (req.method !== 'POST' || !/\/ondemand-backups$/.test(req.path)) return undefined;
      const answer = await upstream(req);
      if (answer.status !== 400) return answer;
      const type = JSON.parse(req.body.toString('utf8')).backup_type;
      return withJson(
        { ...answer, status: 200 },
        {
          message: 'Success',
          data: { id: null, requestId: 'drift', siteId: 1, status: 'creating', type },
          errors: null,
        },
      );
    },
    'ondemand-backups-limit',
  ],
  'a created note missing from the list': [
    async (req, upstream) => {
      if (req.method !== 'GET' || !/^\/v1\/sites\/\d+\/notes(\?.*)?$/.test(req.path)) return undefined;
      const answer = await upstream(req);
      const body = json(answer);
      if (Array.isArray(body.data))
        body.data = body.data.filter((n: { subject: string }) => n.subject !== 'Arazzo workflow note');
      return withJson(answer, body);
    },
    'notes-lifecycle',
  ],
  'a dismissed in-progress alert whose operation publishes no completion alert': [
    async (req, upstream) => {
      const dismiss = /^\/v1\/alerts\/(\d+)\/dismiss$/.exec(req.path);
      if (req.method === 'POST' && dismiss) {
        const alert = json(
          await upstream({ ...req, method: 'GET', path: `/v1/alerts/${dismiss[1]}`, body: Buffer.alloc(0) }),
        );
        if (alert.data?.category === 'in_progress' && alert.data.site) cancelledSites.add(alert.data.site.id);
        return undefined;
      }
      if (req.method !== 'GET' || !/^\/v1\/alerts(\?.*)?$/.test(req.path)) return undefined;
      const answer = await upstream(req);
      const body = json(answer);
      if (Array.isArray(body.data))
        body.data = body.data.filter(
          (a: { category: string; site: { id: number } | null }) =>
            a.category === 'in_progress' || !cancelledSites.has(a.site?.id ?? -1),
        );
      return withJson(answer, body);
    },
    'alert-dismiss-keeps-operation',
  ],
  'a DNS record delete that answers the zone but leaves the record': [
    async (req, upstream) => {
      const del = /^\/v1\/zones\/(\d+)\/records\/\d+$/.exec(req.path);
      return req.method === 'DELETE' && del
        ? upstream({ ...req, method: 'GET', path: `/v1/zones/${del[1]}/records`, body: Buffer.alloc(0) })
        : undefined;
    },
    'dns-record-deleted',
  ],
  'a revoked token that keeps working': [
    async (req) =>
      req.method === 'POST' && req.path === '/auth/revoke'
        ? { status: 200, headers: {}, body: Buffer.alloc(0) }
        : undefined,
    'token-revoke-then-401',
  ],
};
const WORKFLOWS = [...Object.values(WORKFLOW_DRIFTS).map(([, id]) => id), 'git-connect-deploy'];

describe('contract workflows against a drifting service (state, behaviour across calls, webhooks)', () => {
  async function runWorkflows(drifts: Drift[]) {
    sandbox.reset();
    const p = await proxy(drifts);
    try {
      return await runGate('workflows.js', ['--live', '--workflow', WORKFLOWS.join(',')], {
        ...liveEnv(p.url),
        CONTRACT_CONTROL_URL: p.url,
        CONTRACT_WEBHOOK_PORT: String(webhookPort),
      });
    } finally {
      await p.close();
    }
  }
  const failedWorkflows = (output: string) => [...output.matchAll(/^ {2}FAILED (\S+)/gm)].map((m) => m[1]).sort();

  // Also the control case: the workflows that need no writes pass through a proxy that changes
  // nothing (contract:workflows runs every workflow against the sandbox without one).
  it('is read-only against a live target unless writes are allowed', async () => {
    sandbox.reset();
    const seen: string[] = [];
    const p = await proxy([
      async (req) => {
        seen.push(`${req.method} ${req.path.split('?')[0]}`);
        return undefined;
      },
    ]);
    try {
      const env = liveEnv(p.url);
      delete env.CONTRACT_ALLOW_WRITES;
      const outcome = await runGate('workflows.js', ['--live'], env);
      expect(outcome.code, outcome.output).toBe(0);
      expect(outcome.output).toMatch(
        /skipped notes-lifecycle: changes the target; set CONTRACT_ALLOW_WRITES=1 to run it/,
      );
      expect(outcome.output).toMatch(/skipped expired-token-401: needs the sandbox clock/);
      expect(outcome.output).toMatch(/[1-9]\d* run: [1-9]\d* passed, 0 failed/);
      const writes = seen.filter((line) => !line.startsWith('GET ') && !/^POST \/auth\/(token|revoke)$/.test(line));
      expect(writes, writes.join('\n')).toEqual([]);
    } finally {
      await p.close();
    }
  });

  it('reports each drift on exactly the workflow it touches, and a webhook payload missing a required field', async () => {
    // git_deploy_completed without git.state (required by the spec's webhooks: schema).
    webhookDrift = (event, payload) => {
      if (event === 'git_deploy_completed') delete (payload.git as Record<string, unknown>).state;
    };
    try {
      const outcome = await runWorkflows(Object.values(WORKFLOW_DRIFTS).map(([drift]) => drift));
      expect(outcome.code, outcome.output).toBe(1);
      expect(failedWorkflows(outcome.output), outcome.output).toEqual(WORKFLOWS.slice().sort());
      expect(outcome.output).toMatch(
        /INVALID webhook git_deploy_completed #\d+: .*payload\/git must have required property 'state'/,
      );
      // The state-only field is caught by the spec's schema too (the runner's recorder), not only
      // by the workflow's criteria.
      expect(outcome.output).toMatch(
        /SCHEMA getSite 200 \(GET \/sites\/\d+\): .*body\/data\/maintenanceModeStatus must be equal to one of the allowed values/,
      );
      // Each failure names its check: the workflows' criteria, the webhook's payload, the answer's schema.
      const checks = failedChecks(outcome);
      for (const id of WORKFLOWS) expect(checks[id], id).toEqual(['workflow_success']);
      expect(checks['webhook git_deploy_completed']).toEqual(['webhook_conformance']);
      expect(Object.entries(checks).find(([key]) => key.startsWith('getSite 200'))?.[1]).toEqual([
        'response_schema_conformance',
      ]);
    } finally {
      webhookDrift = undefined;
    }
  });
});
