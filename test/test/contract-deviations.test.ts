import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningMock, startMock } from '@hosting-api/mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failedChecks, listenLocal, type Outcome, relay, runGate } from './gate';

type Json = Record<string, unknown> & { data: Record<string, unknown> };

interface Deviation {
  /** The GET path (under /v1) this deviation applies to: one operation each, so every drift is attributable. */
  path: RegExp;
  /** Changes the answer to an authorised GET of `path` (status 200). */
  success?: (status: number, body: Json) => { status: number; body: unknown };
  /** Content-Type of the altered answer (default application/json). */
  contentType?: string;
  /** Answers a request without a token instead of the mock. */
  unauthorised?: (body: Json) => { status: number; body: unknown };
  /** Leaves out the WWW-Authenticate header of a 401 answer. */
  noChallenge?: boolean;
}

/** A proxy in front of the mock that applies the deviation, if any, whose path a GET matches. */
function deviatingServer(mockUrl: string, deviations: Deviation[]): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host') headers.set(k, v);
    const method = req.method ?? 'GET';
    const deviation = method === 'GET' ? deviations.find((d) => d.path.test(req.url ?? '')) : undefined;
    let upstream: Response;
    if (deviation?.unauthorised && !headers.has('authorization')) {
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
    if (deviation?.success && upstream.status === 200) {
      const out = deviation.success(upstream.status, JSON.parse(text) as Json);
      res
        .writeHead(out.status, { 'content-type': deviation.contentType ?? 'application/json' })
        .end(JSON.stringify(out.body));
      return;
    }
    // The spec documents WWW-Authenticate on 401 answers (issue 12): pass it on as the mock sent it.
    relay(res, upstream, text, deviation?.noChallenge ? null : upstream.headers.get('www-authenticate'));
  });
  return listenLocal(server);
}

/** Runs the examples phase (run.js) with the given arguments and environment. */
const runContract = (args: string[], env: Record<string, string | undefined>) => runGate('run.js', args, env);

// The mock stands in for the API; `seen` collects the requests it receives (for the live tests).
let mock: RunningMock;
const seen: string[] = [];
beforeAll(async () => {
  mock = await startMock({ port: 0, onRequest: (line) => seen.push(line) });
});
afterAll(async () => {
  await mock?.stop();
});

/** One gate run over the given operations, against the mock behind a proxy that applies the deviations. */
async function gateAgainst(only: string[], deviations: Deviation[]): Promise<Outcome> {
  const server = await deviatingServer(mock.url, deviations);
  try {
    return await runContract(['--mock', '--only', only.join(',')], { CONTRACT_MOCK_URL: server.url });
  } finally {
    await server.close();
  }
}

function failuresOf(outcome: Outcome): Record<string, string> {
  return Object.fromEntries(
    outcome.results.filter((r) => r.outcome === 'fail').map((r) => [r.key, (r.errors ?? []).join('; ')]),
  );
}

const same = (s: number, body: unknown) => ({ status: s, body });

// Each drift on its own operation, so one gate run checks them all and each stays attributable:
// [what drifts, the deviation, the transaction that must fail, what its failure must say].
const DRIFTS: [string, Deviation, string, RegExp][] = [
  [
    'an undocumented Content-Type',
    { path: /^\/v1\/sites\/[^/]+\/notes\/[^/]+$/, contentType: 'text/plain', success: same },
    'getSiteNote 200',
    /Content-Type text\/plain not documented/,
  ],
  [
    'a wrong status',
    { path: /^\/v1\/mu-plugins\/[^/]+$/, success: (_s, body) => ({ status: 201, body }) },
    'getMuPlugin 200',
    /status 201, expected 200/,
  ],
  [
    'a missing required field',
    {
      path: /^\/v1\/account$/,
      success: (s, body) => {
        delete body.data.name;
        return same(s, body);
      },
    },
    'getAccount 200',
    /body\/data must have required property 'name'/,
  ],
  [
    'a wrong type',
    {
      path: /^\/v1\/collaborators\/[^/]+\/site$/,
      success: (s, body) => {
        body.data.name = 5;
        return same(s, body);
      },
    },
    'getCollaboratorSite 200',
    /body\/data\/name must be string/,
  ],
  [
    'a value outside an enum',
    {
      path: /^\/v1\/sites\/\d+$/,
      success: (s, body) => {
        body.data.edgeCache = 'sometimes';
        return same(s, body);
      },
      // and 200 without a token (the same operation's 401 transaction)
      unauthorised: (body) => ({ status: 200, body }),
    },
    'getSite 200',
    /body\/data\/edgeCache must be equal to one of the allowed values/,
  ],
  [
    'null where not nullable',
    {
      path: /^\/v1\/collaborators\/[^/]+$/,
      success: (s, body) => {
        body.data.name = null;
        return same(s, body);
      },
    },
    'getCollaborator 200',
    /body\/data\/name must be string/,
  ],
  [
    'a missing envelope',
    { path: /^\/v1\/alerts\/[^/]+$/, success: (s, body) => same(s, body.data) },
    'getAlert 200',
    /body must have required property 'data'/,
  ],
  [
    'a 401 without its WWW-Authenticate header',
    { path: /^\/v1\/zones(\?.*)?$/, noChallenge: true },
    'listZones 401',
    /required header WWW-Authenticate missing/,
  ],
];
const UNAUTHORISED = ['200 without a token', 'getSite 401', /status 200, expected 401/] as const;
const DRIFTED = [
  'getSiteNote',
  'getMuPlugin',
  'getAccount',
  'getCollaboratorSite',
  'getSite',
  'getCollaborator',
  'getAlert',
  'listZones',
];
// A parameter on the Content-Type is no drift (application/json; charset=utf-8).
const CHARSET: Deviation = {
  path: /^\/v1\/sites\/[^/]+\/ondemand-backups\/[^/]+$/,
  contentType: 'application/json; charset=utf-8',
  success: same,
};

describe('contract gate', () => {
  describe('one run over a server with a drift on each of eight operations', () => {
    let outcome: Outcome;
    let failures: Record<string, string>;
    beforeAll(async () => {
      outcome = await gateAgainst([...DRIFTED, 'getSiteOndemandBackup'], [...DRIFTS.map(([, d]) => d), CHARSET]);
      failures = failuresOf(outcome);
    });

    it('fails, on exactly the drifting transactions; the others pass (the control case)', () => {
      expect(outcome.code, outcome.output).toBe(1);
      const passed = outcome.results.filter((r) => r.outcome === 'pass').map((r) => r.key);
      expect(passed, outcome.output).toEqual(expect.arrayContaining(['getSite 404', 'getAccount 401']));
      expect(passed.length + Object.keys(failures).length).toBe(outcome.results.length);
      expect(Object.keys(failures).sort(), outcome.output).toEqual(
        [...DRIFTS.map(([, , key]) => key), UNAUTHORISED[1]].sort(),
      );
    });

    it.each([...DRIFTS, UNAUTHORISED])('reports %s, saying what is wrong', (_name, ...rest) => {
      const [key, message] = rest.slice(-2) as [string, RegExp];
      expect(failures[key], outcome.output).toMatch(message);
      expect(outcome.output).toContain(`FAILED ${key}`);
    });

    it('names the check each drift fails', () => {
      expect(failedChecks(outcome)).toEqual({
        'getSiteNote 200': ['content_type_conformance'],
        'getMuPlugin 200': ['status_code_conformance'],
        'getAccount 200': ['response_schema_conformance'],
        'getCollaboratorSite 200': ['response_schema_conformance'],
        'getSite 200': ['response_schema_conformance'],
        'getCollaborator 200': ['response_schema_conformance'],
        'getAlert 200': ['response_schema_conformance'],
        'getSite 401': ['status_code_conformance'],
        'listZones 401': ['response_headers_conformance'],
      });
    });

    it('accepts parameters on the Content-Type (application/json; charset=utf-8)', () => {
      const keys = outcome.results.filter((r) => r.key.startsWith('getSiteOndemandBackup ')).map((r) => r.outcome);
      expect(keys.length).toBeGreaterThan(0);
      expect(
        keys.every((o) => o === 'pass'),
        outcome.output,
      ).toBe(true);
    });
  });
});

describe('contract:live', () => {
  function runLive(env: Record<string, string>, only?: string): Promise<Outcome> {
    return runContract(['--live', ...(only ? ['--only', only] : [])], env);
  }

  it('names the missing variables in one message, without a stack trace', async () => {
    const outcome = await runLive({ CONTRACT_BASE_URL: 'http://127.0.0.1:9/v1' });
    expect(outcome.code).toBe(2);
    for (const name of ['CONTRACT_CLIENT_ID', 'CONTRACT_CLIENT_SECRET']) expect(outcome.output).toContain(name);
    // The auth URL is derived from the base URL (@hosting-api/openapi/target): not missing.
    for (const name of ['CONTRACT_BASE_URL ', 'CONTRACT_AUTH_URL']) expect(outcome.output).not.toContain(name);
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
    expect(outcome.code).toBe(3); // the target is unreachable or refuses the credentials
    expect(outcome.output).toContain(`could not obtain a token from POST http://127.0.0.1:${closed}/auth/token`);
    expect(outcome.output).not.toMatch(/\n\s+at /);
  });

  // The file's mock stands in for a live service: the requests it receives show what the run did.
  async function liveAgainstMock(extra: Record<string, string>) {
    seen.length = 0;
    const outcome = await runLive(
      {
        CONTRACT_BASE_URL: mock.baseUrl,
        CONTRACT_AUTH_URL: mock.authUrl,
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
    return { outcome, seen: [...seen] };
  }

  const outcomeOf = (o: Outcome, key: string) => o.results.find((r) => r.key === key)?.outcome;

  // One read-only run with target data serves both tests below.
  describe('read-only, with CONTRACT_TARGET_DATA', () => {
    let outcome: Outcome;
    let requests: string[];
    beforeAll(async () => {
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
      ({ outcome, seen: requests } = await liveAgainstMock({ CONTRACT_TARGET_DATA: file }));
    });

    it('is read-only by default: writes are skipped and never reach the target', () => {
      expect(outcome.code, outcome.output).toBe(0);
      // Safe is the spec model's one rule: a safe method and no stated effect; a POST search is not.
      for (const key of [
        'updateSite 200',
        'deleteSite 200',
        'createSiteNote 200',
        'deleteSite 401',
        'searchSites 200',
      ]) {
        expect(outcomeOf(outcome, key), key).toBe('skip');
      }
      for (const key of ['getSite 200', 'getSite 401', 'createAccessToken 200', 'revokeAccessToken 200']) {
        expect(outcomeOf(outcome, key), key).toBe('pass');
      }
      // Only the token operations reach the target with anything but GET.
      const writes = requests.filter((line) => !line.startsWith('GET '));
      expect(
        writes.every((line) => /^POST (\/auth\/token|\/auth\/revoke)\b/.test(line)),
        writes.join('\n'),
      ).toBe(true);
      expect(outcome.output).toContain('give --allow-writes to run it');
    });

    it('takes ids and error-provoking requests from CONTRACT_TARGET_DATA', () => {
      expect(outcomeOf(outcome, 'getSite 404')).toBe('pass');
      expect(requests).toContain('GET /v1/sites/654321 → 200');
      expect(requests).toContain('GET /v1/sites/1 → 404');
    });
  });

  it('runs writes with CONTRACT_ALLOW_WRITES=1, and fails a coverage below CONTRACT_MIN_COVERAGE as response_coverage', async () => {
    // A live run cannot provoke every documented error without target data: below a floor of 100%.
    const { outcome, seen } = await liveAgainstMock({ CONTRACT_ALLOW_WRITES: '1', CONTRACT_MIN_COVERAGE: '100' });
    for (const key of ['updateSite 200', 'deleteSite 200', 'createSiteNote 200', 'deleteSite 401']) {
      expect(outcomeOf(outcome, key), key).toBe('pass');
    }
    expect(seen.some((line) => line.startsWith('DELETE /v1/sites/'))).toBe(true);
    expect(outcome.code, outcome.output).toBe(1);
    expect(outcome.results.filter((r) => r.outcome === 'fail')).toEqual([]);
    expect(outcome.problems).toEqual([
      { name: 'coverage', check: 'response_coverage', message: expect.stringMatching(/below the floor of 100%$/) },
    ]);
  });
});
