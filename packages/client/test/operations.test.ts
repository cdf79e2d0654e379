import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient, operationMeta } from '../src/index';
import { json, ok, startServer, type TestServer } from './helpers/server';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
  server.api((req, res) =>
    json(
      res,
      200,
      ok({
        echo: {
          method: req.method,
          path: req.path,
          query: req.query.toString(),
          body: req.body,
          type: req.headers['content-type'] ?? null,
        },
      }),
    ),
  );
});
afterEach(() => server.close());

const client = () => createClient({ baseUrl: server.baseUrl, accessToken: 't' });
type Echo = { echo: { method: string; path: string; query: string; body: string; type: string | null } };

describe('generated operations', () => {
  it('path parameters are positional and URL-encoded; the result is the envelope data', async () => {
    const result = (await client().collaborators.sites.get('grace+ops@example.com', 123456)) as unknown as Echo;
    expect(result.echo).toMatchObject({
      method: 'GET',
      path: '/v1/collaborators/grace%2Bops%40example.com/sites/123456',
      body: '',
    });
  });

  it('query parameters come from the input object', async () => {
    const result = (await client().alerts.list({
      category: 'failure',
      show_dismissed: true,
      per_page: 10,
    })) as unknown as { data: Echo };
    expect(result.data.echo.query).toBe('category=failure&show_dismissed=true&per_page=10');
  });

  it('a body is sent as JSON', async () => {
    const result = (await client().sites.backups.ondemand.create(123456, { backup_type: 'fs' })) as unknown as Echo;
    expect(result.echo).toMatchObject({
      method: 'POST',
      path: '/v1/sites/123456/ondemand-backups',
      type: 'application/json',
    });
    expect(JSON.parse(result.echo.body)).toEqual({ backup_type: 'fs' });
  });

  it('a GET that carries a JSON body (PHP and server logs) sends it', async () => {
    const php = (await client().sites.logs.php(123456, { status: 'Warning' })) as unknown as Echo;
    expect(php.echo).toMatchObject({ method: 'GET', path: '/v1/sites/123456/logs/php', type: 'application/json' });
    expect(JSON.parse(php.echo.body)).toEqual({ status: 'Warning' });
    const server_ = (await client().sites.logs.server(123456, { scroll_id: 'abc' } as never)) as unknown as Echo;
    expect(JSON.parse(server_.echo.body)).toEqual({ scroll_id: 'abc' });
    // Without filters the GET goes out with no body.
    const plain = (await client().sites.logs.php(123456)) as unknown as Echo;
    expect(plain.echo.body).toBe('');
    expect(operationMeta.listSitePhpLogs.bodyOnGet).toBe(true);
  });

  it('raw: true gives the whole envelope and the Response', async () => {
    const result = await client().account.get({ raw: true });
    expect(result.message).toBe('Success');
    expect(result.errors).toBeNull();
    expect(result.response.status).toBe(200);
    expect(result.response.headers.get('content-type')).toBe('application/json');
  });

  it('the token operations go to authUrl without a bearer token', async () => {
    const c = createClient({ baseUrl: server.baseUrl, accessToken: 'secret-bearer' });
    const token = await c.auth.createToken({ grant_type: 'client_credentials', client_id: 'id', client_secret: 'sec' });
    expect(token.access_token).toBe('token-1');
    const req = server.tokenRequests()[0];
    expect(req?.headers.authorization).toBeUndefined();
    expect(req?.body).toBe('grant_type=client_credentials&client_id=id&client_secret=sec');
  });

  it('every operation is reachable under its x-client-method', () => {
    const c = client() as unknown as Record<string, unknown>;
    const ids = Object.keys(operationMeta);
    expect(ids.length).toBeGreaterThan(100);
    const found = new Set<string>();
    const walk = (node: unknown) => {
      for (const value of Object.values(node as object)) {
        if (typeof value === 'function' && 'meta' in value) found.add((value as { meta: { id: string } }).meta.id);
        else if (value && typeof value === 'object') walk(value);
      }
    };
    walk(c);
    expect([...found].sort()).toEqual(ids.sort());
  });
});
