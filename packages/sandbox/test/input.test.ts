// Issue 12: the sandbox accepts only what the spec declares for each operation (canonical integer
// ids, declared media types, required bodies, 401 with WWW-Authenticate), answers only what the
// spec documents (the response self-check is on in every test of this suite: helpers.ts), and
// treats control routes and fixtures as input too.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../src/index.js';
import { errorEnvelope, useSandbox } from './helpers.js';
import { deref, OPS, pathOf, spec } from './ops.js';
import { specProblems } from './spec-check.js';

const h = useSandbox();

async function send(
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string; token?: string | null } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  const token = init.token === undefined ? h.token : init.token;
  if (token) headers.authorization ??= `Bearer ${token}`;
  const res = await fetch(`${h.sb.authUrl}${path}`, { method, headers, body: init.body });
  const text = await res.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: res.status, body, headers: res.headers };
}

const stateText = () => JSON.stringify(h.sb.runtime.state);

describe('integer path ids: only canonical decimal integers address a resource', () => {
  const variants = (id: number) => [
    `0x${id.toString(16)}`,
    `0o${id.toString(8)}`,
    `0b${id.toString(2)}`,
    `+${id}`,
    `00${id}`,
    `${id}.0`,
    `${id.toExponential()}`.replace('+', ''),
    `%20${id}`,
    `${id}%20`,
    `${id}%09`,
  ];

  it('DELETE /v1/sites/0x1e240 deletes nothing (404)', async () => {
    const r = await send('DELETE', '/v1/sites/0x1e240');
    expect(r.status).toBe(404);
    expect((await send('GET', '/v1/sites/123456')).status).toBe(200);
  });

  it('answers 404 for octal, binary, hex, signed, zero-padded, decimal-point, exponent and padded ids on every operation', async () => {
    let checked = 0;
    for (const op of OPS) {
      for (const p of op.params.filter((x) => x.in === 'path' && deref(x.schema).type === 'integer')) {
        const before = stateText();
        for (const variant of variants(Number(p.example))) {
          const r = await send(op.method, pathOf(op, { [p.name]: variant }), {
            headers: { 'content-type': 'application/json' },
            body: op.method === 'GET' ? undefined : '{}',
          });
          expect(r.status, `${op.method} ${op.path} ${p.name}=${variant}`).toBe(404);
          expect(errorEnvelope(r).message).toBe('We could not locate the requested resources.');
          checked++;
        }
        expect(stateText(), `${op.operationId}: state changed by a non-canonical id`).toBe(before);
      }
    }
    expect(checked).toBeGreaterThan(700);
  });
});

describe('media types: only what the operation declares', () => {
  it('refuses a form-encoded note (the spec declares JSON) and creates nothing', async () => {
    const before = stateText();
    const r = await send('POST', '/v1/sites/123456/notes', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'subject=a&body=b',
    });
    expect(r.status).toBe(400);
    expect(errorEnvelope(r).errors?.[0]).toContain('send application/json');
    expect(stateText()).toBe(before);
  });

  it('refuses JSON on the token operations (the spec declares form only)', async () => {
    const creds = { client_id: 'sandbox-client', client_secret: 'sandbox-secret' };
    const token = await send('POST', '/auth/token', {
      token: null,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', ...creds }),
    });
    expect(token.status).toBe(400);
    const revoke = await send('POST', '/auth/revoke', {
      token: null,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: h.token, ...creds }),
    });
    expect(revoke.status).toBe(400);
    // The token was not revoked.
    expect((await send('GET', '/v1/account')).status).toBe(200);
  });

  it('refuses other JSON-like types (merge-patch+json, text/json) on JSON operations', async () => {
    for (const type of ['application/merge-patch+json', 'text/json', 'application/jsonx']) {
      const r = await send('POST', '/v1/sites/123456/notes', {
        headers: { 'content-type': type },
        body: '{"subject":"a","body":"b"}',
      });
      expect(r.status, type).toBe(400);
    }
  });
});

describe('a required request body is required', () => {
  const required = OPS.filter((op) => op.body?.required);

  it('answers 400 on every operation whose requestBody is required, when none is sent', async () => {
    expect(required.length).toBeGreaterThan(30);
    for (const op of required) {
      const before = stateText();
      const r = await send(op.method, pathOf(op), { token: op.auth ? undefined : null });
      expect(r.status, `${op.method} ${op.path}`).toBe(400);
      expect(errorEnvelope(r).errors?.[0], op.operationId).toMatch(/^body/);
      expect(stateText(), op.operationId).toBe(before);
    }
  });

  it('PUT /sites/{id} with no body is refused; with {} it succeeds', async () => {
    expect((await send('PUT', '/v1/sites/123456')).status).toBe(400);
    const ok = await send('PUT', '/v1/sites/123456', { headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(ok.status).toBe(200);
  });
});

describe('401 answers carry WWW-Authenticate: Bearer', () => {
  it('on every operation that needs a token, without one and with a bad one', async () => {
    const guarded = OPS.filter((op) => op.auth);
    expect(guarded.length).toBe(114);
    for (const op of guarded) {
      const none = await send(op.method, pathOf(op), { token: null });
      expect(none.status, op.operationId).toBe(401);
      expect(none.headers.get('www-authenticate'), op.operationId).toBe('Bearer');
      const bad = await send(op.method, pathOf(op), { token: 'not-a-token' });
      expect(bad.status, op.operationId).toBe(401);
      expect(bad.headers.get('www-authenticate'), op.operationId).toBe('Bearer error="invalid_token"');
    }
  });

  it('is documented in the spec’s shared 401 response', () => {
    const header = spec.components.responses.Unauthorized.headers['WWW-Authenticate'];
    expect(header.required).toBe(true);
  });
});

describe('malformed requests: what the operation does not use is ignored', () => {
  it('ignores repeated and bracket-style unknown query parameters, on operations without query parameters too', async () => {
    for (const op of OPS.filter((o) => o.method === 'GET')) {
      const r = await send(op.method, `${pathOf(op)}?x=1&x=2&a[]=1&a[]=2&b[c]=3`, {
        token: op.auth ? undefined : null,
      });
      expect(r.status, op.operationId).toBeLessThan(400);
      expect(Object.keys(op.responses), op.operationId).toContain(String(r.status));
    }
  });

  it('an unknown query parameter named like an Object.prototype member is ignored too, repeated or not', async () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf']) {
      for (const path of ['/v1/sites', '/v1/sites/123456/notes']) {
        const r = await send('GET', `${path}?${name}=a&${name}=b&${name}[x]=c`);
        expect(r.status, `${path} ${name}`).toBe(200);
      }
    }
  });

  it('ignores any body sent to an operation that takes none (malformed, other types, over the limit)', async () => {
    const bodies: [string, string][] = [
      ['application/json', '{"broken": '],
      ['text/plain', 'hello'],
      ['application/xml', '<x/>'],
      ['application/json', JSON.stringify({ x: 'y'.repeat(2_000_000) })],
    ];
    for (const [type, body] of bodies) {
      const r = await send('DELETE', '/v1/sites/123456/object-cache', { headers: { 'content-type': type }, body });
      expect(r.status, type).toBe(200);
      const fav = await send('POST', '/v1/sites/123456/favorites', { headers: { 'content-type': type }, body });
      expect(fav.status, type).toBe(200);
    }
  });

  it('a repeated declared query parameter is a 400 (the operation documents it)', async () => {
    const r = await send('GET', '/v1/sites/123456/notes?page=1&page=2');
    expect(r.status).toBe(400);
    expect(specProblems('listSiteNotes', r.status, r.body)).toEqual([]);
  });

  it('broken percent-encoding in an id is a 404 on every operation with a path parameter', async () => {
    for (const op of OPS.filter((o) => o.params.some((p) => p.in === 'path'))) {
      const name = op.params.find((p) => p.in === 'path').name;
      const r = await send(op.method, pathOf(op, { [name]: '%E0%A4%A' }));
      expect(r.status, op.operationId).toBe(404);
      expect(specProblems(op.operationId, r.status, r.body), op.operationId).toEqual([]);
    }
  });
});

describe('the response self-check', () => {
  it('replaces an answer the spec does not document with a 500 listing the problem, and reports it', async () => {
    const errors: string[] = [];
    const sb = await startSandbox({
      speed: 0,
      selfCheck: true,
      onError: (m, e) => errors.push(`${m}: ${(e as Error).message}`),
    });
    try {
      const token = await sb.token();
      // A state no handler produces: a note whose subject is a number (bypassing the fixture check).
      sb.runtime.state.notes.push({ ...sb.runtime.state.notes[0]!, id: 999, subject: 5 as unknown as string });
      const res = await fetch(`${sb.url}/sites/123456/notes/999`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(500);
      const body = (await res.json()) as any;
      expect(body.errors[0]).toMatch(
        /^sandbox self-check: getSiteNote .* 200: body\/data\/subject must be string \(original status 200\)$/,
      );
      expect(errors[0]).toMatch(/^self-check/);
    } finally {
      await sb.stop();
    }
  });

  it('is off by default: the same answer goes out unchecked', async () => {
    const sb = await startSandbox({ speed: 0, onError: () => {} });
    try {
      const token = await sb.token();
      sb.runtime.state.notes.push({ ...sb.runtime.state.notes[0]!, id: 999, subject: 5 as unknown as string });
      const res = await fetch(`${sb.url}/sites/123456/notes/999`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).data.subject).toBe(5);
      // The unchecked path answers the same envelopes as the checked one (page block included).
      const paged = await fetch(`${sb.url}/sites/123456/notes?per_page=1`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = (await paged.json()) as any;
      expect(Object.keys(body)).toEqual(['message', 'data', 'errors', 'page']);
      expect(body.page).toMatchObject({ currentPage: 1, perPage: 1 });
      expect(specProblems('listSiteNotes', paged.status, body)).toEqual([]);
      const created = await fetch(`${sb.url}/sites/123456/notes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ subject: 's', body: 'b' }),
      });
      expect(specProblems('createSiteNote', created.status, await created.json())).toEqual([]);
    } finally {
      await sb.stop();
    }
  });
});

describe('control routes and fixtures are input too', () => {
  it('refuses a __proto__ key in PATCH /__sandbox/state; Object.prototype stays clean', async () => {
    for (const patch of ['{"__proto__": {"polluted": 1}}', '{"account": {"__proto__": {"polluted": 1}}}']) {
      const r = await send('PATCH', '/__sandbox/state', {
        headers: { 'content-type': 'application/json' },
        body: patch,
      });
      expect(r.status, patch).toBe(400);
      expect(errorEnvelope(r).errors?.[0]).toContain('__proto__');
      expect(({} as any).polluted).toBeUndefined();
    }
    const put = await send('PUT', '/__sandbox/state', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(h.sb.runtime.state).replace('{', '{"__proto__": {"polluted": 1},'),
    });
    expect(put.status).toBe(400);
    expect(({} as any).polluted).toBeUndefined();
  });

  it('validates a fixture fully and names the first bad field (PUT and PATCH)', async () => {
    const state = JSON.parse(stateText());
    const cases: [unknown, string][] = [
      [{ ...state, sites: [{ id: 'x' }] }, 'sites.0.id'],
      [{ ...state, notes: [{ ...state.notes[0], siteId: '123456' }] }, 'notes.0.siteId'],
      [{ ...state, account: { ...state.account, maxSites: 'many' } }, 'account.maxSites'],
      [{ ...state, alerts: [{ ...state.alerts[0], category: 'bogus' }] }, 'alerts.0.category'],
      [{ ...state, ids: { site: 'next' } }, 'ids.site'],
    ];
    for (const [fixture, path] of cases) {
      const r = await send('PUT', '/__sandbox/state', {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(fixture),
      });
      expect(r.status, path).toBe(400);
      expect(errorEnvelope(r).errors?.[0]?.startsWith(`${path}: `), `${path}: ${r.body.errors}`).toBe(true);
    }
    const patch = await send('PATCH', '/__sandbox/state', {
      headers: { 'content-type': 'application/json' },
      body: '{"sites": [{"id": "x"}]}',
    });
    expect(patch.status).toBe(400);
    expect(errorEnvelope(patch).errors?.[0]).toMatch(/^sites\.0\.id: /);
    expect((await send('GET', '/v1/sites')).status).toBe(200);
    // The seed and a dump of the state are valid fixtures.
    expect(
      (await send('PUT', '/__sandbox/state', { headers: { 'content-type': 'application/json' }, body: stateText() }))
        .status,
    ).toBe(200);
  });

  it('--seed FILE with a bad field: the CLI exits 2 naming it; startSandbox rejects', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-fixture-'));
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(stateText()), sites: [{ id: 'x' }] }));
    await expect(startSandbox({ seed: file })).rejects.toThrow(/sites\.0\.id/);
    const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
    // Asynchronously: a blocked event loop would let the shared sandbox's keep-alive sockets expire
    // under the next test's feet (ECONNRESET).
    const r = await new Promise<{ status: unknown; stderr: string }>((done) =>
      execFile(process.execPath, [cli, '--seed', file, '--port', '0'], { timeout: 20_000 }, (error, _out, stderr) =>
        done({ status: error ? error.code : 0, stderr }),
      ),
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('sites.0.id');
  });

  it('a plugin zip URL with broken percent-encoding is a 400, not a 500', async () => {
    const r = await send('POST', '/v1/sites/123456/plugins', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ plugins: [{ path: 'https://downloads.example.com/%E0%A4%A.zip' }] }),
    });
    expect(r.status).toBe(400);
    expect(errorEnvelope(r).errors?.[0]).toContain('HTTPS URL of a plugin zip');
  });
});
