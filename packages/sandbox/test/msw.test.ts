// The same requests, in the same order, to the sandbox server and to the sandbox as MSW handlers
// (msw's setupServer, on other hosts): every answer must match in status, headers that matter and
// body. Only the access tokens differ (they are random); each side's own token is masked.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DURATIONS, type Sandbox, startSandbox } from '../src/index.js';
import { createSandboxHandlers, type SandboxHandlers } from '../src/msw.js';
import { START } from './helpers.js';

interface Step {
  name: string;
  method: string;
  /** /v1/…, /auth/… or /__sandbox/…; {site} is the id of the site the table created. */
  path: string;
  body?: string;
  contentType?: string;
  /** false: no Authorization header; a string: that header; default: Bearer and the side's token. */
  auth?: false | string;
  origin?: string;
  /** Virtual time to let pass before this step. */
  advance?: number;
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const TOKEN_REQUEST = {
  grant_type: 'client_credentials',
  client_id: 'sandbox-client',
  client_secret: 'sandbox-secret',
};
const STEPS: Step[] = [
  {
    name: 'token',
    method: 'POST',
    path: '/auth/token',
    body: form(TOKEN_REQUEST),
    auth: false,
    contentType: 'application/x-www-form-urlencoded',
  },
  {
    name: 'token, wrong secret',
    method: 'POST',
    path: '/auth/token',
    body: form({ ...TOKEN_REQUEST, client_secret: 'no' }),
    auth: false,
    contentType: 'application/x-www-form-urlencoded',
  },
  {
    name: 'token as JSON (not declared)',
    method: 'POST',
    path: '/auth/token',
    body: JSON.stringify(TOKEN_REQUEST),
    auth: false,
    contentType: 'application/json',
  },
  { name: 'list sites', method: 'GET', path: '/v1/sites?limit=2' },
  { name: 'list sites, page 2', method: 'GET', path: '/v1/sites?limit=2&page=2' },
  { name: 'a site', method: 'GET', path: '/v1/sites/123456' },
  { name: 'no such site', method: 'GET', path: '/v1/sites/999' },
  { name: 'not a canonical id', method: 'GET', path: '/v1/sites/0x1e240' },
  { name: 'no token', method: 'GET', path: '/v1/account', auth: false },
  { name: 'garbage token', method: 'GET', path: '/v1/account', auth: 'Bearer garbage' },
  { name: 'another scheme', method: 'GET', path: '/v1/account', auth: 'Basic abc' },
  { name: 'account', method: 'GET', path: '/v1/account' },
  {
    name: 'create a note',
    method: 'POST',
    path: '/v1/sites/123456/notes',
    body: JSON.stringify({ subject: 'From MSW', body: 'Same answer.' }),
    contentType: 'application/json',
  },
  {
    name: 'a note without subject',
    method: 'POST',
    path: '/v1/sites/123456/notes',
    body: JSON.stringify({ body: 'x' }),
    contentType: 'application/json',
  },
  {
    name: 'a note as text',
    method: 'POST',
    path: '/v1/sites/123456/notes',
    body: 'subject',
    contentType: 'text/plain',
  },
  {
    name: 'malformed JSON',
    method: 'POST',
    path: '/v1/sites/123456/notes',
    body: '{"subject": ',
    contentType: 'application/json',
  },
  { name: 'the notes', method: 'GET', path: '/v1/sites/123456/notes' },
  {
    name: 'create a site',
    method: 'POST',
    path: '/v1/sites',
    body: JSON.stringify({ name: 'msw-shop' }),
    contentType: 'application/json',
  },
  { name: 'the new site, deploying', method: 'GET', path: '/v1/sites/{site}' },
  { name: 'the new site, live', method: 'GET', path: '/v1/sites/{site}', advance: DURATIONS.siteDeploy },
  { name: 'disable a site', method: 'PUT', path: '/v1/sites/123456/disable' },
  { name: 'a method the path lacks', method: 'PATCH', path: '/v1/sites/123456' },
  { name: 'an unknown path', method: 'GET', path: '/v1/no-such-thing' },
  { name: 'the clock (control route)', method: 'GET', path: '/__sandbox/clock', auth: false },
  { name: 'reset (control route)', method: 'POST', path: '/__sandbox/reset', auth: false },
  { name: 'after the reset, the old token', method: 'GET', path: '/v1/account' },
];

interface Answer {
  status: number;
  headers: Record<string, string | null>;
  body: unknown;
}

/** Runs every step against one side; `root` maps a step's path to that side's URL. */
async function runAll(root: (path: string) => string, advance: (ms: number) => void): Promise<Answer[]> {
  const answers: Answer[] = [];
  let token = '';
  let site = '';
  for (const step of STEPS) {
    if (step.advance) advance(step.advance);
    const headers: Record<string, string> = {};
    if (step.auth === undefined) headers.authorization = `Bearer ${token}`;
    else if (step.auth) headers.authorization = step.auth;
    if (step.contentType) headers['content-type'] = step.contentType;
    if (step.origin) headers.origin = step.origin;
    const res = await fetch(root(step.path.replace('{site}', site)), { method: step.method, headers, body: step.body });
    const text = await res.text();
    if (step.name === 'token') token = JSON.parse(text).data.access_token;
    if (step.name === 'create a site') site = String(JSON.parse(text).data.id);
    const masked = token ? text.split(token).join('<token>') : text;
    answers.push({
      status: res.status,
      headers: Object.fromEntries(
        ['content-type', 'www-authenticate', 'allow'].map((name) => [name, res.headers.get(name)]),
      ),
      body: res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(masked) : masked,
    });
  }
  return answers;
}

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
    );
    const msw = await runAll(
      (path) => (path.startsWith('/v1') ? API + path.slice(3) : AUTH + path),
      (ms) => mocked.advance(ms),
    );
    for (const [i, step] of STEPS.entries()) expect(msw[i], step.name).toEqual(server[i]);
    // The table reaches what it names: a success, each refusal, the state machine.
    expect(server.map((a) => a.status)).toEqual(expect.arrayContaining([200, 400, 401, 404]));
    const state = (name: string) =>
      (server[STEPS.findIndex((s) => s.name === name)]!.body as { data: { state: string } }).data.state;
    expect(state('the new site, deploying')).toBe('deploying');
    expect(state('the new site, live')).toBe('live');
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
