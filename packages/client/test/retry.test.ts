import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConnectionError, createClient, InternalServerError, RateLimitError } from '../src/index';
import { DEFAULT_RETRY, parseRetryAfter, retryDelay } from '../src/runtime/retry';
import { fail, json, ok, startServer, type TestServer } from './helpers/server';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.close());

const fast = { initialDelayMs: 1, maxDelayMs: 5 };
const client = (extra: Parameters<typeof createClient>[0] = {}) =>
  createClient({ baseUrl: server.baseUrl, accessToken: 't', retry: fast, ...extra });

/** Answers `statuses` in turn, then 200. */
function script(...statuses: Array<number | [number, Record<string, string>]>) {
  let i = 0;
  server.api((_req, res) => {
    const step = statuses[i++];
    if (step === undefined) return json(res, 200, ok({ attempt: i }));
    const [status, headers] = Array.isArray(step) ? step : [step, {}];
    json(res, status, fail(`failure ${status}`), headers);
  });
}

describe('retries', () => {
  it('retries 408, 429 and 5xx on an idempotent call and returns the final success', async () => {
    script(503, 429, 408);
    expect(await client({ maxRetries: 3 }).sites.get(1)).toEqual({ attempt: 4 });
    expect(server.apiRequests()).toHaveLength(4);
  });

  it('stops after maxRetries (default 2) and throws the last error', async () => {
    script(500, 502, 503, 504);
    const error = await client()
      .sites.get(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).status).toBe(503);
    expect(server.apiRequests()).toHaveLength(3);
  });

  it('takes maxRetries per call over the client setting', async () => {
    script(500, 500, 500);
    await expect(client({ maxRetries: 5 }).sites.get(1, { maxRetries: 0 })).rejects.toBeInstanceOf(InternalServerError);
    expect(server.apiRequests()).toHaveLength(1);
  });

  it('does not retry 400, 404 or 422', async () => {
    script(404);
    await expect(client().sites.get(1)).rejects.toMatchObject({ status: 404 });
    expect(server.apiRequests()).toHaveLength(1);
  });

  it('honours Retry-After in seconds', async () => {
    script([429, { 'retry-after': '1' }]);
    const started = Date.now();
    await client().sites.get(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.apiRequests()).toHaveLength(2);
  });

  it('honours Retry-After as an HTTP date, capped at maxRetryAfterMs', async () => {
    script([503, { 'retry-after': new Date(Date.now() + 3_600_000).toUTCString() }]);
    const started = Date.now();
    await client({ retry: { ...fast, maxRetryAfterMs: 200 } }).sites.get(1);
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(180);
    expect(waited).toBeLessThan(2_000);
  });

  it('gives up with RateLimitError when 429 persists', async () => {
    script(429, 429, 429);
    await expect(client().sites.get(1)).rejects.toBeInstanceOf(RateLimitError);
  });

  it('never retries a POST after the server answered', async () => {
    script(503, 503);
    await expect(client().sites.notes.create(1, { subject: 's', body: 'b' } as never)).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(server.apiRequests()).toHaveLength(1);
  });

  it('never retries a toggle PUT (each call flips the state)', async () => {
    script(503);
    await expect(client().sites.lightWeight404.toggle(1)).rejects.toBeInstanceOf(InternalServerError);
    expect(server.apiRequests()).toHaveLength(1);
  });

  it('never retries a POST whose connection broke after it was sent', async () => {
    server.api((_req, res) => {
      res.socket?.destroy(); // request received, no answer
    });
    await expect(client().sites.notes.create(1, { subject: 's', body: 'b' } as never)).rejects.toBeInstanceOf(
      ConnectionError,
    );
    expect(server.apiRequests()).toHaveLength(1);
    // The same failure on a GET is retried.
    await expect(client().sites.get(1)).rejects.toBeInstanceOf(ConnectionError);
    expect(server.apiRequests()).toHaveLength(4);
  });

  it('retries a POST whose connection failed before anything was sent', async () => {
    let calls = 0;
    const flaky = (url: string, init: RequestInit) => {
      if (++calls === 1)
        return Promise.reject(
          new TypeError('fetch failed', {
            cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
          }),
        );
      return fetch(url, init);
    };
    server.api((_req, res) => json(res, 200, ok({ id: 7 })));
    expect(await client({ fetch: flaky }).sites.notes.create(1, { subject: 's', body: 'b' } as never)).toEqual({
      id: 7,
    });
    expect(calls).toBe(2);
    expect(server.apiRequests()).toHaveLength(1);
  });
});

describe('retry arithmetic', () => {
  it('reads Retry-After as seconds or a date', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('0.5')).toBe(500);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });

  it('backs off exponentially with jitter up to maxDelayMs', () => {
    const low = () => 0;
    const high = () => 1;
    expect(retryDelay(0, undefined, DEFAULT_RETRY, low)).toBe(375);
    expect(retryDelay(0, undefined, DEFAULT_RETRY, high)).toBe(500);
    expect(retryDelay(2, undefined, DEFAULT_RETRY, high)).toBe(2000);
    expect(retryDelay(10, undefined, DEFAULT_RETRY, high)).toBe(8000);
    expect(retryDelay(0, new Headers({ 'retry-after': '120' }), DEFAULT_RETRY)).toBe(60_000);
  });
});
