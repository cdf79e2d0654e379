// --seed-variant / seedVariant: another account than the built-in one (other ids, names, counts),
// consistent in itself (references follow the moved ids).
import { describe, expect, it } from 'vitest';
import { seedState } from '../src/domain/seed.js';
import { variantState } from '../src/domain/seed-variant.js';
import { harness } from './helpers.js';

describe('seed variants', () => {
  const base = seedState(Date.parse('2026-11-02T09:00:00.000Z'));
  const v2 = variantState(base, 2);

  it('moves every id, renames the sites and changes the counts', () => {
    const ids = new Set(base.sites.map((s) => s.id));
    expect(v2.sites.some((s) => ids.has(s.id))).toBe(false);
    expect(v2.sites.length).toBe(base.sites.length + 2);
    expect(v2.notes.length).toBe(base.notes.length - 1);
    expect(v2.sites.map((s) => s.name)).not.toContain('ada-blog');
    // References follow: every note, record and backup names a site (or zone) of the variant.
    const siteIds = new Set(v2.sites.map((s) => s.id));
    for (const n of v2.notes) expect(siteIds.has(n.siteId)).toBe(true);
    for (const r of v2.dnsRecords) expect(r.zoneId).toBe(v2.zones[0]!.id);
    for (const b of v2.backups) expect(siteIds.has(b.site_id)).toBe(true);
  });

  it('refuses a variant that is not a whole number ≥ 1', () => {
    expect(() => variantState(base, 0)).toThrow(/seedVariant/);
  });

  it('serves the variant through the API', async () => {
    const h = await harness({ seedVariant: 2 });
    const sites = await h.call('GET', '/sites');
    expect(sites.status).toBe(200);
    const ids = sites.body.data.map((s: { id: number }) => s.id);
    expect(ids).toEqual(expect.arrayContaining(v2.sites.map((s) => s.id)));
    const site = v2.sites[0]!;
    expect((await h.call('GET', `/sites/${site.id}`)).body.data.name).toBe(site.name);
    expect((await h.call('GET', '/sites/123456')).status).toBe(404);
    expect(h.selfCheckFailures).toEqual([]);
    await h.sb.stop();
  });
});
