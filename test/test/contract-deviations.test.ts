import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningMock, startMock } from '@hosting-api/mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Outcome, runGate } from './gate';

type Json = Record<string, unknown> & { data: Record<string, unknown> };

interface Deviation {
  /** Changes the answer to an authorised GET /v1/sites/{site_id} (status 200). */
  success?: (status: number, body: Json) => { status: number; body: unknown };
  /** Content-Type of the altered answer (default application/json). */
  contentType?: string;
  /** Answers a request without a token instead of the mock. */
  unauthorised?: (body: Json) => { status: number; body: unknown };
}

const SITE = /^\/v1\/sites\/\d+$/;

/** A proxy in front of the mock that applies one deviation. */
function deviatingServer(mockUrl: string, deviation: Deviation): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host') headers.set(k, v);
    const method = req.method ?? 'GET';
    const target = SITE.test(req.url ?? '') && method === 'GET';
    let upstream: Response;
    if (target && deviation.unauthorised && !headers.has('authorization')) {
      // Fetch the success body with a token, then hand it out without one.
      headers.set('authorization', 'Bearer deviation');
      headers.delete('prefer');
      upstream = await fetch(mockUrl + req.url, { method, headers });
      const out = deviation.unauthorised((await upstream.json()) as Json);
      res.writeHead(out.status, { 'content-type': 'application/json' }).end(JSON.stringify(out.body));
      return;
    }
    upstream = await fetch(mockUrl + req.url, {
      method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const text = await upstream.text();
    if (target && deviation.success && upstream.status === 200) {
      const out = deviation.success(upstream.status, JSON.parse(text) as Json);
      res
        .writeHead(out.status, { 'content-type': deviation.contentType ?? 'application/json' })
        .end(JSON.stringify(out.body));
      return;
    }
    // The spec documents WWW-Authenticate on 401 answers (issue 12): pass it on as the mock sent it.
    const challenge = upstream.headers.get('www-authenticate');
    res.writeHead(upstream.status, {
      'content-type': upstream.headers.get('content-type') ?? 'application/json',
      ...(challenge ? { 'www-authenticate': challenge } : {}),
    });
    res.end(text);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

/** Runs contract/run.mjs with the given arguments and environment. */
const runContract = (args: string[], env: Record<string, string | undefined>) => runGate('contract/run.mjs', args, env);

/** Runs the contract gate (only getSite) against the given server. */
const runGetSite = (url: string) => runContract(['--mock', '--only', 'getSite'], { CONTRACT_MOCK_URL: url });

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0 });
});
afterAll(async () => {
  await mock?.stop();
});

async function gateAgainst(deviation: Deviation): Promise<Outcome> {
  const server = await deviatingServer(mock.url, deviation);
  try {
    return await runGetSite(server.url);
  } finally {
    await server.close();
  }
}

function failuresOf(outcome: Outcome): Record<string, string> {
  return Object.fromEntries(
    outcome.results.filter((r) => r.outcome === 'fail').map((r) => [r.key, (r.errors ?? []).join('; ')]),
  );
}

describe('contract gate', () => {
  it('passes a server that keeps the contract (the control case)', async () => {
    const outcome = await gateAgainst({});
    expect(outcome.code, outcome.output).toBe(0);
    const passed = outcome.results
      .filter((r) => r.outcome === 'pass')
      .map((r) => r.key)
      .sort();
    expect(passed).toEqual(['getSite 200', 'getSite 401', 'getSite 404']);
  });

  it('accepts parameters on the Content-Type (application/json; charset=utf-8)', async () => {
    const outcome = await gateAgainst({
      contentType: 'application/json; charset=utf-8',
      success: (s, body) => ({ status: s, body }),
    });
    expect(outcome.code, outcome.output).toBe(0);
  });

  const cases: [string, Deviation, string, RegExp][] = [
    [
      'an undocumented Content-Type',
      { contentType: 'text/plain', success: (s, body) => ({ status: s, body }) },
      'getSite 200',
      /Content-Type text\/plain not documented/,
    ],
    ['a wrong status', { success: (_s, body) => ({ status: 201, body }) }, 'getSite 200', /status 201, expected 200/],
    [
      'a missing required field',
      {
        success: (s, body) => {
          delete body.data.name;
          return { status: s, body };
        },
      },
      'getSite 200',
      /body\/data must have required property 'name'/,
    ],
    [
      'a wrong type',
      {
        success: (s, body) => {
          body.data.name = 5;
          return { status: s, body };
        },
      },
      'getSite 200',
      /body\/data\/name must be string/,
    ],
    [
      'a value outside an enum',
      {
        success: (s, body) => {
          body.data.edgeCache = 'sometimes';
          return { status: s, body };
        },
      },
      'getSite 200',
      /body\/data\/edgeCache must be equal to one of the allowed values/,
    ],
    [
      'null where not nullable',
      {
        success: (s, body) => {
          body.data.name = null;
          return { status: s, body };
        },
      },
      'getSite 200',
      /body\/data\/name must be string/,
    ],
    [
      'a missing envelope',
      { success: (s, body) => ({ status: s, body: body.data }) },
      'getSite 200',
      /body must have required property 'message'/,
    ],
    [
      '200 without a token',
      { unauthorised: (body) => ({ status: 200, body }) },
      'getSite 401',
      /status 200, expected 401/,
    ],
  ];

  it.each(cases)('reports %s', async (_name, deviation, key, message) => {
    const outcome = await gateAgainst(deviation);
    expect(outcome.code, outcome.output).toBe(1);
    const failures = failuresOf(outcome);
    // Exactly the deviating transaction fails, with a message that says what is wrong.
    expect(Object.keys(failures), outcome.output).toEqual([key]);
    expect(failures[key]).toMatch(message);
    expect(outcome.output).toContain(`FAILED ${key}`);
  });
});

describe('contract:live', () => {
  function runLive(env: Record<string, string>, only?: string): Promise<Outcome> {
    return runContract(['--live', ...(only ? ['--only', only] : [])], env);
  }

  it('names the missing variables in one message, without a stack trace', async () => {
    const outcome = await runLive({ CONTRACT_BASE_URL: 'http://127.0.0.1:9/v1' });
    expect(outcome.code).toBe(2);
    for (const name of ['CONTRACT_AUTH_URL', 'CONTRACT_CLIENT_ID', 'CONTRACT_CLIENT_SECRET'])
      expect(outcome.output).toContain(name);
    expect(outcome.output).not.toContain('CONTRACT_BASE_URL ');
    expect(outcome.output).not.toMatch(/\n\s+at /);
  });

  it('stops with one message when the target gives no token', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = http.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const outcome = await runLive({
      CONTRACT_BASE_URL: `http://127.0.0.1:${closed}/v1`,
      CONTRACT_AUTH_URL: `http://127.0.0.1:${closed}`,
      CONTRACT_CLIENT_ID: 'id',
      CONTRACT_CLIENT_SECRET: 'secret',
    });
    expect(outcome.code).toBe(1);
    expect(outcome.output).toContain(`could not obtain a token from POST http://127.0.0.1:${closed}/auth/token`);
    expect(outcome.output).not.toMatch(/\n\s+at /);
  });

  // The mock stands in for a live service: the requests it receives show what the run did.
  async function liveAgainstMock(extra: Record<string, string>) {
    const seen: string[] = [];
    const target = await startMock({ port: 0, onRequest: (line) => seen.push(line) });
    try {
      const outcome = await runLive(
        {
          CONTRACT_BASE_URL: target.baseUrl,
          CONTRACT_AUTH_URL: target.authUrl,
          CONTRACT_CLIENT_ID: 'contract-test',
          CONTRACT_CLIENT_SECRET: 'contract-secret',
          // The mock stands in for a live service but accepts any token, and only a few
          // operations are selected: no invalid-token probes, no coverage floor.
          CONTRACT_AUTH_PROBES: '0',
          CONTRACT_MIN_COVERAGE: '0',
          ...extra,
        },
        'getSite,searchSites,updateSite,deleteSite,createSiteNote,createAccessToken,revokeAccessToken',
      );
      return { outcome, seen };
    } finally {
      await target.stop();
    }
  }

  const outcomeOf = (o: Outcome, key: string) => o.results.find((r) => r.key === key)?.outcome;

  it('is read-only by default: writes are skipped and never reach the target', async () => {
    const { outcome, seen } = await liveAgainstMock({});
    expect(outcome.code, outcome.output).toBe(0);
    for (const key of ['updateSite 200', 'deleteSite 200', 'createSiteNote 200', 'deleteSite 401']) {
      expect(outcomeOf(outcome, key), key).toBe('skip');
    }
    for (const key of [
      'getSite 200',
      'getSite 401',
      'searchSites 200',
      'createAccessToken 200',
      'revokeAccessToken 200',
    ]) {
      expect(outcomeOf(outcome, key), key).toBe('pass');
    }
    // Only the token operations and the read-only search reach the target with anything but GET.
    const writes = seen.filter((line) => !line.startsWith('GET '));
    expect(
      writes.every((line) => /^POST (\/auth\/token|\/auth\/revoke|\/v1\/sites\/search)\b/.test(line)),
      writes.join('\n'),
    ).toBe(true);
    expect(outcome.output).toContain('CONTRACT_ALLOW_WRITES=1');
  });

  it('takes ids and error-provoking requests from CONTRACT_TARGET_DATA', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'target-'));
    const file = join(dir, 'target.json');
    writeFileSync(
      file,
      JSON.stringify({
        params: { site_id: 654321 },
        // The mock stands in for a target that answers 404 for this request.
        requests: { 'getSite 404': { params: { site_id: 1 }, headers: { Prefer: 'code=404' } } },
      }),
    );
    const { outcome, seen } = await liveAgainstMock({ CONTRACT_TARGET_DATA: file });
    expect(outcome.code, outcome.output).toBe(0);
    expect(outcomeOf(outcome, 'getSite 404')).toBe('pass');
    expect(seen).toContain('GET /v1/sites/654321 → 200');
    expect(seen).toContain('GET /v1/sites/1 → 404');
  });

  it('runs writes with CONTRACT_ALLOW_WRITES=1', async () => {
    const { outcome, seen } = await liveAgainstMock({ CONTRACT_ALLOW_WRITES: '1' });
    expect(outcome.code, outcome.output).toBe(0);
    for (const key of ['updateSite 200', 'deleteSite 200', 'createSiteNote 200', 'deleteSite 401']) {
      expect(outcomeOf(outcome, key), key).toBe('pass');
    }
    expect(seen.some((line) => line.startsWith('DELETE /v1/sites/'))).toBe(true);
  });
});
