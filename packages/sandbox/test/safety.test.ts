// The sandbox left running: control routes only their user reaches (Host, cross-site requests,
// --cors), stored secrets redacted in the dump, deep JSON refused, bounded activity searches,
// memory that does not grow with tokens or the activity log (1 MB note subjects and the state's
// size limit: budget.test.ts). One sandbox for the file.
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxRuntime, WEBHOOK_TEXT_LIMIT } from '../src/domain/runtime.js';
import {
  ACTIVITY_FIELD_LIMIT,
  ACTIVITY_LIMIT,
  ACTIVITY_TEXT_LIMIT,
  DEFAULT_CLIENTS,
  type Sandbox,
  seedState,
  startSandbox,
} from '../src/index.js';

let sb: Sandbox;
let port: number;
beforeAll(async () => {
  sb = await startSandbox({
    speed: 0,
    startTime: '2026-11-02T09:00:00.000Z',
    activityLimit: 500,
    // Short server timeouts, to see them act (the defaults are TIMEOUTS: 10 s, 30 s, 5 s, 30 s).
    timeouts: { headers: 800, keepAlive: 500, idle: 1200 },
  });
  port = Number(new URL(sb.authUrl).port);
});
afterAll(() => sb?.stop());

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}
/** One request through node:http (fetch cannot set Host). */
function raw(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {}
        resolve({ status: res.statusCode!, headers: res.headers, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the answers of the hot path, byte for byte', () => {
  // Without the self-check an envelope goes out through server.ts respond(), which writes the head
  // itself: the exact bytes, Date aside, of the two benchmarked routes.
  const HEAD = (length: number) =>
    `HTTP/1.1 200 OK\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${length}\r\nDate: *\r\nConnection: keep-alive\r\nKeep-Alive: timeout=0\r\n\r\n`;
  const SITE =
    '{"message":"Success","data":{"id":123456,"created":"2026-08-04T09:00:00.000Z","accountId":7001,"clonedFromId":null,"collaboratorsCount":2,"domainsCount":1,"datacenterCode":"DCA","datacenterName":"Washington, DC","displayName":"Ada Lovelace Blog","name":"ada-blog","ecommerce":false,"edgeCache":"enabled","edgeCacheDefensiveMode":true,"edgeCacheDefensiveModeUntil":1793631600,"favorite":true,"fileSystemUsageBytes":52428800,"databaseUsageBytes":8388608,"maxFileSystemUsageBytes":53687091200,"warningHeadroomFileSystemUsageBytes":5368709120,"maxDatabaseUsageBytes":null,"warningHeadroomDatabaseUsageBytes":null,"ipAddress":"192.0.2.164","ipAddressOne":"192.0.2.164","ipAddressTwo":"192.0.2.165","state":"live","url":"https://ada-blog.example.com","staging":false,"sandbox":false,"kit":false,"sftpDomain":"sftp.example.com","phpVersion":"8.4","cmsVersion":"stable (6.8.3)","wpEnvironmentType":"production","lightWeight404":true,"multisiteSupport":false,"maintenanceMode":false,"tags":[{"id":11,"name":"client-a"}],"pageViews":{"allTime":{"people":0,"views":0},"lastTwoYearsIsAllTime":{"people":0,"views":0},"currentMonth":{"people":0,"views":0},"lastMonth":{"people":0,"views":0},"today":{"people":0,"views":0},"twoMonthsAgo":{"people":0,"views":0},"yesterday":{"people":0,"views":0}},"cmsLoginUrl":"https://ada-blog.example.com/login","collaborators":[{"id":98765,"created":"2026-08-14T09:00:00.000Z","email":"grace@example.com","avatar":"https://avatars.example.com/grace.png","name":"Grace Hopper","wpUsername":"grace","username":null},{"id":98767,"created":"2026-09-23T09:00:00.000Z","email":"alan@example.com","avatar":"https://avatars.example.com/alan.png","name":"Alan Turing","wpUsername":"alan","username":"alan"}]},"errors":null}';
  const NOTE =
    '{"message":"Success","data":{"id":1001,"author":"Ada Lovelace","editor":"Ada Lovelace","subject":"Benchmark","body":"A note.","created":"2026-11-02T09:00:00.000Z","updated":"2026-11-02T09:00:00.000Z"},"errors":null}';
  /** Writes a request on a raw connection, half-closes it, and returns the answer with its Date masked. */
  const exchange = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.end(text));
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (c: string) => (answer += c));
      socket.on('close', () => resolve(answer.replace(/\r\nDate: [^\r]+\r\n/, '\r\nDate: *\r\n')));
      socket.on('error', reject);
    });

  it('GET /v1/sites/123456 and POST /v1/sites/123456/notes', async () => {
    const auth = `Authorization: Bearer ${await sb.token()}\r\n`;
    expect(await exchange(`GET /v1/sites/123456 HTTP/1.1\r\nHost: x\r\n${auth}\r\n`)).toBe(HEAD(SITE.length) + SITE);
    const note = '{"subject":"Benchmark","body":"A note."}';
    const post = `POST /v1/sites/123456/notes HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: ${note.length}\r\n\r\n${note}`;
    expect(await exchange(post)).toBe(HEAD(NOTE.length) + NOTE);
  });
});

const PATCH = JSON.stringify({ account: { highTrafficPlan: false } });
const plan = () => sb.runtime.state.account.highTrafficPlan;

describe('control routes: only their user reaches them', () => {
  it('answers loopback Host names and refuses a rebinding name, state unchanged', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      expect((await raw('GET', '/__sandbox/clock', { host })).status).toBe(200);
    }
    const before = plan();
    const refused = await raw(
      'PATCH',
      '/__sandbox/state',
      { host: `evil.example:${port}`, 'content-type': 'application/json' },
      PATCH,
    );
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ message: 'Forbidden', data: null });
    expect(refused.body.errors[0]).toMatch(/Host/);
    expect((await raw('GET', '/__sandbox/state', { host: `evil.example:${port}` })).status).toBe(403);
    expect(plan()).toBe(before);
    // The API itself answers any Host (its token is the guard).
    expect((await raw('GET', '/v1/sites/123456', { host: `evil.example:${port}` })).status).toBe(401);
  });

  it('refuses cross-site simple requests: an empty form POST, text/plain, an Origin of another site', async () => {
    sb.runtime.state.account.highTrafficPlan = true;
    const host = `127.0.0.1:${port}`;
    const form = await raw('POST', '/__sandbox/reset', {
      host,
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': '0',
    });
    expect(form.status).toBe(415);
    const text = await raw('PATCH', '/__sandbox/state', { host, 'content-type': 'text/plain' }, PATCH);
    expect(text.status).toBe(415);
    const origin = await raw('POST', '/__sandbox/reset', { host, origin: 'http://evil.example' });
    expect(origin.status).toBe(403);
    const site = await raw('POST', '/__sandbox/reset', { host, 'sec-fetch-site': 'cross-site' });
    expect(site.status).toBe(403);
    const patched = await raw(
      'PATCH',
      '/__sandbox/state',
      { host, origin: 'null', 'content-type': 'application/json' },
      PATCH,
    );
    expect(patched.status).toBe(403);
    expect(plan()).toBe(true);
    // Its own origin (a page the sandbox served, or a tool sending it) is fine.
    const own = await raw(
      'PATCH',
      '/__sandbox/state',
      { host, origin: `http://${host}`, 'content-type': 'application/json' },
      PATCH,
    );
    expect(own.status).toBe(200);
    expect(plan()).toBe(false);
    sb.reset();
  });

  it('redacts the stored git token in the state dump', async () => {
    sb.runtime.state.gitAccountToken = 'ghp_secret_value';
    const dump = await raw('GET', '/__sandbox/state', { host: `127.0.0.1:${port}` });
    expect(dump.status).toBe(200);
    expect(JSON.stringify(dump.body)).not.toContain('ghp_secret_value');
    expect(dump.body.data.gitAccountToken).toBe('***');
    expect(sb.runtime.state.gitAccountToken).toBe('ghp_secret_value');
    sb.reset();
  });

  it('answers JSON nested 3,000 deep with a 400, on a control route and on the API', async () => {
    const deep = `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`;
    const host = `127.0.0.1:${port}`;
    const control = await raw('PATCH', '/__sandbox/state', { host, 'content-type': 'application/json' }, deep);
    expect(control.status).toBe(400);
    expect(control.body.errors[0]).toMatch(/nested deeper than 64/);
    const token = await sb.token();
    const api = await raw(
      'POST',
      '/v1/sites/123456/notes',
      { host, 'content-type': 'application/json', authorization: `Bearer ${token}` },
      `{"subject":${'['.repeat(3000)}${']'.repeat(3000)}}`,
    );
    expect(api.status).toBe(400);
    // Brackets inside strings do not count.
    const text = await raw(
      'PATCH',
      '/__sandbox/state',
      { host, 'content-type': 'application/json' },
      JSON.stringify({ account: { name: '{'.repeat(500) } }),
    );
    expect(text.status).not.toBe(400);
    sb.reset();
  });
});

describe('bounded work and memory', () => {
  it('refuses an activity search with more filters than it takes (a clear 400), fast', async () => {
    const token = await sb.token();
    const filters = Array.from({ length: 2000 }, () => ({ field: 'action', operator: 'contains', value: 'x' }));
    const res = await raw(
      'POST',
      '/v1/account/logs/activity',
      { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      JSON.stringify({ filters }),
    );
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(['body.filters: at most 20 filters (got 2000)']);
  });

  it('refuses an activity search whose filters are too long in total (a clear 400), and takes one within it', async () => {
    const token = await sb.token();
    const search = (filters: unknown[]) =>
      raw(
        'POST',
        '/v1/account/logs/activity',
        { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        JSON.stringify({ filters }),
      );
    const long = await search([{ field: 'action', operator: 'contains', value: 'x'.repeat(1_000_000) }]);
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual([
      'body.filters: the values of the filters take at most 1000 characters together (got 1000000)',
    ]);
    const twoHalves = Array.from({ length: 2 }, () => ({
      field: 'source',
      operator: 'contains',
      value: 'a'.repeat(501),
    }));
    expect((await search(twoHalves)).body.errors).toEqual([
      'body.filters: the values of the filters take at most 1000 characters together (got 1002)',
    ]);
    expect((await search([{ field: 'source', operator: 'contains', value: 'a'.repeat(1000) }])).status).toBe(200);
  });

  /** A runtime of its own, frozen clock, default limits. */
  const ownRuntime = () =>
    new SandboxRuntime({
      clients: DEFAULT_CLIENTS,
      seed: seedState,
      start: 0,
      speed: 0,
      webhookUrl: null,
      onError: () => {},
    });

  it('keeps the activity log within its text limit below its entry limit', () => {
    // A runtime of its own with the default entry limit (10,000): only the text limit can trim.
    const rt = ownRuntime();
    const message = 'm'.repeat(ACTIVITY_FIELD_LIMIT);
    const entries = Math.ceil(ACTIVITY_TEXT_LIMIT / ACTIVITY_FIELD_LIMIT) + 10;
    expect(entries).toBeLessThan(ACTIVITY_LIMIT);
    for (let i = 0; i < entries; i++) rt.logActivity({ name: 'settings', description: 'd', message });
    expect(rt.activityTextSize).toBeLessThanOrEqual(ACTIVITY_TEXT_LIMIT);
    const counted = rt.state.activity.reduce(
      (n, e) => n + e.message.length + e.description.length + e.userAgent.length,
      0,
    );
    expect(rt.activityTextSize).toBe(counted);
  });

  it('keeps the recorded webhook deliveries within their payload size and count', () => {
    const rt = ownRuntime();
    const name = 'p'.repeat(64 * 1024); // a plugin name of 64 KiB in a completion payload, say
    for (let i = 0; i < 200; i++) rt.emitWebhook('plugin_install_completed', { plugins: [{ name: `${name}${i}` }] });
    expect(rt.webhookTextSize).toBeLessThanOrEqual(WEBHOOK_TEXT_LIMIT);
    expect(rt.webhooks.at(-1)!.seq).toBe(200);
    for (let i = 0; i < 1200; i++) rt.emitWebhook('plugin_install_completed', { i });
    expect(rt.webhooks).toHaveLength(1000);
  });

  it('keeps the activity log within its retention (virtual clock) and its limit', async () => {
    expect(ACTIVITY_LIMIT).toBe(10_000);
    const rt = sb.runtime;
    for (let i = 0; i < 600; i++) rt.logActivity({ name: 'settings', description: 'd', message: 'm' });
    expect(rt.state.activity.length).toBeLessThanOrEqual(500);
    // 61 days later every entry is past the 60-day retention: the next trim drops them all.
    sb.advance(61 * 86_400_000);
    for (let i = 0; i < 256; i++) rt.logActivity({ name: 'settings', description: 'd', message: 'm' });
    expect(rt.state.activity.length).toBeLessThanOrEqual(256);
    sb.reset();
  });

  it('drops expired and revoked tokens', async () => {
    const tokens = sb.runtime.tokens;
    const first = await sb.token();
    const revoke = await fetch(`${sb.authUrl}/auth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: first, client_id: 'sandbox-client', client_secret: 'sandbox-secret' }),
    });
    expect(revoke.status).toBe(200);
    expect(tokens.size).toBe(0); // the revoked token is gone (earlier ones expired with the 61 days above)
    expect(tokens.check(first, sb.runtime.clock.now())).toBe('The access token has been revoked.');
    await sb.token();
    expect(tokens.size).toBe(1);
    sb.advance(3600 * 1000);
    await sb.token(); // an issue a virtual minute after the last sweep drops the expired ones
    expect(tokens.size).toBe(1);
  });
});

describe('server timeouts', () => {
  /** Opens a connection, writes `text`, and resolves with what came back when the server closed it. */
  const hold = (text: string) =>
    new Promise<{ ms: number; answer: string }>((resolve, reject) => {
      const t0 = performance.now();
      let answer = '';
      const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
      socket.setEncoding('utf8');
      socket.on('data', (c: string) => (answer += c));
      socket.on('close', () => resolve({ ms: performance.now() - t0, answer }));
      socket.on('error', reject);
    });

  it('closes a connection whose headers never finish, and one that sends nothing', async () => {
    const [partial, silent] = await Promise.all([hold('GET /v1/sites HTTP/1.1\r\nHost: 127.0.0.1\r\n'), hold('')]);
    expect(partial.ms).toBeLessThan(5_000);
    expect(silent.ms).toBeLessThan(5_000);
  });
});
