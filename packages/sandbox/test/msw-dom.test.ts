// @vitest-environment happy-dom
// A front-end test as an app team writes it: a DOM environment, msw's setupServer with the sandbox
// handlers, and @hosting-api/client calling addresses that only MSW answers. The clock is frozen:
// advance() moves a created site from deploying to live.
import { createClient } from '@hosting-api/client';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DURATIONS } from '../src/index.js';
import { createSandboxHandlers } from '../src/msw.js';

const sandbox = createSandboxHandlers({
  baseUrl: 'https://api.example.test/v1',
  authUrl: 'https://auth.example.test',
  speed: 0,
});
const server = setupServer(...sandbox.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

it('runs in a DOM environment: the client signs in, creates a site, and the clock takes it live', async () => {
  expect(typeof window).toBe('object'); // happy-dom, as in a front-end project
  const client = createClient({
    baseUrl: 'https://api.example.test/v1',
    authUrl: 'https://auth.example.test',
    clientId: 'sandbox-client',
    clientSecret: 'sandbox-secret',
  });
  const site = await client.sites.create({ name: 'dom-shop' });
  expect(site.state).toBe('deploying');
  sandbox.advance(DURATIONS.siteDeploy);
  expect((await client.sites.get(site.id)).state).toBe('live');
  const note = await client.sites.notes.create(site.id, { subject: 'From a DOM test', body: 'Through MSW.' });
  expect(sandbox.state().notes.find((n) => n.id === note.id)?.subject).toBe('From a DOM test');
  sandbox.reset();
  expect(sandbox.state().sites.some((s) => s.id === site.id)).toBe(false);
});
