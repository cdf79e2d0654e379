import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClient, RequestAbortedError, TimeoutError } from '../src/index';
import { delay, fail, json, ok, startServer, type TestServer } from './helpers/server';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.close());

describe('timeouts and cancellation', () => {
  it('gives fetch a signal only when there is a timeout or a caller signal to carry', async () => {
    const signals: (AbortSignal | null | undefined)[] = [];
    const spy = (url: string, init: RequestInit) => {
      signals.push(init.signal);
      return fetch(url, init);
    };
    server.api((_req, res) => json(res, 200, ok('fine')));
    const timed = createClient({ baseUrl: server.baseUrl, accessToken: 't', fetch: spy });
    const untimed = createClient({ baseUrl: server.baseUrl, accessToken: 't', fetch: spy, timeout: Infinity });
    const own = new AbortController().signal;
    await timed.sites.get(1);
    await untimed.sites.get(1);
    await untimed.sites.get(1, { timeout: 0 });
    await untimed.sites.get(1, { signal: own });
    await untimed.sites.get(1, { timeout: 5_000 });
    expect(signals[0]).toBeInstanceOf(AbortSignal);
    expect(signals[0]).not.toBe(own);
    expect(signals.slice(1, 3)).toEqual([undefined, undefined]);
    expect(signals[3]).toBe(own);
    expect(signals[4]).toBeInstanceOf(AbortSignal);
  });

  it('without a timeout, the caller’s signal still aborts the call', async () => {
    server.api(() => new Promise(() => {})); // never answers
    const client = createClient({ baseUrl: server.baseUrl, accessToken: 't', timeout: Infinity, maxRetries: 0 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(client.sites.get(1, { signal: controller.signal })).rejects.toBeInstanceOf(RequestAbortedError);
  });

  it('fails with TimeoutError after the client timeout, and retries idempotent calls first', async () => {
    server.api(async (_req, res) => {
      await delay(10_000);
      json(res, 200, ok('late'));
    });
    const attempts: string[] = [];
    const logger = { debug: (line: string) => attempts.push(line) };
    const client = createClient({
      baseUrl: server.baseUrl,
      accessToken: 't',
      timeout: 300,
      maxRetries: 1,
      retry: { initialDelayMs: 1 },
      logger,
    });
    const started = Date.now();
    const error = await client.sites.get(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toMatch(/timed out after 300 ms/);
    // Two attempts cut short by the timeout, far sooner than one answer of the server.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(attempts).toEqual([`→ GET ${server.baseUrl}/sites/1`, `→ GET ${server.baseUrl}/sites/1`]);
  });

  it('takes the per-call timeout over the client one', async () => {
    server.api(async (_req, res) => {
      await delay(400);
      json(res, 200, ok('done'));
    });
    const client = createClient({ baseUrl: server.baseUrl, accessToken: 't', timeout: 100, maxRetries: 0 });
    expect(await client.sites.get(1, { timeout: 2_000 })).toBe('done');
    await expect(client.sites.get(1)).rejects.toBeInstanceOf(TimeoutError);
  });

  it('a timed-out POST is not sent again', async () => {
    server.api(async (_req, res) => {
      await delay(10_000);
      json(res, 200, ok(null));
    });
    const client = createClient({
      baseUrl: server.baseUrl,
      accessToken: 't',
      timeout: 500,
      retry: { initialDelayMs: 1 },
    });
    await expect(client.sites.notes.create(1, { subject: 'a', body: 'b' } as never)).rejects.toBeInstanceOf(
      TimeoutError,
    );
    // The server saw the POST once; give a retry, had there been one, time to arrive.
    await vi.waitFor(() => expect(server.apiRequests()).toHaveLength(1));
    await delay(100);
    expect(server.apiRequests()).toHaveLength(1);
  });

  it('aborts through the caller’s signal with RequestAbortedError, without retrying', async () => {
    server.api(async (_req, res) => {
      await delay(10_000);
      json(res, 200, ok('late'));
    });
    const client = createClient({ baseUrl: server.baseUrl, accessToken: 't' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const error = await client.sites.get(1, { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(server.apiRequests()).toHaveLength(1);
  });

  it('an already aborted signal sends nothing; an abort during backoff stops the retries', async () => {
    const client = createClient({ baseUrl: server.baseUrl, accessToken: 't', retry: { initialDelayMs: 5_000 } });
    await expect(client.sites.get(1, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(RequestAbortedError);
    expect(server.apiRequests()).toHaveLength(0);

    server.api((_req, res) => json(res, 503, fail('busy')));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    await expect(client.sites.get(1, { signal: controller.signal })).rejects.toBeInstanceOf(RequestAbortedError);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(server.apiRequests()).toHaveLength(1);
  });
});
