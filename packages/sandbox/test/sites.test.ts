// Sites: real flows through @hosting-api/client (responses validated by its schemas) and the
// transitions of the seed's part 3.
import { describe, expect, it } from 'vitest';
import { SITE_NAME_RULE } from '../src/domain/model/sites.js';
import { DURATIONS } from '../src/index.js';
import { status, useSandbox } from './helpers.js';
import { specProblems } from './spec-check.js';

const h = useSandbox();

describe('list and search', () => {
  it('lists every site, favorites first, without a page block unless paginate is set', async () => {
    const all = await h.call('GET', '/sites');
    expect(all.body.page).toBeUndefined();
    const favs = all.body.data.map((s: any) => s.favorite);
    expect(favs).toEqual([...favs].sort((a, b) => Number(b) - Number(a)));
    expect(all.body.data.map((s: any) => s.id).slice(0, 2)).toEqual([123456, 123461]);
    expect(specProblems('listSites', all.status, all.body)).toEqual([]);
    // page/per_page alone do not page the list (the seed: only when pagination is requested).
    expect((await h.call('GET', '/sites?per_page=2')).body.data).toHaveLength(all.body.data.length);

    const paged = await h.call('GET', '/sites?paginate=true&per_page=4&page=2');
    expect(paged.body.page).toEqual({ currentPage: 2, nextPage: null, lastPage: 2, perPage: 4, totalItems: 6 });
    expect(paged.body.data).toHaveLength(2);
    expect(specProblems('listSites', paged.status, paged.body)).toEqual([]);
  });

  it('paginates through the client', async () => {
    const ids: number[] = [];
    for await (const site of h.api.paginate(h.api.sites.list, { paginate: true, per_page: 4 })) ids.push(site.id);
    expect(ids).toHaveLength(6);
  });

  it('searches by name substring and state, with ipAddresses in the search view', async () => {
    const r = await h.api.sites.search({
      filters: [
        { key: 'name', value: 'a' },
        { key: 'state', value: 'live' },
      ],
      per_page: 2,
    });
    expect(r.data.every((s) => s.state === 'live' && s.name.includes('a'))).toBe(true);
    expect(r.page).toMatchObject({ currentPage: 1, perPage: 2 });
    expect(r.data[0]?.ipAddresses).toHaveLength(2);
    expect(await status(h.api.sites.search({ filters: [{ key: 'nonsense', value: 'x' }] }))).toBe(400);
  });

  it('serves the option lists', async () => {
    expect(await h.api.sites.listPhpVersions()).toEqual(['8.3', '8.4', '8.5']);
    expect((await h.api.sites.listDatacenters()).map((d) => d.code)).toEqual(['AMS', 'BUR', 'DCA', 'DFW']);
    expect(await h.api.sites.listInstallOptions()).toContain('cms');
  });
});

describe('create → deploying → live', () => {
  it('creates a deploying site that goes live after its deploy and publishes an alert', async () => {
    const site = await h.api.sites.create({ name: 'ada-shop', php_version: '8.5', datacenter_code: 'AMS' });
    expect(site).toMatchObject({
      state: 'deploying',
      staging: false,
      sandbox: false,
      phpVersion: '8.5',
      datacenterCode: 'AMS',
    });
    h.sb.advance(DURATIONS.siteDeploy);
    const live = await h.api.sites.get(site.id);
    expect(live.state).toBe('live');
    expect(live.collaborators).toEqual([]);
    const alerts = h.sb.runtime.state.alerts.filter((a) => a.site?.id === site.id);
    expect(alerts.map((a) => a.category)).toEqual(['completed']);
    const log = await h.api.account.activity.list({
      filters: [{ field: 'action', operator: 'equals', value: 'site.created' }],
    });
    expect(log.data[0]).toMatchObject({ source: 'api.v1', name: 'site.created' });
  });

  it('returns the flags as requested and uses the account defaults', async () => {
    const s = await h.api.sites.create({ name: 'stage-1', staging: true });
    expect(s).toMatchObject({ staging: true, sandbox: false, phpVersion: '8.4', datacenterCode: 'DCA' });
  });

  it('refuses bad names, duplicates and bad options, naming the field', async () => {
    for (const name of ['ab', 'has.dot', 'has space', '-dash', 'dash-', 'ümlaut']) {
      const r = await h.call('POST', '/sites', { name });
      expect(r.status, name).toBe(400);
      // The spec's minLength and pattern refuse it, in part 7's own sentence.
      expect(r.body.errors).toEqual([`body.name: ${SITE_NAME_RULE}`]);
    }
    expect((await h.call('POST', '/sites', { name: 'ada-blog' })).body.errors[0]).toContain('already exists');
    expect((await h.call('POST', '/sites', { name: 'okname', php_version: '7.4' })).body.errors[0]).toContain(
      'body.php_version',
    );
    expect((await h.call('POST', '/sites', { name: 'okname', staging: 'yes' })).body.errors[0]).toMatch(
      /^body\.staging/,
    );
  });

  it('validates names with the seed rule', async () => {
    expect(await h.api.sites.validateName({ name: 'ada-shop' })).toEqual({ valid: true });
    const bad = await h.call('POST', '/sites/validate', { name: 'a.b' });
    expect(bad.body).toEqual({ message: SITE_NAME_RULE, data: { valid: false }, errors: null });
    expect((await h.call('POST', '/sites/validate', {})).status).toBe(400);
  });
});

describe('get, update, delete', () => {
  it('returns the detail view and 404 for unknown sites', async () => {
    const s = await h.api.sites.get(123456);
    expect(s.collaborators.map((c) => c.email)).toEqual(['grace@example.com', 'alan@example.com']);
    expect(s.collaboratorsCount).toBe(2);
    const r = await h.call('GET', '/sites/999999');
    expect(r.status).toBe(404);
    expect(r.body.message).toBe('We could not locate the requested resources.');
  });

  it('updates display name, PHP version and environment type', async () => {
    const s = await h.api.sites.update(123456, {
      name: 'Ada Notes',
      php_version: '8.5',
      wp_environment_type: 'staging',
    });
    expect(s).toMatchObject({
      displayName: 'Ada Notes',
      name: 'ada-blog',
      phpVersion: '8.5',
      wpEnvironmentType: 'staging',
    });
    expect((await h.call('PUT', '/sites/123456', { wp_environment_type: 'prod' })).status).toBe(400);
  });

  it('keeps a display name outside the Basic Multilingual Plane as sent (free text), and refuses an unlisted PHP version', async () => {
    expect((await h.api.sites.update(123456, { name: 'café 🚀 𝄞' })).displayName).toBe('café 🚀 𝄞');
    expect((await h.api.sites.get(123456)).displayName).toBe('café 🚀 𝄞');
    expect((await h.call('PUT', '/sites/123456', { php_version: 'not-8.3' })).status).toBe(400);
    expect((await h.call('PUT', '/account', { php_version: 'not-8.3' })).status).toBe(400);
    expect((await h.call('PUT', '/account', { datacenter_code: 'not-AMS' })).status).toBe(400);
  });

  it('deletes a site and what belongs to it', async () => {
    await h.api.sites.delete(123456);
    expect(await status(h.api.sites.get(123456))).toBe(404);
    expect(await status(h.api.sites.notes.get(123456, 42))).toBe(404);
    expect(await status(h.api.sites.delete(123456))).toBe(404);
  });
});

describe('disable and enable', () => {
  it('disables any site and enables only disabled ones', async () => {
    expect((await h.api.sites.disable(123456)).state).toBe('disabled');
    expect((await h.api.sites.enable(123456)).state).toBe('live');
    expect(await status(h.api.sites.enable(123456))).toBe(400);
  });

  it('keeps a disabled site billable', async () => {
    const before = (await h.api.account.get()).capacity.sites.billable;
    await h.api.sites.disable(123456);
    expect((await h.api.account.get()).capacity.sites.billable).toBe(before);
  });
});

describe('conversions', () => {
  const billable = async () => (await h.api.account.get()).capacity.sites.billable;

  it('live → staging only without DNS records attached, and it leaves the billable count', async () => {
    expect(await status(h.api.sites.convertToStaging(123456))).toBe(400); // has record 880123
    const before = await billable();
    const s = await h.api.sites.convertToStaging(123461);
    expect(s).toMatchObject({
      staging: true,
      sandbox: false,
      createdBy: { name: 'Ada Lovelace', email: 'ada@example.com' },
    });
    expect(await billable()).toBe(before - 1);
  });

  it('sandbox → staging, staging → sandbox puts the site in maintenance mode', async () => {
    expect(await h.api.sites.convertToStaging(123458)).toMatchObject({ staging: true, sandbox: false });
    const s = await h.api.sites.convertToSandbox(123457);
    expect(s).toMatchObject({ staging: false, sandbox: true, maintenanceMode: true });
  });

  it('live → sandbox removes it from billable; → live adds it back', async () => {
    const before = await billable();
    await h.api.sites.convertToSandbox(123461);
    expect(await billable()).toBe(before - 1);
    expect(await h.api.sites.convertToLive(123461)).toMatchObject({ staging: false, sandbox: false });
    expect(await billable()).toBe(before);
    expect(await status(h.api.sites.convertToLive(123461))).toBe(400); // already live
  });

  it('kit only from sandbox', async () => {
    expect(await status(h.api.sites.convertToKit(123456))).toBe(400);
    expect((await h.api.sites.convertToKit(123458)).kit).toBe(true);
  });

  it('the generic conversion takes staging or sandbox to live', async () => {
    expect(await h.api.sites.convert(123457)).toMatchObject({ staging: false, sandbox: false });
    expect(await status(h.api.sites.convert(123456))).toBe(400);
  });

  it('owner-only conversions refuse a token without the owner scope', async () => {
    expect(await status(h.limited.sites.convertToStaging(123461))).toBe(403);
    expect(await status(h.limited.sites.convertToLive(123457))).toBe(403);
  });

  it('converts a site that is still deploying (part 3 conditions concern the site type only)', async () => {
    const s = await h.api.sites.create({ name: 'busy-one', sandbox: true });
    expect(s.state).toBe('deploying');
    expect((await h.api.sites.convertToKit(s.id)).kit).toBe(true);
    const c = await h.api.sites.clone(123456, { name: 'busy-clone' });
    expect(c.state).toBe('cloning');
    expect((await h.api.sites.convertToSandbox(c.id)).sandbox).toBe(true);
    expect((await h.api.sites.convertToStaging(c.id)).staging).toBe(true);
    expect((await h.api.sites.convert(c.id)).staging).toBe(false);
  });

  it('disables any site, a deploying or cloning one too (part 3: "any site")', async () => {
    const s = await h.api.sites.create({ name: 'busy-two' });
    expect((await h.api.sites.disable(s.id)).state).toBe('disabled');
    const c = await h.api.sites.clone(123456, { name: 'busy-clone-two' });
    expect((await h.api.sites.disable(c.id)).state).toBe('disabled');
    // Queued work does not bring a disabled site back to live.
    h.sb.advance(60_000);
    expect((await h.api.sites.get(c.id)).state).toBe('disabled');
  });

  it('converts a kit (a sandbox site) to staging, as convert and convert/live accept it', async () => {
    const kit = await h.api.sites.convertToStaging(123459);
    expect(kit).toMatchObject({ staging: true, sandbox: false, kit: false });
  });

  it('accepts kit: true without sandbox on create and clone (the documentation states no condition)', async () => {
    expect((await h.api.sites.create({ name: 'kit-alone', kit: true })).kit).toBe(true);
    expect((await h.api.sites.clone(123456, { name: 'kit-clone', kit: true })).kit).toBe(true);
    expect((await h.api.sites.create({ name: 'both-flags', staging: true, sandbox: true })).staging).toBe(true);
  });

  it('holds the billable limit', async () => {
    const state = h.sb.runtime.state;
    state.account.maxBillable = state.sites.filter((s) => !s.staging && !s.sandbox && !s.kit).length;
    expect(await status(h.api.sites.convertToLive(123457))).toBe(400);
    expect(await status(h.api.sites.create({ name: 'one-more' }))).toBe(400);
    expect((await h.api.sites.create({ name: 'one-more', sandbox: true })).sandbox).toBe(true);
  });
});

describe('clone', () => {
  it('gives a cloning site with clonedFromId that goes live later, with alerts', async () => {
    const clone = await h.api.sites.clone(123456, { name: 'ada-blog-copy', staging: true, datacenter_code: 'AMS' });
    expect(clone).toMatchObject({ state: 'cloning', clonedFromId: 123456, staging: true, datacenterCode: 'AMS' });
    const inProgress = h.sb.runtime.state.alerts.find((a) => a.site?.id === clone.id);
    expect(inProgress?.category).toBe('in_progress');
    h.sb.advance(DURATIONS.siteClone - 1);
    expect((await h.api.sites.get(clone.id)).state).toBe('cloning');
    h.sb.advance(1);
    expect((await h.api.sites.get(clone.id)).state).toBe('live');
    const cats = h.sb.runtime.state.alerts.filter((a) => a.site?.id === clone.id).map((a) => a.category);
    expect(cats).toEqual(['in_progress', 'completed']);
  });

  it('404 for an unknown source, 400 for a bad name', async () => {
    expect(await status(h.api.sites.clone(999999, { name: 'x-copy' }))).toBe(404);
    expect(await status(h.api.sites.clone(123456, { name: 'no' }))).toBe(400);
  });

  it('a clone of a deleted site never flips a re-created one', async () => {
    const clone = await h.api.sites.clone(123456, { name: 'gone-soon' });
    await h.api.sites.delete(clone.id);
    h.sb.advance(DURATIONS.siteClone);
    expect(await status(h.api.sites.get(clone.id))).toBe(404);
  });
});

describe('favorites', () => {
  it('adds and removes favorites, idempotently, and the list puts favorites first', async () => {
    expect(await h.api.sites.favorites.add(123460)).toBeNull();
    await h.api.sites.favorites.add(123460);
    let list = (await h.api.sites.list()).data;
    expect(list.filter((s) => s.favorite).map((s) => s.id)).toEqual([123456, 123460, 123461]);
    await h.api.sites.favorites.remove(123456);
    await h.api.sites.favorites.remove(123456);
    list = (await h.api.sites.list()).data;
    expect(list[0]?.id).toBe(123460);
    expect(await status(h.api.sites.favorites.add(999999))).toBe(404);
  });
});
