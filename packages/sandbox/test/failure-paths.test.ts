// Failure paths on demand: the documented outcomes (a failed git deploy in the history, the
// webhook and the alerts; a duplicated delivery the client's receiver tells from the first; no
// delivery for an interrupted deploy) and transport faults against the client (a dropped connection
// is retried, a timeout is the client's TimeoutError, an injected status is marked), from the
// control routes and from the MSW handlers. One sandbox (and one webhook receiver) for the file.
import http from 'node:http';
import { createClient, createWebhookReceiver, TimeoutError } from '@hosting-api/client';
import * as schemas from '@hosting-api/schemas';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DURATIONS } from '../src/index.js';
import { createSandboxHandlers } from '../src/msw.js';
import { useSandbox } from './helpers.js';

// Deliveries land here (the sandbox's --webhook-url), with their headers.
const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
const receiver = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c: string) => (body += c));
  req.on('end', () => {
    received.push({ headers: req.headers, body });
    res.end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise((resolve) => receiver.close(resolve)));
const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;

const h = useSandbox({ webhookUrl: hookUrl });
const control = async (method: string, path: string, body?: unknown) => {
  const r = await h.call(method, path, body);
  return r;
};
/** Deploys site 123456 and lets the deploy finish; returns the deliveries that reached the receiver. */
async function deployAndFinish(): Promise<{ headers: http.IncomingHttpHeaders; body: string }[]> {
  const before = received.length;
  await h.api.sites.git.deploy(123456);
  h.sb.advance(DURATIONS.gitDeploy);
  await h.sb.runtime.settle();
  return received.slice(before);
}
const newestDeploy = async () => (await h.api.sites.git.history(123456)).data[0]!;
const failureAlerts = async () => (await h.api.alerts.list({ category: 'failure' })).data;

describe('documented outcomes from the control route', () => {
  it('the next N git deploys fail: history, webhook git.state and a failure alert; then success again', async () => {
    const armed = await control('POST', '/__sandbox/outcomes', {
      outcome: 'git_deploy_failed',
      site_id: 123456,
      count: 2,
    });
    expect(armed.status).toBe(200);
    expect((await control('GET', '/__sandbox/outcomes')).body.data).toEqual([
      { outcome: 'git_deploy_failed', site_id: 123456, count: 2, copies: 1 },
    ]);
    for (let i = 0; i < 2; i++) {
      const deliveries = await deployAndFinish();
      expect((await newestDeploy()).state).toBe('failed');
      expect(deliveries.map((d) => JSON.parse(d.body))).toEqual([{ git: { state: 'failed' } }]);
      expect(deliveries[0]!.headers['x-hosting-event']).toBe('git_deploy_completed');
    }
    const alerts = await failureAlerts();
    expect(alerts).toHaveLength(2);
    expect(alerts[0]).toMatchObject({
      type: 'site.git_deploy_failed',
      category: 'failure',
      title: 'Git deploy failed',
    });
    const third = await deployAndFinish();
    expect((await newestDeploy()).state).toBe('deployed');
    expect(JSON.parse(third[0]!.body)).toEqual({ git: { state: 'deployed' } });
  });

  it('a delivery sent twice, same payload and identity: the client receiver flags the repeat', async () => {
    await control('POST', '/__sandbox/outcomes', { outcome: 'git_deploy_duplicate_delivery', site_id: 123456 });
    const deliveries = await deployAndFinish();
    expect(deliveries).toHaveLength(2);
    expect(deliveries[1]!.body).toBe(deliveries[0]!.body);
    expect(deliveries[1]!.headers['x-hosting-delivery']).toBe(deliveries[0]!.headers['x-hosting-delivery']);
    const rx = createWebhookReceiver({ schemas: { git_deploy_completed: schemas.GitDeployCompletedEvent } });
    const first = await rx.receive(deliveries[0]!);
    const second = await rx.receive(deliveries[1]!);
    expect(first).toMatchObject({
      event: 'git_deploy_completed',
      payload: { git: { state: 'deployed' } },
      repeat: false,
    });
    expect(second.repeat).toBe(true);
    // The next deploy's delivery is a new one.
    expect((await rx.receive((await deployAndFinish())[0]!)).repeat).toBe(false);
    // The default schemas come from @hosting-api/schemas; a payload without git.state is refused.
    await expect(
      createWebhookReceiver().receive({ event: 'git_deploy_completed', body: '{"git":{}}' }),
    ).rejects.toThrow(/does not match the API's schema/);
  });

  it('an interrupted deploy: history failed, a failure alert, and no delivery', async () => {
    await control('POST', '/__sandbox/outcomes', { outcome: 'git_deploy_interrupted', site_id: 123456 });
    const webhooksBefore = h.sb.runtime.webhooks.length;
    expect(await deployAndFinish()).toEqual([]);
    expect(h.sb.runtime.webhooks.length).toBe(webhooksBefore);
    expect((await newestDeploy()).state).toBe('failed');
    expect(await failureAlerts()).toHaveLength(1);
  });

  it('refuses outcomes the documentation does not name, unknown sites, and sites that cannot produce them', async () => {
    const bad = await control('POST', '/__sandbox/outcomes', { outcome: 'site_on_fire', site_id: 123456 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatch(/^outcome.outcome: must be one of git_deploy_failed, git_deploy_interrupted/);
    const unknown = await control('POST', '/__sandbox/outcomes', { outcome: 'git_deploy_failed', site_id: 1 });
    expect([unknown.status, unknown.body.errors]).toEqual([404, ['outcome.site_id: no site 1']]);
    // 123461 is not enrolled in git: its deploys answer 422, so no deploy of it can fail.
    for (const outcome of ['git_deploy_failed', 'git_deploy_interrupted', 'git_deploy_duplicate_delivery']) {
      const refused = await control('POST', '/__sandbox/outcomes', { outcome, site_id: 123461 });
      expect([refused.status, refused.body.errors]).toEqual([
        422,
        [
          `outcome.site_id: site 123461 is not enrolled in git (its git deploys answer 422), so it cannot produce ${outcome}`,
        ],
      ]);
    }
    expect(() =>
      createSandboxHandlers({ baseUrl: 'https://a.test/v1', authUrl: 'https://a.test' }).outcome({
        outcome: 'git_deploy_failed',
        site_id: 123461,
      }),
    ).toThrow(/not enrolled in git/);
  });

  it('POST /__sandbox/webhooks/trigger sends one valid delivery about an existing deploy', async () => {
    const before = received.length;
    const sent = await control('POST', '/__sandbox/webhooks/trigger', {
      event: 'git_deploy_completed',
      site_id: 123456,
    });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ event: 'git_deploy_completed', payload: { git: { state: 'deployed' } } });
    await h.sb.runtime.settle();
    const delivery = received[before]!;
    const rx = createWebhookReceiver();
    expect((await rx.receive(delivery)).payload).toEqual({ git: { state: 'deployed' } });
    const unknown = await control('POST', '/__sandbox/webhooks/trigger', { event: 'site_created', site_id: 123456 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual(["body.event: one of the spec's webhook events: git_deploy_completed"]);
    const none = await control('POST', '/__sandbox/webhooks/trigger', {
      event: 'git_deploy_completed',
      site_id: 123461,
    });
    expect(none.status).toBe(404);
  });
});

describe('transport faults from the control route', () => {
  const client = (timeout = 60_000) =>
    createClient({
      baseUrl: h.sb.baseUrl,
      authUrl: h.sb.authUrl,
      accessToken: () => h.token,
      timeout,
      retry: { initialDelayMs: 1, maxDelayMs: 1 },
    });

  it('a dropped connection is retried by the client', async () => {
    await control('POST', '/__sandbox/faults', { operationId: 'getSite', fault: 'drop' });
    expect((await client().sites.get(123456)).id).toBe(123456);
    expect((await control('GET', '/__sandbox/faults')).body.data).toEqual([]); // used once
  });

  it('a timeout (no answer) is the client timeout error', async () => {
    await control('POST', '/__sandbox/faults', { method: 'GET', path: '/sites/{site_id}', fault: 'timeout', times: 3 });
    await expect(client(200).sites.get(123456)).rejects.toBeInstanceOf(TimeoutError);
    await control('DELETE', '/__sandbox/faults');
  });

  it('an injected status, documented or not, is marked and passes the self-check', async () => {
    await control('POST', '/__sandbox/faults', {
      method: 'POST',
      path: '/sites/123456/notes',
      fault: 'status',
      status: 503,
    });
    const r = await h.call('POST', '/sites/123456/notes', { subject: 's', body: 'b' });
    expect(r.status).toBe(503);
    expect(r.headers.get('x-sandbox-fault')).toBe('injected');
    expect(r.body).toMatchObject({
      data: null,
      errors: [expect.stringMatching(/^sandbox fault: status 503 injected for createSiteNote/)],
    });
    // Used once: the next request is exact again.
    expect((await h.call('POST', '/sites/123456/notes', { subject: 's', body: 'b' })).status).toBe(200);
  });

  it('a delay holds the answer; a seeded probability picks the same requests every time', async () => {
    await control('POST', '/__sandbox/faults', { operationId: 'getAccount', fault: 'delay', delay_ms: 50 });
    const t0 = performance.now();
    expect((await h.call('GET', '/account')).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(45);
    const pattern = async () => {
      await control('POST', '/__sandbox/faults', {
        operationId: 'getAccount',
        fault: 'status',
        status: 500,
        probability: 0.5,
        seed: 7,
      });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await h.call('GET', '/account')).status);
      await control('DELETE', '/__sandbox/faults');
      return statuses;
    };
    const first = await pattern();
    expect(first).toContain(500);
    expect(first).toContain(200);
    expect(await pattern()).toEqual(first);
  });

  it('a 204 or 304 status fault has no body and no Content-Length', async () => {
    for (const status of [204, 304]) {
      await control('POST', '/__sandbox/faults', { operationId: 'getSite', fault: 'status', status });
      const res = await fetch(`${h.sb.url}/sites/123456`, { headers: { authorization: `Bearer ${h.token}` } });
      expect([res.status, res.headers.get('content-length'), res.headers.get('x-sandbox-fault')]).toEqual([
        status,
        null,
        'injected',
      ]);
      expect(await res.text()).toBe('');
    }
  });

  it('a reset clears faults, as it clears outcomes', async () => {
    await control('POST', '/__sandbox/faults', { operationId: 'getSite', fault: 'status', status: 503 });
    await control('POST', '/__sandbox/outcomes', { outcome: 'git_deploy_failed', site_id: 123456 });
    await control('POST', '/__sandbox/reset');
    expect((await control('GET', '/__sandbox/faults')).body.data).toEqual([]);
    expect((await control('GET', '/__sandbox/outcomes')).body.data).toEqual([]);
    expect((await h.call('GET', '/sites/123456')).status).toBe(200);
  });

  it('refuses a fault it cannot apply, naming the field', async () => {
    const bad = await control('POST', '/__sandbox/faults', { operationId: 'noSuchOperation', fault: 'drop' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(['fault.operationId: no operation "noSuchOperation" in the spec']);
    expect(
      (await control('POST', '/__sandbox/faults', { operationId: 'getSite', fault: 'status' })).body.errors,
    ).toEqual(['fault.status: needed for a status fault']);
  });
});

describe('the same from the MSW handlers', () => {
  const baseUrl = 'https://api.example.test/v1';
  const authUrl = 'https://auth.example.test';
  const sandbox = createSandboxHandlers({ baseUrl, authUrl, speed: 0 });
  const server = setupServer(...sandbox.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
  afterAll(() => server.close());
  const api = (timeout = 60_000) =>
    createClient({
      baseUrl,
      authUrl,
      clientId: 'sandbox-client',
      clientSecret: 'sandbox-secret',
      timeout,
      retry: { initialDelayMs: 1, maxDelayMs: 1 },
    });

  it('outcome(): a failed deploy in the history, the recorded webhook and the alerts; a duplicate flagged', async () => {
    sandbox.outcome({ outcome: 'git_deploy_failed', site_id: 123456 });
    sandbox.outcome({ outcome: 'git_deploy_duplicate_delivery', site_id: 123456 });
    const client = api();
    await client.sites.git.deploy(123456);
    sandbox.advance(DURATIONS.gitDeploy);
    expect((await client.sites.git.history(123456)).data[0]!.state).toBe('failed');
    expect((await client.alerts.list({ category: 'failure' })).data[0]).toMatchObject({
      type: 'site.git_deploy_failed',
    });
    const hooks = sandbox.webhooks();
    expect(hooks).toHaveLength(2);
    const rx = createWebhookReceiver();
    const seen = [];
    for (const d of hooks) seen.push(await rx.receive({ event: d.event, id: String(d.id), body: d.payload }));
    expect(seen.map((s) => [s.payload, s.repeat])).toEqual([
      [{ git: { state: 'failed' } }, false],
      [{ git: { state: 'failed' } }, true],
    ]);
  });

  it('outcome(): an interrupted deploy fails in the history with a failure alert, and no webhook is recorded', async () => {
    sandbox.outcome({ outcome: 'git_deploy_interrupted', site_id: 123456 });
    const client = api();
    const before = sandbox.webhooks().length;
    await client.sites.git.deploy(123456);
    sandbox.advance(DURATIONS.gitDeploy);
    expect((await client.sites.git.history(123456)).data[0]!.state).toBe('failed');
    expect(sandbox.webhooks()).toHaveLength(before);
    expect((await client.alerts.list({ category: 'failure' })).data.length).toBeGreaterThan(0);
  });

  it('fault(): a dropped connection is retried, a timeout is the client timeout error, a status is marked', async () => {
    await sandbox.fault({ operationId: 'getSite', fault: 'drop' });
    expect((await api().sites.get(123456)).id).toBe(123456);
    // The client retries an idempotent request after a timeout (2 retries): all 3 attempts time out.
    await sandbox.fault({ operationId: 'getSite', fault: 'timeout', times: 3 });
    await expect(api(200).sites.get(123456)).rejects.toBeInstanceOf(TimeoutError);
    await sandbox.fault({ operationId: 'getAccount', fault: 'status', status: 418 });
    const res = await fetch(`${baseUrl}/account`, { headers: { authorization: 'Bearer x' } });
    expect(res.status).toBe(418);
    expect(res.headers.get('x-sandbox-fault')).toBe('injected');
    sandbox.clearFaults();
    await expect(sandbox.fault({ operationId: 'nope', fault: 'drop' })).rejects.toThrow(/no operation "nope"/);
  });

  it('reset() clears faults and outcomes, as POST /__sandbox/reset does', async () => {
    await sandbox.fault({ operationId: 'getAccount', fault: 'status', status: 503 });
    sandbox.outcome({ outcome: 'git_deploy_failed', site_id: 123456 });
    sandbox.reset();
    const res = await fetch(`${baseUrl}/account`, { headers: { authorization: 'Bearer x' } });
    expect([res.status, res.headers.get('x-sandbox-fault')]).toEqual([401, null]);
    expect(sandbox.state().sites.length).toBeGreaterThan(0);
  });
});
