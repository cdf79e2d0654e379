// Cross-cutting behaviour: routes from the spec, auth and scopes, the error envelope for bad
// input, control routes, webhooks, concurrency.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { handlers } from '../src/domain/areas/index.js';
import { startSandbox } from '../src/index.js';
import { errorEnvelope, useSandbox } from './helpers.js';
import { specProblems } from './spec-check.js';

const require = createRequire(import.meta.url);
const spec = JSON.parse(readFileSync(require.resolve('@hosting-api/openapi/openapi.json'), 'utf8'));

const h = useSandbox();

describe('routes', () => {
  it('registers every operation of the spec', async () => {
    const specOps: string[] = [];
    for (const item of Object.values<any>(spec.paths)) {
      for (const m of ['get', 'post', 'put', 'delete', 'patch']) if (item[m]) specOps.push(item[m].operationId);
    }
    const r = await h.call('GET', '/__sandbox/operations');
    expect(r.body.data.map((o: any) => o.operationId).sort()).toEqual(specOps.sort());
    expect(specOps.length).toBeGreaterThanOrEqual(116);
  });

  it('has a handler for every operation: none is listed unimplemented and none answers 501', async () => {
    const ops = (await h.call('GET', '/__sandbox/operations')).body.data as any[];
    expect(ops.filter((o) => !o.implemented).map((o) => o.operationId)).toEqual([]);
    for (const op of ops) {
      const path = op.path.replace(/\{[^}]+\}/g, (m: string) => (m.includes('site_id') ? '123456' : '1'));
      const r = await h.call(op.method, path, op.method === 'GET' ? undefined : {});
      expect(r.status, `${op.operationId} ${op.method} ${path}`).not.toBe(501);
    }
  });

  it('answers unknown routes with the 404 envelope', async () => {
    const r = await h.call('GET', '/no/such/thing');
    expect(r.status).toBe(404);
    expect(errorEnvelope(r).message).toBe('We could not locate the requested resources.');
  });

  it('answers a non-integer id with 404, not 400 or 500', async () => {
    for (const id of ['abc', '1.5', '99999999999999999999']) {
      const r = await h.call('GET', `/sites/${id}`);
      expect(r.status).toBe(404);
      errorEnvelope(r);
    }
  });
});

describe('auth', () => {
  const form = (fields: Record<string, string>) => ({
    raw: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    token: null,
  });

  it('issues a token for the configured client with the documented fields', async () => {
    const r = await h.call(
      'POST',
      '/auth/token',
      undefined,
      form({ grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' }),
    );
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3599,
      scope: 'authorized',
      scopes: ['authorized', 'owner', 'git_edit'],
    });
    expect(r.body.data.created_at).toBe(Date.parse('2026-11-02T09:00:00.000Z') / 1000);
    expect(specProblems('createAccessToken', r.status, r.body)).toEqual([]);
  });

  it('refuses the token request as JSON: the spec declares form only', async () => {
    const r = await h.call(
      'POST',
      '/auth/token',
      { grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' },
      { token: null },
    );
    expect(r.status).toBe(400);
    expect(errorEnvelope(r).errors?.[0]).toContain('application/x-www-form-urlencoded');
  });

  it('refuses wrong credentials, a wrong grant type and missing fields with 400', async () => {
    const cases = [
      { grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'nope' },
      { grant_type: 'password', client_id: 'sandbox-client', client_secret: 'sandbox-secret' },
      { grant_type: 'client_credentials', client_id: 'sandbox-client' },
    ];
    for (const c of cases) {
      const r = await h.call('POST', '/auth/token', undefined, form(c as Record<string, string>));
      expect(r.status).toBe(400);
      expect(specProblems('createAccessToken', r.status, r.body)).toEqual([]);
    }
  });

  it('answers 401 with the envelope without, with a malformed or with an unknown token', async () => {
    for (const token of [null, 'sbx_unknown']) {
      const r = await h.call('GET', '/account', undefined, { token });
      expect(r.status).toBe(401);
      expect(errorEnvelope(r).message).toBe('Unauthorized');
      expect(specProblems('getAccount', r.status, r.body, r.headers)).toEqual([]);
    }
    const r = await h.call('GET', '/account', undefined, { token: null, headers: { authorization: 'Basic abc' } });
    expect(r.status).toBe(401);
  });

  it('refuses a revoked token', async () => {
    const token = await h.sb.token();
    expect((await h.call('GET', '/account', undefined, { token })).status).toBe(200);
    const revoke = await h.call(
      'POST',
      '/auth/revoke',
      undefined,
      form({ token, client_id: 'sandbox-client', client_secret: 'sandbox-secret' }),
    );
    expect(revoke.status).toBe(200);
    expect(revoke.body).toBeUndefined();
    const after = await h.call('GET', '/account', undefined, { token });
    expect(after.status).toBe(401);
    expect(after.body.errors).toEqual(['The access token has been revoked.']);
  });

  it('refuses a token once its 3599 seconds have passed', async () => {
    const token = await h.sb.token();
    h.sb.advance(3598_000);
    expect((await h.call('GET', '/account', undefined, { token })).status).toBe(200);
    h.sb.advance(1_000);
    const r = await h.call('GET', '/account', undefined, { token });
    expect(r.status).toBe(401);
    expect(r.body.errors).toEqual(['The access token has expired.']);
  });

  it('needs the owner scope for owner-only operations (403 otherwise)', async () => {
    const limited = await h.sb.token('sandbox-limited');
    const r = await h.call('PUT', '/sites/123458/convert/kit', undefined, { token: limited });
    expect(r.status).toBe(403);
    expect(errorEnvelope(r).errors?.[0]).toContain('owner');
    expect(specProblems('convertSiteToKit', r.status, r.body)).toEqual([]);
    // The generic conversion is not owner-only.
    expect((await h.call('PUT', '/sites/123457/convert', undefined, { token: limited })).status).toBe(200);
  });

  it('needs git_edit for git writes', async () => {
    const limited = await h.sb.token('sandbox-limited');
    const r = await h.call('POST', '/sites/123456/git/deploy', undefined, { token: limited });
    expect(r.status).toBe(403);
  });
});

describe('bad input never gets a 500', () => {
  it('maps malformed JSON, wrong content types and oversized bodies to a 400 envelope', async () => {
    const bad = [
      { raw: '{"subject": ', headers: { 'content-type': 'application/json' } },
      { raw: 'subject=a', headers: { 'content-type': 'text/plain' } },
      { raw: '<x/>', headers: { 'content-type': 'application/xml' } },
      {
        raw: JSON.stringify({ subject: 'x'.repeat(2_000_000), body: 'b' }),
        headers: { 'content-type': 'application/json' },
      },
      { raw: '[1,2]', headers: { 'content-type': 'application/json' } },
      { raw: '"text"', headers: { 'content-type': 'application/json' } },
    ];
    for (const opts of bad) {
      const r = await h.call('POST', '/sites/123456/notes', undefined, opts);
      expect(r.status, opts.raw.slice(0, 20)).toBe(400);
      expect(errorEnvelope(r).message).toBe('There was a problem processing your request.');
      expect(specProblems('createSiteNote', r.status, r.body)).toEqual([]);
    }
  });
  // Junk to every operation, reaching the handlers: test/junk.test.ts.
});

describe('HTTP layer', () => {
  /**
   * Writes `text` on a raw connection to the sandbox, then half-closes it (`end`) or drops it
   * (`destroy`), and returns all it answered.
   */
  const rawExchange = (text: string, then: 'end' | 'destroy' = 'end') =>
    new Promise<string>((done, fail) => {
      const { hostname, port } = new URL(h.sb.authUrl);
      const socket = connect(Number(port), hostname, () => {
        socket.write(text, () => (then === 'end' ? socket.end() : setTimeout(() => socket.destroy(), 20)));
      });
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => (answer += chunk));
      socket.on('close', () => done(answer));
      socket.on('error', fail);
    });
  const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

  it('answers a request that is not HTTP with a 400 envelope, and goes on serving', async () => {
    const answer = await rawExchange('HELLO SANDBOX\r\n\r\n');
    expect(answer.startsWith('HTTP/1.1 400 ')).toBe(true);
    expect(bodyOf(answer)).toMatchObject({ message: 'There was a problem processing your request.', data: null });
    expect((await h.call('GET', '/sites/123456')).status).toBe(200);
  });

  it('answers a path with broken percent-encoding, an unknown method or path with 404', async () => {
    // A path that cannot be decoded names no resource (getSite documents 404, not 400).
    const bad = await h.call('GET', '/sites/%E0%A4%A');
    expect(bad.status).toBe(404);
    expect(specProblems('getSite', bad.status, bad.body)).toEqual([]);
    for (const [method, path] of [
      ['PROPFIND', '/sites'],
      ['GET', '/no/such/route'],
      ['PATCH', '/sites/123456'],
    ]) {
      const r = await h.call(method!, path!);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(errorEnvelope(r).message).toBe('We could not locate the requested resources.');
    }
  });

  it('refuses a chunked body over the limit (no Content-Length to check first)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((done, fail) => {
      const req = request(`${h.sb.url}/sites/123456/notes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
      });
      req.on('response', (res) => {
        res.resume();
        done(res.statusCode ?? 0);
      });
      req.on('error', fail);
      const chunk = 'x'.repeat(64 * 1024);
      for (let sent = 0; sent < 2 * 1024 * 1024; sent += chunk.length) req.write(chunk);
      req.end();
    });
    expect(status).toBe(400);
    expect((await h.call('GET', '/sites/123456/notes')).status).toBe(200);
  });

  it('survives a client that hangs up in the middle of a body', async () => {
    const partial = `POST /v1/sites/123456/notes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"subject":`;
    expect(await rawExchange(partial, 'destroy')).toBe('');
    const notes = await h.call('GET', '/sites/123456/notes');
    expect(notes.status).toBe(200);
  });

  it('answers a bug with a 500 envelope, reports it to onError, and goes on serving', async () => {
    const errors: unknown[] = [];
    const sb = await startSandbox({ speed: 0, onError: (_message, error) => errors.push(error) });
    try {
      const token = await sb.token();
      const call = (method: string, path: string, body?: unknown) =>
        fetch(`${path.startsWith('/__') ? sb.authUrl : sb.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      // A state no handler expects (a null note, which the fixture check would refuse): listing
      // notes throws a TypeError.
      sb.runtime.state.notes.push(null as never);
      const broken = await call('GET', '/sites/123456/notes');
      expect(broken.status).toBe(500);
      expect(await broken.json()).toEqual({
        message: 'An internal error occurred while processing your request. Please try again.',
        data: null,
        errors: null,
      });
      expect(errors).toHaveLength(1);
      expect(errors[0]).toBeInstanceOf(TypeError);
      expect((await call('GET', '/sites/123456')).status).toBe(200);
    } finally {
      await sb.stop();
    }
  });
});

describe('validation texts', () => {
  it('words enum failures like the seed (`a, b, or c`; `a or b`), naming the field', async () => {
    const fs = await h.call('PUT', '/sites/123456/php_fs_permissions', { php_fs_permission: 'rwx' });
    expect(errorEnvelope(fs).errors).toEqual(['php_fs_permission must be rw, ro, or loggedin']);
    const backup = await h.call('POST', '/sites/123456/ondemand-backups', { backup_type: 'tape' });
    expect(backup.status).toBe(400);
    expect(errorEnvelope(backup).errors).toEqual(['backup_type must be fs or db']);
  });

  it('ignores a body sent with a GET whose operation declares none, and parses one where it does', async () => {
    const { request } = await import('node:http');
    const get = (path: string, body: string, type: string) =>
      new Promise<{ status: number; body: any }>((done, fail) => {
        const url = new URL(`${h.sb.url}${path}`);
        const req = request(
          url,
          {
            method: 'GET',
            headers: {
              authorization: `Bearer ${h.token}`,
              'content-type': type,
              'content-length': Buffer.byteLength(body),
            },
          },
          (res) => {
            let text = '';
            res.on('data', (c) => (text += c));
            res.on('end', () => done({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
          },
        );
        req.on('error', fail);
        req.end(body);
      });
    expect((await get('/sites/123456', '{not json', 'application/json')).status).toBe(200);
    expect((await get('/sites/123456', '<x/>', 'application/xml')).status).toBe(200);
    expect((await get('/sites/123456/logs/php', '{not json', 'application/json')).status).toBe(400);
    const bad = await get('/sites/123456/logs/php', '<x/>', 'application/xml');
    expect(bad.status).toBe(400);
  });
});

describe('validation shortcuts', () => {
  it("skips only path parameter schemas that accept every value validateRequest's own checks let through", async () => {
    const { operations: schemas } = await import('@hosting-api/schemas');
    const { loadSpec } = await import('../src/http/spec.js');
    const { operations } = await loadSpec();
    const skipped = operations.filter((op) => !op.pathParamsNeedSchema);
    expect(skipped.length).toBeGreaterThan(90); // the integer ids
    expect(operations.filter((op) => op.pathParamsNeedSchema).length).toBeGreaterThan(0); // email ones keep it
    for (const op of skipped) {
      const params = (schemas as Record<string, { params?: { safeParse(x: unknown): { success: boolean } } }>)[
        op.operationId
      ]?.params;
      if (!params) continue;
      for (const [integer, text] of [
        [0, 'x'],
        [-1, 'not-an-email'],
        [Number.MAX_SAFE_INTEGER, ' '],
      ] as const) {
        const value = Object.fromEntries(
          Object.entries(op.pathParams).map(([name, type]) => [name, type === 'integer' ? integer : text]),
        );
        expect(params.safeParse(value).success, `${op.operationId} ${JSON.stringify(value)}`).toBe(true);
      }
    }
  });

  it('every query schema accepts an empty query as it is (validation skips a request without one)', async () => {
    const { operations } = await import('@hosting-api/schemas');
    for (const [id, v] of Object.entries(operations as Record<string, { query?: { safeParse(x: unknown): any } }>)) {
      if (!v.query) continue;
      const r = v.query.safeParse({});
      expect(r.success, id).toBe(true);
      expect(r.data, id).toEqual({});
    }
  });
});

describe('control routes', () => {
  it('reset restores the seed', async () => {
    await h.call('DELETE', '/sites/123456');
    expect((await h.call('GET', '/sites/123456')).status).toBe(404);
    await h.call('POST', '/__sandbox/reset');
    expect((await h.call('GET', '/sites/123456')).status).toBe(200);
  });

  it('patches the state in place (merge patch) and refuses patches that break it', async () => {
    expect((await h.call('PUT', '/sites/123456/multisite-support')).status).toBe(200);
    expect((await h.call('PATCH', '/__sandbox/state', { account: { highTrafficPlan: false } })).status).toBe(200);
    const refused = await h.call('PUT', '/sites/123456/multisite-support');
    expect(errorEnvelope(refused).errors).toEqual(['Multisite support requires a high-traffic plan.']);
    expect((await h.call('GET', '/account')).body.data.email).toBe('ada@example.com');
    expect((await h.call('PATCH', '/__sandbox/state', { sites: 'none' })).status).toBe(400);
    expect((await h.call('PATCH', '/__sandbox/state', [1])).status).toBe(400);
    expect((await h.call('GET', '/sites/123456')).status).toBe(200);
  });

  it('the clock advances by duration and refuses nonsense', async () => {
    const before = Date.parse((await h.call('GET', '/__sandbox/clock')).body.data.now);
    const r = await h.call('POST', '/__sandbox/clock', { advance: '90m' });
    expect(Date.parse(r.body.data.now) - before).toBe(90 * 60_000);
    expect((await h.call('POST', '/__sandbox/clock', { advance: 'soon' })).status).toBe(400);
    expect((await h.call('POST', '/__sandbox/clock', { advance_ms: -1 })).status).toBe(400);
  });

  it('dumps the state and loads it back, also from a --seed file', async () => {
    await h.call('POST', '/sites/123456/notes', { subject: 'kept', body: 'in the dump' });
    const dump = (await h.call('GET', '/__sandbox/state')).body.data;
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-'));
    const file = join(dir, 'seed.json');
    writeFileSync(file, JSON.stringify(dump));
    const other = await startSandbox({ seed: file, speed: 0, selfCheck: true });
    try {
      const token = await other.token();
      const res = await fetch(`${other.url}/sites/123456/notes?per_page=50`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = (await res.json()) as any;
      expect(body.data.map((n: any) => n.subject)).toContain('kept');
    } finally {
      await other.stop();
    }
    expect((await h.call('PUT', '/__sandbox/state', { sites: 'nope' })).status).toBe(400);
    writeFileSync(file, '{"sites": []}');
    await expect(startSandbox({ seed: file })).rejects.toThrow(/not a sandbox state/);
  });

  it('records webhook events and delivers them to the webhook URL', async () => {
    const received: { event: string | undefined; body: unknown }[] = [];
    const receiver = createServer((req, res) => {
      let data = '';
      req.on('data', (c) => (data += c));
      req.on('end', () => {
        received.push({ event: req.headers['x-hosting-event'] as string | undefined, body: JSON.parse(data) });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as { port: number }).port;
    const sb = await startSandbox({ speed: 0, selfCheck: true, webhookUrl: `http://127.0.0.1:${port}/hook` });
    try {
      sb.runtime.emitWebhook('git_deploy_completed', { git: { state: 'deployed' } });
      const list = (await (await fetch(`${sb.authUrl}/__sandbox/webhooks`)).json()) as any;
      expect(list.data).toHaveLength(1);
      expect(list.data[0]).toMatchObject({ event: 'git_deploy_completed', status: 200 });
      expect(received).toEqual([{ event: 'git_deploy_completed', body: { git: { state: 'deployed' } } }]);
    } finally {
      await sb.stop();
      receiver.close();
    }
  });
});

describe('clock-driven work', () => {
  it('runs queued work in virtual time only (speed 0) and in real time when speed > 0', async () => {
    const created = await h.call('POST', '/sites', { name: 'clocked' });
    const id = created.body.data.id;
    h.sb.advance(29_999);
    expect((await h.call('GET', `/sites/${id}`)).body.data.state).toBe('deploying');
    h.sb.advance(1);
    expect((await h.call('GET', `/sites/${id}`)).body.data.state).toBe('live');

    const fast = await startSandbox({ speed: 1_000, selfCheck: true });
    try {
      const token = await fast.token();
      const res = await fetch(`${fast.url}/sites`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'speedy' }),
      });
      const site = ((await res.json()) as any).data;
      // 30 s virtual = 30 ms real: poll until it is live (a fresh token each time: one lives 3.6 s real).
      let got: any;
      for (let i = 0; i < 100 && got?.data?.state !== 'live'; i++) {
        await new Promise((r) => setTimeout(r, 20));
        const res = await fetch(`${fast.url}/sites/${site.id}`, {
          headers: { authorization: `Bearer ${await fast.token()}` },
        });
        got = await res.json();
      }
      expect(got.data.state).toBe('live');
    } finally {
      await fast.stop();
    }
  });
});

// The rule that replaces a lock (AREAS.md): handlers are synchronous, so each request reads and
// writes the state in one stretch no other request can interleave, across sites too.
describe('concurrency: handlers are synchronous', () => {
  it('a handler that returns a promise is a bug: 500, reported, and the sandbox goes on serving', async () => {
    const original = handlers.getAccount;
    const errors: unknown[] = [];
    (handlers as Record<string, unknown>).getAccount = async () => ({ data: null });
    let sb: Awaited<ReturnType<typeof startSandbox>> | undefined;
    try {
      sb = await startSandbox({ speed: 0, onError: (_m, e) => errors.push(e) });
    } finally {
      (handlers as Record<string, unknown>).getAccount = original;
    }
    try {
      const token = await sb.token();
      const res = await fetch(`${sb.url}/account`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(500);
      expect(String(errors[0])).toContain('handlers must stay synchronous');
      expect((await fetch(`${sb.url}/sites/123456`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
        200,
      );
    } finally {
      await sb.stop();
    }
  });

  it('loses no writes under concurrent creation', async () => {
    const before = (await h.call('GET', '/sites/123458/notes?per_page=500')).body.page.totalItems;
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => h.call('POST', '/sites/123458/notes', { subject: `n${i}`, body: 'b' })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(60);
    const after = (await h.call('GET', '/sites/123458/notes?per_page=500')).body.page.totalItems;
    expect(after).toBe(before + 60);
  });

  it('holds the site limit across sites: concurrent creates and clones of different sources', async () => {
    const state = (await h.call('GET', '/__sandbox/state')).body.data;
    state.account.maxSites = state.sites.length + 3;
    await h.call('PUT', '/__sandbox/state', state);
    const sources = [123456, 123457, 123458, 123459, 123461];
    const results = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => h.call('POST', '/sites', { name: `race-${i}` })),
      ...sources.map((id, i) => h.call('POST', `/sites/${id}/clone`, { name: `clone-race-${i}` })),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status === 400)).toHaveLength(8);
    expect(h.sb.runtime.state.sites).toHaveLength(state.sites.length + 3);
  });

  it('holds the billable limit across sites: concurrent conversions to live and creates', async () => {
    const state = h.sb.runtime.state;
    state.account.maxBillable = state.sites.filter((s) => !s.staging && !s.sandbox && !s.kit).length + 1;
    const results = await Promise.all([
      h.call('PUT', '/sites/123457/convert/live'),
      h.call('PUT', '/sites/123458/convert/live'),
      h.call('POST', '/sites', { name: 'billable-race' }),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
  });

  it('restores onto another site while that site is restored too: one consistent outcome', async () => {
    const results = await Promise.all([
      h.call('POST', '/sites/123456/restores', {
        filesystem_id: 81234568,
        database_id: 81234567,
        restore_on_site_id: 123457,
      }),
      h.call('POST', '/sites/123456/restores', {
        filesystem_id: 81234569,
        database_id: 81234570,
        restore_on_site_id: 123457,
      }),
      h.call('POST', '/sites/123456/restores', { filesystem_id: 81234568, database_id: 81234567 }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const restores = h.sb.runtime.state.restores.filter((r) => r.status === 'in_progress');
    expect(restores).toHaveLength(3);
    expect(new Set(restores.map((r) => r.id)).size).toBe(3);
    expect(h.sb.runtime.state.sites.find((s) => s.id === 123457)!.maintenanceMode).toBe(true);
    h.sb.advance(60_000);
    for (const id of [123456, 123457])
      expect(h.sb.runtime.state.sites.find((s) => s.id === id)!.maintenanceMode).toBe(false);
  });
});
