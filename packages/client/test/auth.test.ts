import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthenticationError, BadRequestError, createClient } from '../src/index';
import { delay, fail, json, ok, startServer, type TestServer } from './helpers/server';

const SECRET = 's3cr3t-value-that-must-not-leak';
let server: TestServer;
beforeEach(async () => {
  server = await startServer();
  server.api((req, res) => json(res, 200, ok({ id: 1, auth: req.headers.authorization })));
});
afterEach(() => server.close());

const credentials = () => ({ baseUrl: server.baseUrl, clientId: 'app-1', clientSecret: SECRET });

describe('client credentials', () => {
  it('obtains a token with a form-encoded client_credentials POST and sends it as a bearer token', async () => {
    const client = createClient(credentials());
    const account = await client.account.get();
    expect(account).toEqual({ id: 1, auth: 'Bearer token-1' });
    const [tokenReq] = server.tokenRequests();
    expect(tokenReq?.method).toBe('POST');
    expect(tokenReq?.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(new URLSearchParams(tokenReq?.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'app-1',
      client_secret: SECRET,
    });
    expect(tokenReq?.headers.authorization).toBeUndefined();
  });

  it('reuses the cached token until shortly before it expires, then fetches a new one', async () => {
    let n = 0;
    server.token((_req, res) => json(res, 200, ok({ access_token: `short-${++n}`, expires_in: 1 })));
    // The client's clock (Date) is moved by hand: no waiting. Installed before the client reads it.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const client = createClient(credentials());
      expect(await client.account.get()).toMatchObject({ auth: 'Bearer short-1' });
      vi.setSystemTime(Date.now() + 400);
      expect(await client.account.get()).toMatchObject({ auth: 'Bearer short-1' });
      expect(server.tokenRequests()).toHaveLength(1);
      // A 1 s token is refreshed after half its lifetime, before it runs out.
      vi.setSystemTime(Date.now() + 200);
      expect(await client.account.get()).toMatchObject({ auth: 'Bearer short-2' });
      expect(server.tokenRequests()).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shares one token request among 50 concurrent calls', async () => {
    server.token(async (_req, res) => {
      await delay(50);
      json(res, 200, ok({ access_token: 'shared', expires_in: 3599 }));
    });
    const client = createClient(credentials());
    const results = await Promise.all(Array.from({ length: 50 }, () => client.account.get()));
    expect(server.tokenRequests()).toHaveLength(1);
    expect(server.apiRequests()).toHaveLength(50);
    expect(new Set(results.map((r) => (r as unknown as { auth: string }).auth))).toEqual(new Set(['Bearer shared']));
  });

  it('refreshes once and retries once after a 401', async () => {
    server.api((req, res) => {
      if (req.headers.authorization === 'Bearer token-1') return json(res, 401, fail('Unauthorized'));
      json(res, 200, ok({ auth: req.headers.authorization }));
    });
    const client = createClient(credentials());
    expect(await client.account.get()).toEqual({ auth: 'Bearer token-2' });
    expect(server.tokenRequests()).toHaveLength(2);
    expect(server.apiRequests()).toHaveLength(2);
  });

  it('gives up with AuthenticationError when the new token is refused too', async () => {
    server.api((_req, res) => json(res, 401, fail('Unauthorized', ['invalid token'])));
    const client = createClient(credentials());
    const error = await client.account.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(server.tokenRequests()).toHaveLength(2);
    expect(server.apiRequests()).toHaveLength(2);
  });

  it('revokes the current token through {authUrl}/auth/revoke', async () => {
    const client = createClient(credentials());
    await client.account.get();
    await client.revoke();
    const revoke = server.requests.find((r) => r.path === '/auth/revoke');
    expect(revoke?.method).toBe('POST');
    expect(Object.fromEntries(new URLSearchParams(revoke?.body))).toEqual({
      token: 'token-1',
      client_id: 'app-1',
      client_secret: SECRET,
    });
    // The next call needs a new token.
    expect(await client.account.get()).toMatchObject({ auth: 'Bearer token-2' });
  });

  it('never shows the secret or the token in errors, logs or inspection', async () => {
    const lines: string[] = [];
    const log = (m: string, f?: unknown) => lines.push(m + JSON.stringify(f ?? {}));
    const logger = { debug: log, info: log, warn: log, error: log };
    server.token((_req, res) =>
      json(res, 400, fail('There was a problem processing your request.', ['invalid client credentials'])),
    );
    const client = createClient({ ...credentials(), logger, maxRetries: 0 });
    const error = (await client.account.get().catch((e: unknown) => e)) as BadRequestError;
    expect(error).toBeInstanceOf(BadRequestError);
    const shown = [
      String(error),
      error.stack,
      inspect(error, { depth: 5 }),
      JSON.stringify(error),
      String(client),
      inspect(client, { depth: 5 }),
      JSON.stringify(client),
      ...lines,
    ].join('\n');
    expect(shown).not.toContain(SECRET);
    expect(lines.length).toBeGreaterThan(0);

    server.token((_req, res) => json(res, 200, ok({ access_token: 'tok-visible-nowhere', expires_in: 3599 })));
    lines.length = 0;
    await client.account.get();
    expect(lines.join('\n')).not.toContain('tok-visible-nowhere');
    expect(lines.join('\n')).toContain(`GET ${server.baseUrl}/account 200`);
  });
});

describe('other token sources', () => {
  it('sends a fixed accessToken and never asks for one', async () => {
    const client = createClient({ baseUrl: server.baseUrl, accessToken: 'fixed' });
    expect(await client.account.get()).toMatchObject({ auth: 'Bearer fixed' });
    expect(server.tokenRequests()).toHaveLength(0);
  });

  it('asks an async provider again, with forceRefresh, after a 401', async () => {
    const calls: boolean[] = [];
    const client = createClient({
      baseUrl: server.baseUrl,
      accessToken: async ({ forceRefresh }) => {
        calls.push(forceRefresh);
        return forceRefresh ? 'new' : 'old';
      },
    });
    server.api((req, res) =>
      req.headers.authorization === 'Bearer old' ? json(res, 401, fail('Unauthorized')) : json(res, 200, ok('fine')),
    );
    expect(await client.account.get()).toBe('fine');
    expect(calls).toEqual([false, true]);
  });

  it('rejects half a credential pair and a missing baseUrl with a message that says what to pass', () => {
    expect(() => createClient({ baseUrl: server.baseUrl, clientId: 'x' })).toThrow(/clientId and clientSecret/);
    expect(() => createClient({ clientId: 'x', clientSecret: 'y', baseUrl: '' })).toThrow(/baseUrl is required/);
  });
});
