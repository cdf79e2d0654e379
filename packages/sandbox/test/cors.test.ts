// Cross-origin access (the `cors` option, CLI --cors): preflights for the API's and the control
// routes' paths, the CORS headers on every answer to an allowed origin (errors included), and
// nothing at all for other origins or when the option is off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../src/index.js';

const PAGE = 'http://127.0.0.1:5173';
let listed: Sandbox;
let any: Sandbox;
let off: Sandbox;
let control: Sandbox;
beforeAll(async () => {
  [listed, any, off, control] = await Promise.all([
    startSandbox({ speed: 0, cors: [PAGE, 'https://app.example.com'] }),
    startSandbox({ speed: 0, cors: true }),
    startSandbox({ speed: 0 }),
    startSandbox({ speed: 0, cors: [PAGE], corsControl: [PAGE] }),
  ]);
});
afterAll(() => Promise.all([listed, any, off, control].map((s) => s?.stop())));

const preflight = (root: string, path: string, method: string, origin = PAGE) =>
  fetch(root + path, {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': method,
      'Access-Control-Request-Headers': 'authorization, content-type',
    },
  });
const methodsOf = (res: Response) => res.headers.get('access-control-allow-methods')?.split(', ').sort();

describe('sandbox CORS', () => {
  it('answers a preflight for an API path with its methods and the headers the API uses', async () => {
    const res = await preflight(listed.url, '/sites/123456', 'DELETE');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(methodsOf(res)).toEqual(['DELETE', 'GET', 'PUT']);
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, Prefer');
    expect(await res.text()).toBe('');
  });

  it('answers preflights for the token operation; the control routes only for origins named for them', async () => {
    const token = await preflight(listed.authUrl, '/auth/token', 'POST');
    expect(token.status).toBe(204);
    expect(methodsOf(token)).toEqual(['POST']);
    // `cors` covers the API, not the control routes: their preflight is refused (no CORS headers).
    for (const sb of [listed, any]) {
      const clock = await preflight(sb.authUrl, '/__sandbox/clock', 'POST');
      expect(clock.status).not.toBe(204);
      expect(clock.headers.get('access-control-allow-origin')).toBeNull();
      const dump = await fetch(`${sb.authUrl}/__sandbox/state`, { headers: { Origin: PAGE } });
      expect(dump.status).toBe(403);
      expect(dump.headers.get('access-control-allow-origin')).toBeNull();
    }
    const clock = await preflight(control.authUrl, '/__sandbox/clock', 'POST');
    expect(clock.status).toBe(204);
    expect(methodsOf(clock)).toEqual(['GET', 'POST']);
    const dump = await fetch(`${control.authUrl}/__sandbox/clock`, { headers: { Origin: PAGE } });
    expect(dump.status).toBe(200);
    expect(dump.headers.get('access-control-allow-origin')).toBe(PAGE);
  });

  it('puts the CORS headers on answers, errors included, and exposes the documented response headers', async () => {
    const token = await listed.token();
    const ok = await fetch(`${listed.url}/sites/123456`, {
      headers: { Origin: PAGE, Authorization: `Bearer ${token}` },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(ok.headers.get('vary')).toBe('Origin');
    const refused = await fetch(`${listed.url}/sites/123456`, { headers: { Origin: PAGE } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(PAGE);
    // The spec documents WWW-Authenticate on 401s: a page can read it.
    expect(refused.headers.get('access-control-expose-headers')).toBe('WWW-Authenticate');
    expect((await refused.json()).data).toBeNull();
  });

  it('gives an origin not on the list nothing: no CORS headers, and its preflight gets the API 404', async () => {
    const res = await preflight(listed.url, '/sites/123456', 'GET', 'http://evil.example');
    expect(res.status).toBe(404);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect((await res.json()).message).toBeTruthy();
    const get = await fetch(`${listed.url}/account`, { headers: { Origin: 'http://evil.example' } });
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers a preflight to a path it does not serve with the API 404', async () => {
    const res = await preflight(listed.url, '/no-such-thing', 'GET');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  it('with cors: true, allows any origin', async () => {
    const res = await preflight(any.authUrl, '/auth/revoke', 'POST', 'http://localhost:3000');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
  });

  it('is off by default', async () => {
    const res = await preflight(off.url, '/sites/123456', 'GET');
    expect(res.status).toBe(404);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a list entry that is not an origin', async () => {
    await expect(startSandbox({ cors: ['http://127.0.0.1:5173/'] })).rejects.toThrow(/--cors takes origins/);
  });
});
