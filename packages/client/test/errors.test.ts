import { createRequire } from 'node:module';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as esm from '../src/index';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  createClient,
  HostingApiError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  TimeoutError,
  UnprocessableEntityError,
} from '../src/index';
import { fail, json, startServer, type TestServer } from './helpers/server';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.close());

const cases = [
  [400, BadRequestError],
  [401, AuthenticationError],
  [403, PermissionDeniedError],
  [404, NotFoundError],
  [409, ConflictError],
  [422, UnprocessableEntityError],
  [429, RateLimitError],
  [500, InternalServerError],
  [503, InternalServerError],
] as const;

describe('error classes by status', () => {
  for (const [status, Cls] of cases) {
    it(`${status} → ${Cls.name} with the envelope's message and errors`, async () => {
      server.api((_req, res) =>
        json(res, status, fail(`message ${status}`, [`detail ${status}`]), { 'x-request-id': `req-${status}` }),
      );
      const client = createClient({ baseUrl: server.baseUrl, accessToken: 't', maxRetries: 0 });
      const error = (await client.sites.get(123456).catch((e: unknown) => e)) as HostingApiError;
      expect(error).toBeInstanceOf(Cls);
      expect(error).toBeInstanceOf(HostingApiError);
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe(Cls.name);
      expect(error.status).toBe(status);
      expect(error.message).toBe(`message ${status}`);
      expect(error.errors).toEqual([`detail ${status}`]);
      expect(error.response?.status).toBe(status);
      expect(error.headers?.get('x-request-id')).toBe(`req-${status}`);
      expect(error.request).toEqual({ method: 'GET', url: `${server.baseUrl}/sites/123456` });
      expect(error.operationId).toBe('getSite');
      for (const [, Other] of cases)
        if (Other !== Cls && !(error instanceof InternalServerError && Other === InternalServerError))
          expect(error).not.toBeInstanceOf(Other);
    });
  }

  it('an unlisted status is a plain HostingApiError; a body that is not an envelope still gives a message', async () => {
    server.api((_req, res) => {
      res.writeHead(418, { 'content-type': 'text/plain' });
      res.end('teapot');
    });
    const client = createClient({ baseUrl: server.baseUrl, accessToken: 't' });
    const error = (await client.sites.get(1).catch((e: unknown) => e)) as HostingApiError;
    expect(error.constructor).toBe(HostingApiError);
    expect(error.status).toBe(418);
    expect(error.message).toBe('HTTP 418');
    expect(error.errors).toBeNull();
    expect(error.body).toBe('teapot');
    expect(error.headers?.get('content-type')).toBe('text/plain');
  });

  it('ConnectionError when nothing listens, TimeoutError (a ConnectionError) when the answer is late', async () => {
    const closed = await startServer();
    const deadUrl = closed.baseUrl;
    await closed.close();
    const dead = createClient({ baseUrl: deadUrl, accessToken: 't', maxRetries: 0 });
    const refused = (await dead.sites.get(1).catch((e: unknown) => e)) as ConnectionError;
    expect(refused).toBeInstanceOf(ConnectionError);
    expect(refused).not.toBeInstanceOf(TimeoutError);
    expect(refused.status).toBeUndefined();
    expect(refused.headers).toBeUndefined();
    expect(refused.message).toMatch(/ECONNREFUSED/);

    server.api(() => new Promise(() => {})); // never answers
    const slow = createClient({ baseUrl: server.baseUrl, accessToken: 't', maxRetries: 0, timeout: 100 });
    const late = await slow.sites.get(1).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(TimeoutError);
    expect(late).toBeInstanceOf(ConnectionError);
  });
});

describe('instanceof across the ESM and CommonJS builds', () => {
  it('an error from one build is an instance of the other build’s classes', async () => {
    const require = createRequire(import.meta.url);
    const cjs = require('../dist/index.cjs') as typeof esm;
    const dist = (await import('../dist/index.js')) as unknown as typeof esm;
    server.api((_req, res) => json(res, 404, fail('We could not locate the requested resources.')));
    for (const lib of [cjs, dist]) {
      const client = lib.createClient({ baseUrl: server.baseUrl, accessToken: 't' });
      const error = await client.sites.get(1).catch((e: unknown) => e);
      for (const other of [cjs, dist, esm]) {
        expect(error).toBeInstanceOf(other.NotFoundError);
        expect(error).toBeInstanceOf(other.HostingApiError);
        expect(error).not.toBeInstanceOf(other.BadRequestError);
      }
    }
    expect(new Error('plain')).not.toBeInstanceOf(cjs.HostingApiError);
  });
});
