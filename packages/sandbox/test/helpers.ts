// Test helpers: a sandbox on a free port with a frozen clock, a small fetch wrapper, and the
// per-file setup every area test shares (useSandbox).
import { createClient, type HostingApiClient } from '@hosting-api/client';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { type Sandbox, type SandboxOptions, startSandbox } from '../src/index.js';

export const START = '2026-11-02T09:00:00.000Z';

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface Harness {
  sb: Sandbox;
  /** Answers the response self-check replaced (the spec does not document them); none expected. */
  selfCheckFailures: string[];
  token: string;
  /** Gets a fresh token (the clock may have run past the old one's lifetime). */
  refresh(): Promise<void>;
  /** JSON request against /v1 (or an absolute path starting with /auth or /__sandbox). */
  call<T = any>(
    method: string,
    path: string,
    body?: unknown,
    opts?: { token?: string | null; headers?: Record<string, string>; raw?: string },
  ): Promise<Reply<T>>;
}

/**
 * Starts a sandbox and fills `h` (a new object unless given) with it. The response self-check is
 * on: every answer is checked against the spec, and the ones it replaced are collected in
 * `h.selfCheckFailures` (useSandbox fails a test that caused one).
 */
export async function harness(options: SandboxOptions = {}, h = {} as Harness): Promise<Harness> {
  h.selfCheckFailures = [];
  const sb = await startSandbox({
    speed: 0,
    startTime: START,
    selfCheck: true,
    onError: (message, error) => {
      if (message.startsWith('self-check')) h.selfCheckFailures.push((error as Error).message);
    },
    ...options,
  });
  Object.assign(h, { sb, token: await sb.token() });
  const call: Harness['call'] = async (method, path, body, opts = {}) => {
    const url = /^\/(auth|__sandbox)/.test(path) ? `${sb.authUrl}${path}` : `${sb.url}${path}`;
    const headers: Record<string, string> = { ...opts.headers };
    const t = opts.token === undefined ? h.token : opts.token;
    if (t) headers.authorization = `Bearer ${t}`;
    let payload: string | undefined = opts.raw;
    if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(url, { method, headers, body: payload });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed as any, headers: res.headers };
  };
  h.call = call;
  h.refresh = async () => {
    h.token = await sb.token();
  };
  return h;
}

/** Asserts the error envelope shape and returns it. */
export function errorEnvelope(reply: Reply): { message: string; data: null; errors: string[] | null } {
  const b = reply.body;
  if (typeof b !== 'object' || b === null || b.data !== null || typeof b.message !== 'string' || !('errors' in b)) {
    throw new Error(`not an error envelope (${reply.status}): ${JSON.stringify(b)}`);
  }
  return b;
}

export interface SandboxTest extends Harness {
  /** The client with the owner's token, validating every response. */
  api: HostingApiClient;
  /** The client of `sandbox-limited` (scope `authorized` only). */
  limited: HostingApiClient;
}

/**
 * One sandbox for the test file, back to its seed and with a fresh token before each test.
 * The returned object is filled in by beforeAll, so use it inside tests only.
 */
export function useSandbox(options: SandboxOptions = {}): SandboxTest {
  const h = {} as SandboxTest;
  beforeAll(async () => {
    await harness(options, h);
    const common = { baseUrl: h.sb.baseUrl, authUrl: h.sb.authUrl, validate: true, maxRetries: 0 };
    h.api = createClient({ ...common, accessToken: () => h.token });
    h.limited = createClient({ ...common, clientId: 'sandbox-limited', clientSecret: 'sandbox-limited-secret' });
  });
  afterAll(() => h.sb.stop());
  beforeEach(async () => {
    h.sb.reset();
    h.selfCheckFailures.length = 0;
    await h.refresh();
  });
  afterEach(() => {
    expect(h.selfCheckFailures, 'answers the spec does not document (response self-check)').toEqual([]);
  });
  return h;
}

/** The status a client call ended with: 200 or the error's status. */
export const status = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (e: { status?: number }) => e.status,
  );
