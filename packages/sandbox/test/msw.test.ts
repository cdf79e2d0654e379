// The same requests, in the same order, to the sandbox server and to the sandbox as MSW handlers
// (msw's setupServer, on other hosts): every answer must match in status, headers that matter and
// body. Only the access tokens differ (they are random); each side's own token is masked.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, runAll, STEPS, TOKEN_REQUEST } from '../conformance/msw-table.js';
import { type Sandbox, startSandbox } from '../src/index.js';
import { createSandboxHandlers, type SandboxHandlers } from '../src/msw.js';
import { START } from './helpers.js';

describe('@hosting-api/sandbox/msw answers as the sandbox server does', () => {
  let sandbox: Sandbox;
  let mocked: SandboxHandlers;
  const worker = { server: undefined as ReturnType<typeof setupServer> | undefined };
  const API = 'http://api.sandbox.test/v1';
  const AUTH = 'http://auth.sandbox.test';

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, speed: 0, startTime: START });
    mocked = createSandboxHandlers({ baseUrl: API, authUrl: AUTH, speed: 0, startTime: START });
    worker.server = setupServer(...mocked.handlers);
    // Requests to the real sandbox pass through; anything else unmatched is a test bug.
    worker.server.listen({
      onUnhandledRequest: (request, print) => {
        if (!request.url.startsWith(sandbox.authUrl)) print.error();
      },
    });
  });
  afterAll(async () => {
    worker.server?.close();
    await sandbox?.stop();
  });

  it('gives the same status, headers and body for every step of the table', async () => {
    const server = await runAll(
      (path) => (path.startsWith('/v1') ? sandbox.url + path.slice(3) : sandbox.authUrl + path),
      (ms) => sandbox.advance(ms),
      STEPS,
    );
    const msw = await runAll(
      (path) => (path.startsWith('/v1') ? API + path.slice(3) : AUTH + path),
      (ms) => mocked.advance(ms),
      STEPS,
    );
    for (const [i, step] of STEPS.entries()) expect(msw[i], step.name).toEqual(server[i]);
    // The table reaches what it names: a success, each refusal, the state machine.
    expect(server.map((a) => a.status)).toEqual(expect.arrayContaining([200, 400, 401, 404]));
    const state = (name: string) =>
      (server[STEPS.findIndex((s) => s.name === name)]!.body as { data: { state: string } }).data.state;
    expect(state('the new site, deploying')).toBe('deploying');
    expect(state('the new site, live')).toBe('live');
    // And what the browser build swaps in (src/browser/platform.ts) shows in the answers.
    const answer = (name: string) => server[STEPS.findIndex((s) => s.name === name)]!;
    expect(answer('a firewall rule to an IP address').status).toBe(200);
    expect(answer('a firewall rule to a malformed address').status).toBe(400);
    expect(JSON.stringify(answer('the deploy history (SHA-1 commit ids)').body)).toMatch(/"after":"[0-9a-f]{40}"/);
    expect(JSON.stringify(answer('the PHP log, first page (a base64url scroll_id)').body)).toMatch(
      /"scroll_id":"[\w-]+"/,
    );
    expect(answer('a backup download (gzip)').body).toContain('ada-blog/index.php');
  });

  it('exposes the state, and reset() goes back to the seed', async () => {
    const notes = () => mocked.state().notes.length;
    const before = notes();
    const token = await fetch(`${AUTH}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form(TOKEN_REQUEST),
    }).then(async (r) => (await r.json()).data.access_token as string);
    const created = await fetch(`${API}/sites/123456/notes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ subject: 'kept', body: 'until reset' }),
    });
    expect(created.status).toBe(200);
    expect(notes()).toBe(before + 1);
    mocked.reset();
    expect(notes()).toBe(before);
  });

  it('refuses options it cannot serve, saying which', () => {
    expect(() => createSandboxHandlers({ baseUrl: 'api.test/v1', authUrl: AUTH })).toThrow(
      /baseUrl must be an absolute URL/,
    );
    expect(() => createSandboxHandlers({ baseUrl: 'http://api.test', authUrl: AUTH })).toThrow(
      /baseUrl must end in \/v1/,
    );
  });
});
