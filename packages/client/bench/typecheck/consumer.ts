// A consumer's file that calls 20 methods of the built client; bench/typecheck.mjs times
// `tsc --noEmit` on it (the cost of the client's declarations in a user's editor and CI).
import { createClient } from '@hosting-api/client';

export async function main(): Promise<unknown[]> {
  const client = createClient({ baseUrl: 'http://127.0.0.1:4011/v1', clientId: 'id', clientSecret: 'secret' });
  const siteId = 123456;
  return [
    await client.auth.createToken({ grant_type: 'client_credentials', client_id: 'id', client_secret: 'secret' }),
    await client.account.get(),
    await client.collaborators.list(),
    await client.dns.zones.list(),
    await client.sites.get(siteId),
    await client.sites.list({ paginate: true, per_page: 20 }),
    await client.sites.notes.list(siteId, { page: 1 }),
    await client.sites.notes.create(siteId, { subject: 'Launch', body: 'Freeze content first' }),
    await client.sites.notes.get(siteId, 42),
    await client.sites.logs.php(siteId, { status: 'Warning' }),
    await client.sites.firewallRules.list(siteId),
    await client.sites.plugins.list(siteId),
    await client.muPlugins.list(),
    await client.sites.backups.ondemand.create(siteId, { backup_type: 'fs' }),
    await client.sites.backups.list(siteId),
    await client.sites.git.get(siteId),
    await client.alerts.list({ category: 'failure' }),
    await client.sites.reports.usage(siteId),
    await client.sites.edgeCache.get(siteId),
    await client.account.get({ raw: true, timeout: 5_000 }),
  ];
}
