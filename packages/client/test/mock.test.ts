// The client against the Prism mock of the bundled spec (@hosting-api/mock): one operation per tag,
// every response validated with @hosting-api/schemas.

import { type RunningMock, startMock } from '@hosting-api/mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type HostingApiClient, NotFoundError } from '../src/index';

let mock: RunningMock;
let client: HostingApiClient;
const requests: string[] = [];

beforeAll(async () => {
  mock = await startMock({ port: 0, onRequest: (line) => requests.push(line) });
  client = createClient({
    baseUrl: mock.baseUrl,
    authUrl: mock.authUrl,
    clientId: '7f3c9a52e1b04d6a',
    clientSecret: 's3cr3t',
    validate: true,
  });
}, 60_000);
afterAll(() => mock?.stop());

const SITE = 123456;

describe('against the Prism mock', () => {
  it('Token: obtains a token by itself, and through auth.createToken', async () => {
    await client.account.get();
    expect(requests[0]).toBe('POST /auth/token → 200');
    const token = await client.auth.createToken({
      grant_type: 'client_credentials',
      client_id: 'a',
      client_secret: 'b',
    });
    expect(token.token_type).toBe('Bearer');
  });

  it('Account, Collaborators, DNS', async () => {
    expect((await client.account.get()).email).toMatch(/@/);
    expect(Array.isArray(await client.collaborators.list())).toBe(true);
    expect(Array.isArray(await client.dns.zones.list())).toBe(true);
  });

  it('Sites and Notes (paginated)', async () => {
    expect((await client.sites.get(SITE)).id).toBe(SITE);
    const notes = await client.sites.notes.list(SITE, { page: 1, per_page: 20 });
    expect(notes.page.currentPage).toBe(1);
    const all = [];
    for await (const note of client.paginate(client.sites.notes.list, SITE)) all.push(note);
    expect(all.length).toBe(notes.data.length);
  });

  it('Logs (a GET with a JSON body), Egress firewall, Plugins, Must-use plugins', async () => {
    expect((await client.sites.logs.php(SITE, { status: 'Warning' })).logs.length).toBeGreaterThan(0);
    expect(requests).toContain(`GET /v1/sites/${SITE}/logs/php → 200`);
    expect(Array.isArray(await client.sites.firewallRules.list(SITE))).toBe(true);
    expect(Array.isArray(await client.sites.plugins.list(SITE))).toBe(true);
    expect(Array.isArray((await client.muPlugins.list()).data)).toBe(true);
  });

  it('Backups and restores, Git, Alerts', async () => {
    await expect(client.sites.backups.ondemand.create(SITE, { backup_type: 'fs' })).resolves.toBeDefined();
    await expect(client.sites.git.get(SITE)).resolves.toBeDefined();
    const alerts = await client.alerts.list({ category: 'failure' });
    expect(Array.isArray(alerts.data)).toBe(true);
  });

  it('a documented 404 becomes NotFoundError with the envelope message', async () => {
    const error = await client.sites.get(SITE, { headers: { Prefer: 'code=404' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).message).toBe('We could not locate the requested resources.');
  });

  it('revokes the token at the auth root', async () => {
    await client.revoke();
    expect(requests.at(-1)).toBe('POST /auth/revoke → 200');
  });
});
