// Collaborators: real flows through @hosting-api/client (responses validated by its schemas),
// account-level access rules, scheduled batch add/remove on the virtual clock, and the
// collaborator's own view of their sites.
import { describe, expect, it } from 'vitest';
import { addToAllNewSite } from '../src/domain/areas/collaborators.js';
import { DURATIONS } from '../src/index.js';
import { errorEnvelope, status, useSandbox } from './helpers.js';
import { specProblems } from './spec-check.js';

const h = useSandbox();

const sitesOf = async (email: string) =>
  (await h.api.collaborators.list())
    .filter((c) => c.email === email)
    .map((c) => c.siteId)
    .sort();
const access = (email: string) =>
  h.sb.runtime.state.accountLevelAccess.find((a) => a.email === email) as Record<string, unknown> | undefined;

describe('collaborator entries', () => {
  it('lists every entry and reads one, with its site', async () => {
    const all = await h.call('GET', '/collaborators');
    expect(all.status).toBe(200);
    expect(specProblems('listCollaborators', all.status, all.body)).toEqual([]);
    expect(all.body.data.map((c: any) => c.id)).toEqual([98765, 98766, 98767]);
    expect(all.body.data[0]).not.toHaveProperty('favorite');

    const grace = await h.api.collaborators.get(98765);
    expect(grace).toMatchObject({ email: 'grace@example.com', siteId: 123456, siteName: 'ada-blog', state: 'active' });
    const site = await h.api.collaborators.getSite(98766);
    expect(site).toMatchObject({ id: 123457, name: 'shop-staging', collaboratorsCount: 1 });
    const raw = await h.call('GET', '/collaborators/98766/site');
    expect(specProblems('getCollaboratorSite', raw.status, raw.body)).toEqual([]);
  });

  it('answers 404 for unknown ids', async () => {
    const r = await h.call('GET', '/collaborators/1');
    expect(r.status).toBe(404);
    expect(errorEnvelope(r).message).toBe('We could not locate the requested resources.');
    expect(specProblems('getCollaborator', r.status, r.body)).toEqual([]);
    expect((await h.call('GET', '/collaborators/1/site')).status).toBe(404);
    expect((await h.call('GET', '/collaborators/abc')).status).toBe(404);
  });

  it('drops the entries of a deleted site', async () => {
    await h.api.sites.delete(123457);
    expect(await sitesOf('grace@example.com')).toEqual([123456]);
    expect((await h.call('GET', '/collaborators/98766')).status).toBe(404);
  });
});

describe('account-level access', () => {
  it('echoes email, add_to_all_new and create_site; omitted settings become false', async () => {
    const r = await h.call('PUT', '/collaborators/update-account-level-access', {
      email: 'grace@example.com',
      add_to_all_new: true,
      create_site: true,
      manage_tags: true,
      site_operation_notifications: true,
      roles: ['manage_notes', 'wp_access'],
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ email: 'grace@example.com', add_to_all_new: true, create_site: true });
    expect(specProblems('updateCollaboratorAccountLevelAccess', r.status, r.body)).toEqual([]);
    expect(access('grace@example.com')).toMatchObject({
      manage_tags: true,
      roles: ['manage_notes', 'wp_access'],
      hasAccess: true,
    });

    // A second update omits create_site and manage_tags: both become false.
    const again = await h.api.collaborators.updateAccountLevelAccess({
      email: 'grace@example.com',
      add_to_all_new: true,
    });
    expect(again).toEqual({ email: 'grace@example.com', add_to_all_new: true, create_site: false });
    expect(access('grace@example.com')).toMatchObject({
      manage_tags: false,
      site_operation_notifications: false,
      roles: [],
    });
  });

  it('leaves manage_sso unchanged when omitted and revokes it with false', async () => {
    await h.api.collaborators.updateAccountLevelAccess({
      email: 'grace@example.com',
      create_site: true,
      manage_sso: true,
    });
    expect(access('grace@example.com')?.manage_sso).toBe(true);
    await h.api.collaborators.updateAccountLevelAccess({ email: 'grace@example.com', create_site: true });
    expect(access('grace@example.com')?.manage_sso).toBe(true);
    await h.api.collaborators.updateAccountLevelAccess({
      email: 'grace@example.com',
      create_site: true,
      manage_sso: false,
    });
    expect(access('grace@example.com')?.manage_sso).toBe(false);
  });

  it('account_administrator grants create_site, manage_tags, manage_sso, view_usage and billing, but no notifications', async () => {
    const r = await h.api.collaborators.updateAccountLevelAccess({
      email: 'alan@example.com',
      account_administrator: true,
    });
    expect(r).toEqual({ email: 'alan@example.com', add_to_all_new: false, create_site: true });
    expect(access('alan@example.com')).toMatchObject({
      manage_tags: true,
      manage_sso: true,
      view_usage: true,
      manage_billing: true,
      delegate_email_notification_capabilities: true,
      account_notifications: false,
      site_operation_notifications: false,
      add_to_all_new: false,
      hasAccess: true,
    });
  });

  it('all six access settings false: account-level access is lost, site attachments remain', async () => {
    await h.api.collaborators.updateAccountLevelAccess({
      email: 'grace@example.com',
      create_site: true,
      manage_sso: true,
    });
    const r = await h.api.collaborators.updateAccountLevelAccess({
      email: 'grace@example.com',
      view_usage: true,
      manage_billing: true,
    });
    expect(r).toEqual({ email: 'grace@example.com', add_to_all_new: false, create_site: false });
    expect(access('grace@example.com')).toMatchObject({ hasAccess: false, manage_sso: false, view_usage: false });
    expect(await sitesOf('grace@example.com')).toEqual([123456, 123457]);
  });

  it('creates a collaborator account for a new email; it has no sites yet', async () => {
    await h.api.collaborators.updateAccountLevelAccess({ email: 'Katherine@Example.com', create_site: true });
    const sites = await h.api.collaborators.sites.list('katherine@example.com');
    expect(sites.data).toEqual({ name: 'katherine', email: 'katherine@example.com', sites: [] });
    expect(sites.page).toMatchObject({ totalItems: 0, currentPage: 1, nextPage: null });
  });

  it('ignores roles unless add_to_all_new, and adds add_to_all_new collaborators to new sites', async () => {
    await h.api.collaborators.updateAccountLevelAccess({
      email: 'alan@example.com',
      create_site: true,
      roles: ['wp_access'],
    });
    expect(access('alan@example.com')?.roles).toEqual([]);
    await h.api.collaborators.updateAccountLevelAccess({
      email: 'alan@example.com',
      add_to_all_new: true,
      roles: ['wp_access', 'sftp_access'],
    });
    const site = await h.api.sites.create({ name: 'new-shop' });
    // Site creation called the hook; calling it again only refreshes the roles (no duplicate).
    const state = h.sb.runtime.state;
    addToAllNewSite(state, state.sites.find((s) => s.id === site.id)!, h.sb.runtime.clock.nowIso());
    const entries = (await h.api.collaborators.list()).filter((c) => c.siteId === site.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      email: 'alan@example.com',
      name: 'Alan Turing',
      roles: ['wp_access', 'sftp_access'],
    });
    // Existing sites are untouched.
    expect(await sitesOf('alan@example.com')).toEqual([123456, site.id].sort());
  });

  it('site creation and cloning add the add_to_all_new collaborators, with their roles, at once', async () => {
    await h.api.collaborators.updateAccountLevelAccess({
      email: 'grace@example.com',
      add_to_all_new: true,
      roles: ['wp_access'],
    });
    const created = await h.api.sites.create({ name: 'auto-collab' });
    const cloned = await h.api.sites.clone(123456, { name: 'auto-collab-copy' });
    for (const id of [created.id, cloned.id]) {
      const entries = (await h.api.collaborators.list()).filter((c) => c.siteId === id);
      expect(entries.map((c) => [c.email, c.roles])).toEqual([['grace@example.com', ['wp_access']]]);
    }
    // Without add_to_all_new, new sites get nobody.
    await h.api.collaborators.updateAccountLevelAccess({
      email: 'grace@example.com',
      add_to_all_new: false,
      create_site: true,
    });
    const later = await h.api.sites.create({ name: 'auto-collab-none' });
    expect((await h.api.collaborators.list()).filter((c) => c.siteId === later.id)).toEqual([]);
  });

  it('is owner-only (403 without the owner scope) and validates its body', async () => {
    const denied = await status(
      h.limited.collaborators.updateAccountLevelAccess({ email: 'grace@example.com', create_site: true }),
    );
    expect(denied).toBe(403);
    const bad = await h.call('PUT', '/collaborators/update-account-level-access', { create_site: true });
    expect(bad.status).toBe(400);
    expect(errorEnvelope(bad).errors?.join(' ')).toContain('body.email');
    const role = await h.call('PUT', '/collaborators/update-account-level-access', {
      email: 'grace@example.com',
      add_to_all_new: true,
      roles: ['wp_access', 'root'],
    });
    expect(role.status).toBe(400);
    expect(role.body.errors[0]).toMatch(/^body\.roles\.1: unknown role root/);
    expect(specProblems('updateCollaboratorAccountLevelAccess', role.status, role.body)).toEqual([]);
    const owner = await h.call('PUT', '/collaborators/update-account-level-access', {
      email: 'ada@example.com',
      create_site: true,
    });
    expect(owner.status).toBe(400);
  });
});

describe('batch create and destroy', () => {
  it('schedules additions (202) that attach the collaborator once the work completes', async () => {
    const r = await h.call('POST', '/collaborators/batch_create', {
      email: 'katherine@example.com',
      siteIds: [123457, 123458, 123458],
      roles: ['manage_notes', 'wp_access'],
    });
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ message: 'Collaborator creation scheduled for 2 sites', data: null, errors: null });
    expect(specProblems('batchCreateCollaborators', r.status, r.body)).toEqual([]);
    expect(await sitesOf('katherine@example.com')).toEqual([]);

    h.sb.advance(DURATIONS.collaboratorBatch);
    const added = (await h.api.collaborators.list()).filter((c) => c.email === 'katherine@example.com');
    expect(added.map((c) => c.siteId)).toEqual([123457, 123458]);
    expect(added[0]).toMatchObject({
      state: 'active',
      name: 'katherine',
      wpUsername: 'katherine',
      roles: ['manage_notes', 'wp_access'],
      siteName: 'shop-staging',
    });
    expect((await h.api.sites.get(123458)).collaborators.map((c) => c.email)).toEqual(['katherine@example.com']);
    expect((await h.api.sites.get(123457)).collaboratorsCount).toBe(2);
  });

  it('-1 means all sites; existing entries get the new roles, others are created', async () => {
    const { message, response } = await h.api.collaborators.batchCreate(
      { email: 'grace@example.com', siteIds: [-1], roles: ['wp_access'] },
      { raw: true },
    );
    expect(response.status).toBe(202);
    expect(message).toBe('Collaborator creation scheduled for 6 sites');
    h.sb.advance(DURATIONS.collaboratorBatch);
    const grace = (await h.api.collaborators.list()).filter((c) => c.email === 'grace@example.com');
    expect(grace.map((c) => c.siteId)).toEqual([123456, 123457, 123458, 123459, 123460, 123461]);
    expect(grace.every((c) => c.roles.join() === 'wp_access' && c.name === 'Grace Hopper')).toBe(true);
    expect(grace[0]?.id).toBe(98765);
  });

  it('without roles keeps the roles of existing entries', async () => {
    await h.api.collaborators.batchCreate({ email: 'grace@example.com', siteIds: [123456] });
    h.sb.advance(DURATIONS.collaboratorBatch);
    expect((await h.api.collaborators.get(98765)).roles).toEqual([
      'manage_notes',
      'manage_backups_restores',
      'wp_access',
    ]);
  });

  it('skips sites deleted before the work runs', async () => {
    await h.api.collaborators.batchCreate({ email: 'katherine@example.com', siteIds: [123457, 123458], roles: [] });
    await h.api.sites.delete(123458);
    h.sb.advance(DURATIONS.collaboratorBatch);
    expect(await sitesOf('katherine@example.com')).toEqual([123457]);
  });

  it('refuses unknown sites, unknown roles, the owner and bad emails', async () => {
    const unknown = await h.call('POST', '/collaborators/batch_create', {
      email: 'k@example.com',
      siteIds: [123456, 999],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toMatch(/^body\.siteIds\.1:/);
    expect(specProblems('batchCreateCollaborators', unknown.status, unknown.body)).toEqual([]);
    expect(
      (
        await h.call('POST', '/collaborators/batch_create', {
          email: 'k@example.com',
          siteIds: [123456],
          roles: ['nope'],
        })
      ).status,
    ).toBe(400);
    expect(
      (await h.call('POST', '/collaborators/batch_create', { email: 'ada@example.com', siteIds: [123456] })).status,
    ).toBe(400);
    const bad = await h.call('POST', '/collaborators/batch_create', { email: 'not-an-email', siteIds: [123456] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.join(' ')).toContain('body.email');
    const missing = await h.call('POST', '/collaborators/batch_create', { email: 'k@example.com' });
    expect(missing.body.errors.join(' ')).toContain('body.siteIds');
    expect(h.sb.runtime.clock.pending()).toHaveLength(0);
  });

  it('schedules removals (200) that detach the collaborator once the work completes', async () => {
    const r = await h.call('POST', '/collaborators/batch_destroy', {
      email: 'grace@example.com',
      siteIds: [123456, 123457],
      delete_wp_user: true,
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: 'Collaborator removal scheduled for 2 sites', data: null, errors: null });
    expect(specProblems('batchDestroyCollaborators', r.status, r.body)).toEqual([]);
    expect(await sitesOf('grace@example.com')).toEqual([123456, 123457]);
    h.sb.advance(DURATIONS.collaboratorBatch);
    expect(await sitesOf('grace@example.com')).toEqual([]);
    expect(await sitesOf('alan@example.com')).toEqual([123456]);
    expect((await h.api.sites.get(123456)).collaboratorsCount).toBe(1);
  });

  it('-1 removes from all sites; work runs in the order it was scheduled', async () => {
    await h.api.collaborators.batchCreate({ email: 'katherine@example.com', siteIds: [123458], roles: ['wp_access'] });
    const { message } = await h.api.collaborators.batchDestroy(
      { email: 'katherine@example.com', siteIds: [-1] },
      { raw: true },
    );
    expect(message).toBe('Collaborator removal scheduled for 6 sites');
    h.sb.advance(DURATIONS.collaboratorBatch);
    expect(await sitesOf('katherine@example.com')).toEqual([]);
    // Removal of a collaborator who is on no site changes nothing.
    await h.api.collaborators.batchDestroy({ email: 'nobody@example.com', siteIds: [123456] });
    h.sb.advance(DURATIONS.collaboratorBatch);
    expect(await h.api.collaborators.list()).toHaveLength(3);
    expect(
      (await h.call('POST', '/collaborators/batch_destroy', { email: 'grace@example.com', siteIds: [42] })).status,
    ).toBe(400);
  });
});

describe("the collaborator's own view of their sites", () => {
  it('lists their sites with their own favorite flag and tags, paged', async () => {
    const r = await h.call('GET', '/collaborators/grace%40example.com/sites');
    expect(r.status).toBe(200);
    expect(specProblems('listCollaboratorSites', r.status, r.body)).toEqual([]);
    expect(r.body.data).toMatchObject({ name: 'Grace Hopper', email: 'grace@example.com' });
    const [blog, shop] = r.body.data.sites;
    expect(blog).toMatchObject({ id: 123456, favorite: true, tags: [] });
    expect(blog.ipAddresses).toHaveLength(2);
    expect(blog).not.toHaveProperty('ipAddress');
    // The account's own tag on 123456 is client-a; grace's tag on 123457 is shops (the account has none).
    expect(shop).toMatchObject({ id: 123457, favorite: false, tags: [{ id: 21, name: 'shops' }] });
    expect(r.body.page).toEqual({ currentPage: 1, nextPage: null, lastPage: 1, perPage: 20, totalItems: 2 });

    const page2 = await h.api.collaborators.sites.list('grace@example.com', { per_page: 1, page: 2 });
    expect(page2.data.sites.map((s) => s.id)).toEqual([123457]);
    expect(page2.page).toMatchObject({ currentPage: 2, nextPage: null, lastPage: 2, totalItems: 2 });
    const tagged = await h.api.collaborators.sites.list('grace@example.com', { tag_name: 'shops' });
    expect(tagged.data.sites.map((s) => s.id)).toEqual([123457]);
    expect((await h.api.collaborators.sites.list('grace@example.com', { tag_name: 'client-a' })).data.sites).toEqual(
      [],
    );
  });

  it('answers 404 for unknown collaborators, sites and sites they are not on', async () => {
    expect((await h.call('GET', '/collaborators/nobody%40example.com/sites')).status).toBe(404);
    expect((await h.call('GET', '/collaborators/not-an-email/sites')).status).toBe(404);
    const off = await h.call('GET', '/collaborators/grace%40example.com/sites/123458');
    expect(off.status).toBe(404);
    expect(specProblems('getCollaboratorSiteByEmail', off.status, off.body)).toEqual([]);
    expect((await h.call('GET', '/collaborators/grace%40example.com/sites/1')).status).toBe(404);
    expect((await h.call('POST', '/collaborators/grace%40example.com/sites/123458/favorite')).status).toBe(404);
    expect((await h.call('GET', '/collaborators/grace%40example.com/sites?per_page=0')).status).toBe(400);
  });

  it('favorites and unfavorites a site for the collaborator only', async () => {
    const one = await h.api.collaborators.sites.get('grace@example.com', 123457);
    expect(one).toMatchObject({ name: 'Grace Hopper', email: 'grace@example.com' });
    expect(one.sites).toHaveLength(1);
    expect(one.sites[0]?.favorite).toBe(false);

    const fav = await h.call('POST', '/collaborators/grace%40example.com/sites/123457/favorite');
    expect(fav.status).toBe(200);
    expect(specProblems('favoriteCollaboratorSite', fav.status, fav.body)).toEqual([]);
    expect(fav.body.data.sites[0]).toMatchObject({ id: 123457, favorite: true });
    expect((await h.api.sites.get(123457)).favorite).toBe(false);
    // Favorites come first in the collaborator's list; repeating is harmless.
    await h.api.collaborators.sites.favorite('grace@example.com', 123457);
    await h.api.collaborators.sites.unfavorite('grace@example.com', 123456);
    const list = await h.api.collaborators.sites.list('grace@example.com');
    expect(list.data.sites.map((s) => [s.id, s.favorite])).toEqual([
      [123457, true],
      [123456, false],
    ]);
    expect((await h.api.sites.get(123456)).favorite).toBe(true);

    const unfav = await h.call('DELETE', '/collaborators/grace%40example.com/sites/123457/favorite');
    expect(specProblems('deleteCollaboratorSiteFavorite', unfav.status, unfav.body)).toEqual([]);
    expect(unfav.body.data.sites[0].favorite).toBe(false);
  });
});
