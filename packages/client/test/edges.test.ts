// The edges a new user hits first (issue #14 section 1): bad path parameters, their own
// Authorization header, their own fetch, a token provider under concurrency, a token service that
// is down while the cached token is still valid.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AuthenticationError,
  createClient,
  type FetchLike,
  InternalServerError,
  ResponseValidationError,
} from '../src/index';
import { delay, fail, json, ok, startServer, type TestServer } from './helpers/server';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
  server.api((req, res) =>
    json(res, 200, ok({ path: req.path, auth: req.headers.authorization ?? null, body: req.body })),
  );
});
afterEach(() => server.close());

type Echo = { path: string; auth: string | null; body: string };
const echo = (p: Promise<unknown>) => p as Promise<Echo>;
const untyped = (fn: unknown) => fn as (...args: unknown[]) => Promise<unknown>;

describe('path parameters', () => {
  it('a missing trailing path parameter throws before anything is sent', async () => {
    const client = createClient({ baseUrl: server.baseUrl, accessToken: 't' });
    await expect(untyped(client.sites.notes.get)(123)).rejects.toThrow(
      new TypeError('sites.notes.get(siteId, noteId): path parameter note_id is missing'),
    );
    await expect(untyped(client.sites.get)()).rejects.toThrow(
      /sites\.get\(siteId\): path parameter site_id is missing/,
    );
    await expect(untyped(client.sites.notes.get)(123, null)).rejects.toThrow(/note_id is missing/);
    expect(server.requests).toHaveLength(0);
  });

  it('an integer path parameter that is not an integer throws before anything is sent', async () => {
    const client = createClient({ baseUrl: server.baseUrl, accessToken: 't' });
    for (const bad of ['123', 1.5, Number.NaN, {}, true]) {
      await expect(untyped(client.sites.get)(bad)).rejects.toThrow(
        /sites\.get\(siteId\): path parameter site_id must be an integer \(got /,
      );
    }
    await expect(untyped(client.sites.get)('../account')).rejects.toThrow(/must be an integer \(got "\.\.\/account"\)/);
    expect(server.requests).toHaveLength(0);
    expect(await echo(client.sites.notes.get(123, 42))).toMatchObject({ path: '/v1/sites/123/notes/42' });
  });

  it('a string path parameter is required too, and URL-encoded', async () => {
    const client = createClient({ baseUrl: server.baseUrl, accessToken: 't' });
    await expect(untyped(client.collaborators.sites.get)(undefined, 1)).rejects.toThrow(
      /path parameter email_address is missing/,
    );
    await expect(untyped(client.collaborators.sites.get)('', 1)).rejects.toThrow(
      /path parameter email_address is missing/,
    );
    expect(server.requests).toHaveLength(0);
    expect(await echo(client.collaborators.sites.get('a/b@example.com', 1))).toMatchObject({
      path: '/v1/collaborators/a%2Fb%40example.com/sites/1',
    });
  });

  it('a string path parameter of . or .. is refused before anything is sent (it would name another route)', async () => {
    const client = createClient({ baseUrl: server.baseUrl, accessToken: 't' });
    const before = server.requests.length;
    for (const dots of ['.', '..'])
      await expect(client.collaborators.sites.get(dots, 1)).rejects.toThrow(
        new TypeError(
          `collaborators.sites.get(emailAddress, siteId): path parameter email_address cannot be "${dots}" (a dot segment names another path)`,
        ),
      );
    expect(server.requests).toHaveLength(before);
    // Dots inside a value are no segment of their own: sent as they are.
    expect(await echo(client.collaborators.sites.get('...', 1))).toMatchObject({
      path: '/v1/collaborators/.../sites/1',
    });
  });
});

describe('a caller’s Authorization header', () => {
  it('per call: replaces the client’s bearer token (one header, one value), in any letter case', async () => {
    const client = createClient({ baseUrl: server.baseUrl, accessToken: 't' });
    expect(await echo(client.account.get({ headers: { Authorization: 'Bearer other' } }))).toMatchObject({
      auth: 'Bearer other',
    });
    expect(await echo(client.account.get({ headers: { authorization: 'Bearer lower' } }))).toMatchObject({
      auth: 'Bearer lower',
    });
    expect(await echo(client.account.get())).toMatchObject({ auth: 'Bearer t' });
  });

  it('in the client’s headers: used for every call, and no token is requested', async () => {
    const client = createClient({
      baseUrl: server.baseUrl,
      clientId: 'id',
      clientSecret: 'secret',
      headers: { AUTHORIZATION: 'Bearer mine' },
    });
    expect(await echo(client.account.get())).toMatchObject({ auth: 'Bearer mine' });
    expect(server.apiRequests()[0]?.headers.authorization).toBe('Bearer mine');
    expect(server.tokenRequests()).toHaveLength(0);
    // A client without credentials works with the caller's header alone.
    const bare = createClient({ baseUrl: server.baseUrl });
    expect(await echo(bare.account.get({ headers: { Authorization: 'Bearer only' } }))).toMatchObject({
      auth: 'Bearer only',
    });
  });

  it('a 401 on the caller’s own header is the caller’s: no token refresh, AuthenticationError', async () => {
    let asked = 0;
    server.api((_req, res) => json(res, 401, fail('Unauthorized')));
    const client = createClient({ baseUrl: server.baseUrl, accessToken: () => `t${++asked}` });
    await expect(client.account.get({ headers: { Authorization: 'Bearer revoked' } })).rejects.toBeInstanceOf(
      AuthenticationError,
    );
    expect(asked).toBe(0);
    expect(server.apiRequests()).toHaveLength(1);
  });
});

describe('a custom fetch', () => {
  it('is used for every call, the GETs that carry a body included', async () => {
    const seen: { method: string; url: string; body: unknown }[] = [];
    const myFetch: FetchLike = async (url, init) => {
      seen.push({ method: String(init.method), url, body: init.body });
      return new Response(JSON.stringify(ok({ via: 'custom' })), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    };
    const client = createClient({ baseUrl: server.baseUrl, accessToken: 't', fetch: myFetch });
    expect(await client.sites.logs.php(123456, { status: 'Warning' })).toEqual({ via: 'custom' });
    expect(await client.sites.get(123456)).toEqual({ via: 'custom' });
    expect(seen).toEqual([
      { method: 'GET', url: `${server.baseUrl}/sites/123456/logs/php`, body: '{"status":"Warning"}' },
      { method: 'GET', url: `${server.baseUrl}/sites/123456`, body: undefined },
    ]);
    expect(server.requests).toHaveLength(0);
  });

  it('the global fetch passed explicitly still gets GET bodies sent (through node:http)', async () => {
    const client = createClient({ baseUrl: server.baseUrl, accessToken: 't', fetch: globalThis.fetch });
    expect(await echo(client.sites.logs.php(123456, { status: 'Warning' }))).toMatchObject({
      body: '{"status":"Warning"}',
    });
  });
});

describe('token sources', () => {
  it('a token provider function is asked once for concurrent calls (single flight)', async () => {
    let asked = 0;
    const client = createClient({
      baseUrl: server.baseUrl,
      accessToken: async () => {
        asked++;
        await delay(30);
        return `p${asked}`;
      },
    });
    const results = await Promise.all(Array.from({ length: 20 }, () => echo(client.account.get())));
    expect(asked).toBe(1);
    expect(new Set(results.map((r) => r.auth))).toEqual(new Set(['Bearer p1']));
    await client.account.get(); // a later call asks again: the provider keeps its own cache
    expect(asked).toBe(2);
  });

  it('concurrent 401s ask the provider for one forced refresh', async () => {
    const asked: boolean[] = [];
    server.api((req, res) =>
      req.headers.authorization === 'Bearer old' ? json(res, 401, fail('Unauthorized')) : json(res, 200, ok('fine')),
    );
    const client = createClient({
      baseUrl: server.baseUrl,
      accessToken: async ({ forceRefresh }) => {
        asked.push(forceRefresh);
        await delay(20);
        return forceRefresh ? 'new' : 'old';
      },
    });
    expect(await Promise.all(Array.from({ length: 10 }, () => client.account.get()))).toEqual(Array(10).fill('fine'));
    expect(asked).toEqual([false, true]);
  });

  it('while the token service is down, a cached token that has not expired (expiresAt) is still used; an expired one is not', async () => {
    let n = 0;
    let down = false;
    server.token((_req, res) =>
      down ? json(res, 503, fail('down')) : json(res, 200, ok({ access_token: `tok-${++n}`, expires_in: 2 })),
    );
    // The client's clock (Date) is moved by hand: no waiting. Installed before the client reads it.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const client = createClient({ baseUrl: server.baseUrl, clientId: 'id', clientSecret: 'secret', maxRetries: 0 });
      expect(await echo(client.account.get())).toMatchObject({ auth: 'Bearer tok-1' });
      // A 2 s token is renewed after 1 s; the renewal fails, the token is still good for another second.
      vi.setSystemTime(Date.now() + 1_100);
      down = true;
      expect(await echo(client.account.get())).toMatchObject({ auth: 'Bearer tok-1' });
      expect(server.tokenRequests()).toHaveLength(2);
      vi.setSystemTime(Date.now() + 1_000);
      await expect(client.account.get()).rejects.toBeInstanceOf(InternalServerError);
      down = false;
      expect(await echo(client.account.get())).toMatchObject({ auth: 'Bearer tok-2' });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('an answer that is not the API', () => {
  it("a 2xx without the JSON envelope (a web page behind a wrong baseUrl, broken JSON) is a ResponseValidationError, not the result; a download's file is the result", async () => {
    const client = createClient({ baseUrl: server.baseUrl, accessToken: 't', maxRetries: 0 });
    server.api((req, res) => {
      if (req.path.endsWith('/download'))
        return void res.writeHead(200, { 'content-type': 'application/gzip' }).end('GZ');
      if (req.path === '/v1/account') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data": ');
    });
    const page = await client.account.get().catch((error: unknown) => error);
    expect(page).toBeInstanceOf(ResponseValidationError);
    expect(page).toMatchObject({
      status: 200,
      operationId: 'getAccount',
      message: `getAccount: GET ${server.baseUrl}/account answered 200 with text/html, not the API's JSON envelope (check baseUrl and authUrl)`,
    });
    await expect(client.sites.get(1)).rejects.toThrow(
      /answered 200 with application\/json, not the API's JSON envelope/,
    );
    expect(await client.sites.backups.ondemand.download(1, 'b')).toBe('GZ');
  });
});
