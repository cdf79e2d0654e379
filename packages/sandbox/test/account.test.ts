// Account: profile, defaults, activity log (filters, 50 per page, 60-day retention), add-ons.
import { describe, expect, it } from 'vitest';
import { ACTIVITY_ACTIONS } from '../src/domain/actions.js';
import { status, useSandbox } from './helpers.js';
import { specProblems } from './spec-check.js';

const h = useSandbox();

describe('account', () => {
  it('returns the profile with counts derived from the state', async () => {
    const r = await h.call('GET', '/account');
    expect(specProblems('getAccount', r.status, r.body)).toEqual([]);
    expect(r.body.data).toMatchObject({
      email: 'ada@example.com',
      sitesCount: 6,
      collaboratorCount: 2,
      capacity: { sites: { maxBillable: 50, maxStaging: 50, billable: 3, staging: 1, total: 6 } },
    });
  });

  it('changes the default PHP version and datacenter; null removes the datacenter', async () => {
    expect(await h.api.account.update({ php_version: '8.5' })).toBeNull();
    expect(await h.api.account.update({ datacenter_code: null })).toBeNull();
    const account = await h.api.account.get();
    expect(account).toMatchObject({ defaultPhpVersion: '8.5', defaultDatacenter: null });
    const site = await h.api.sites.create({ name: 'no-dc' });
    expect(site).toMatchObject({ phpVersion: '8.5', datacenterCode: 'N/A' });
    const log = await h.api.account.activity.list({
      filters: [{ field: 'action', operator: 'equals', value: 'settings' }],
    });
    expect(log.data[0]).toMatchObject({ name: 'settings', source: 'api.v1' });
  });

  it('refuses unknown values; an empty change changes nothing', async () => {
    const r = await h.call('PUT', '/account', { php_version: '5.6' });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toContain('body.php_version');
    expect((await h.call('PUT', '/account', { datacenter_code: 'XXX' })).status).toBe(400);
    const before = (await h.call('GET', '/account')).body.data;
    const empty = await h.call('PUT', '/account', {});
    expect(empty.status).toBe(200);
    const after = (await h.call('GET', '/account')).body.data;
    expect([after.defaultPhpVersion, after.defaultDatacenter]).toEqual([
      before.defaultPhpVersion,
      before.defaultDatacenter,
    ]);
  });
});

describe('activity log', () => {
  it('keeps 60 days, newest first, and filters with equals and contains', async () => {
    const all = await h.api.account.activity.list({});
    // The seed has one entry 70 days old: outside the retention window.
    expect(all.data.map((e) => e.id)).toEqual([5512094, 5512093, 5512092, 5512091]);
    const bySource = await h.api.account.activity.list({
      filters: [{ field: 'source', operator: 'equals', value: 'api.v1' }],
    });
    expect(bySource.data.map((e) => e.id)).toEqual([5512093]);
    const contains = await h.api.account.activity.list({
      filters: [{ field: 'action', operator: 'contains', value: 'report' }],
    });
    expect(contains.data.map((e) => e.name)).toEqual(['report.page_views']);
    const ip = await h.api.account.activity.list({
      filters: [
        { field: 'ip_address', operator: 'equals', value: '203.0.113.24' },
        { field: 'account_email', operator: 'contains', value: 'ada@' },
      ],
    });
    expect(ip.data).toHaveLength(3);
  });

  it('drops entries as they age past the window', async () => {
    h.sb.advance(21 * 86_400_000);
    await h.refresh();
    const r = await h.api.account.activity.list({});
    expect(r.data.map((e) => e.id)).toEqual([5512094, 5512093, 5512092]);
  });

  it('pages at most 50 per page and refuses more', async () => {
    for (let i = 0; i < 60; i++) await h.api.sites.notes.create(123456, { subject: `n${i}`, body: 'b' });
    const first = await h.api.account.activity.list({ per_page: 50 });
    expect(first.page).toEqual({ currentPage: 1, nextPage: 2, lastPage: 2, perPage: 50, totalItems: 64 });
    const second = await h.api.account.activity.list({ page: 2, per_page: 50 });
    expect(second.data).toHaveLength(14);
    const r = await h.call('POST', '/account/logs/activity', { per_page: 51 });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatch(/^body\.per_page/);
    const badFilter = await h.call('POST', '/account/logs/activity', {
      filters: [{ field: 'colour', operator: 'equals', value: 'x' }],
    });
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.errors[0]).toEqual('filters.0.field must be action, account_email, ip_address, or source');
  });

  it('lists the account actions: every name of the one registry, each once', async () => {
    const actions = await h.api.account.actions.list();
    const names = actions.map((a) => a.name);
    expect(names).toEqual(Object.keys(ACTIVITY_ACTIONS));
    expect(names).toEqual(
      expect.arrayContaining([
        'site.created',
        'site.deleted',
        'settings',
        'git.deploy',
        'mu_plugin.created',
        'note.created',
        'backup.created',
      ]),
    );
  });

  it('every action the areas write is listed (account log: all; site log: the site ones)', async () => {
    const site = 123456;
    await h.api.sites.notes.create(site, { subject: 's', body: 'c' });
    await h.call('PUT', `/sites/${site}/php_fs_permissions`, { php_fs_permission: 'ro' });
    await h.call('POST', `/sites/${site}/ondemand-backups`, { backup_type: 'db' });
    await h.call('PUT', `/sites/${site}/git/token`, { token: 'ghp_x' });
    expect(
      (
        await h.call('POST', '/mu-plugins', {
          path: 'https://example.com/defaults.php',
          existing_sites: true,
          future_sites: false,
        })
      ).status,
    ).toBeLessThan(300);
    await h.api.sites.create({ name: 'listing-check' });
    const accountNames = new Set((await h.api.account.actions.list()).map((a) => a.name));
    const siteNames = new Set((await h.api.sites.actions.list()).map((a) => a.name));
    const written = h.sb.runtime.state.activity;
    expect(written.length).toBeGreaterThan(5);
    for (const entry of written) {
      expect(accountNames.has(entry.name), entry.name).toBe(true);
      if (entry.siteId !== null) expect(siteNames.has(entry.name), entry.name).toBe(true);
    }
    expect(siteNames.has('settings')).toBe(false);
  });
});

describe('add-ons', () => {
  it('sets the total quantity (not an increment); 0 detaches', async () => {
    expect((await h.api.account.addons.list()).map((a) => a.id)).toEqual([11, 12]);
    expect(await h.api.account.addons.listAttached()).toEqual([{ name: 'Additional sites', quantity: 2 }]);
    expect(await h.api.account.addons.update({ addon_id: 12, quantity: 3 })).toEqual([
      { name: 'Additional sites', quantity: 2 },
      { name: 'Additional storage', quantity: 3 },
    ]);
    await h.api.account.addons.update({ addon_id: 12, quantity: 1 });
    expect(await h.api.account.addons.listAttached()).toContainEqual({ name: 'Additional storage', quantity: 1 });
    expect(await h.api.account.addons.update({ addon_id: 11, quantity: 0 })).toEqual([
      { name: 'Additional storage', quantity: 1 },
    ]);
  });

  it('refuses unknown add-ons and negative or missing quantities', async () => {
    expect(await status(h.api.account.addons.update({ addon_id: 99, quantity: 1 }))).toBe(400);
    expect(await status(h.api.account.addons.update({ addon_id: 11, quantity: -1 }))).toBe(400);
    const r = await h.call('PUT', '/account/addons', { addon_id: 11 });
    expect(r.status).toBe(400);
    expect(r.body.errors.join()).toContain('body.quantity');
  });
});
