// Site operations: the toggles, maintenance mode (set / reverse, queued), basic authentication
// (queued, webhook, refused on sandbox sites), multisite (high-traffic plan), file-modification
// constants, PHP filesystem permissions and the CMS helpers, through @hosting-api/client.
import { describe, expect, it } from 'vitest';
import { BASIC_AUTH_EVENT } from '../src/domain/areas/site-operations.js';
import { CMS_VERSION_BETA, CMS_VERSION_STABLE } from '../src/domain/model/sites.js';
import { DURATIONS } from '../src/index.js';
import { errorEnvelope, status, useSandbox } from './helpers.js';
import { specProblems } from './spec-check.js';

const h = useSandbox();

const rawSite = (id: number) => h.sb.runtime.state.sites.find((s) => s.id === id)!;
const alertsOf = (siteId: number) => h.sb.runtime.state.alerts.filter((a) => a.site?.id === siteId);
const actions = async () =>
  (
    await h.api.account.activity.list({ filters: [{ field: 'action', operator: 'contains', value: 'site.' }] })
  ).data.map((e) => e.name);

describe('maintenance mode', () => {
  it('moves to the given state after the queued change completes; repeating it is a no-op', async () => {
    expect(await h.api.sites.maintenanceMode.update(123456, { enabled: true })).toBeNull();
    let site = await h.api.sites.get(123456);
    expect(site).toMatchObject({ maintenanceMode: false, maintenanceModeStatus: 'enabling' });
    // Repeat while queued: nothing new is queued.
    await h.api.sites.maintenanceMode.update(123456, { enabled: true });
    expect(h.sb.runtime.clock.pending().filter((t) => t.label.includes('maintenance'))).toHaveLength(1);

    h.sb.advance(DURATIONS.queuedToggle);
    site = await h.api.sites.get(123456);
    expect(site.maintenanceMode).toBe(true);
    expect(site.maintenanceModeStatus).toBeUndefined();
    expect(alertsOf(123456).map((a) => a.type)).toContain('site.maintenance_mode_enabled');

    // Repeat after completion: a no-op, nothing queued.
    await h.api.sites.maintenanceMode.update(123456, { enabled: true });
    expect((await h.api.sites.get(123456)).maintenanceModeStatus).toBeUndefined();
    expect(h.sb.runtime.clock.pending()).toHaveLength(0);
    expect((await h.api.sites.list()).data.find((s) => s.id === 123456)?.maintenanceMode).toBe(true);
  });

  it('reverses the current state when enabled is omitted (with or without a body)', async () => {
    const r = await h.call('PUT', '/sites/123457/maintenance-mode');
    expect(r.status).toBe(200);
    expect(specProblems('updateSiteMaintenanceMode', r.status, r.body)).toEqual([]);
    expect((await h.api.sites.get(123457)).maintenanceModeStatus).toBe('enabling');
    h.sb.advance(DURATIONS.queuedToggle);
    expect((await h.api.sites.get(123457)).maintenanceMode).toBe(true);

    await h.api.sites.maintenanceMode.update(123457, {});
    expect((await h.api.sites.get(123457)).maintenanceModeStatus).toBe('disabling');
    h.sb.advance(DURATIONS.queuedToggle);
    const site = await h.api.sites.get(123457);
    expect(site.maintenanceMode).toBe(false);
    expect(site.maintenanceModeStatus).toBeUndefined();
  });

  it('a reversal while a change is queued withdraws it', async () => {
    await h.api.sites.maintenanceMode.update(123456);
    expect((await h.api.sites.get(123456)).maintenanceModeStatus).toBe('enabling');
    h.sb.advance(DURATIONS.queuedToggle - 1000);
    await h.api.sites.maintenanceMode.update(123456, { enabled: false });
    let site = await h.api.sites.get(123456);
    expect(site.maintenanceMode).toBe(false);
    expect(site.maintenanceModeStatus).toBeUndefined();
    // Queue again: it completes a full duration after this request, not after the withdrawn one.
    await h.api.sites.maintenanceMode.update(123456);
    h.sb.advance(1000);
    expect((await h.api.sites.get(123456)).maintenanceModeStatus).toBe('enabling');
    h.sb.advance(DURATIONS.queuedToggle);
    site = await h.api.sites.get(123456);
    expect(site.maintenanceMode).toBe(true);
    expect(alertsOf(123456).filter((a) => a.type === 'site.maintenance_mode_enabled')).toHaveLength(1);
  });

  it('serialises concurrent reversals: an odd number leaves one change queued', async () => {
    const replies = await Promise.all(
      Array.from({ length: 5 }, () => h.call('PUT', '/sites/123456/maintenance-mode', {})),
    );
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(rawSite(123456).maintenanceModeStatus).toBe('enabling');
    expect(h.sb.runtime.clock.pending().filter((t) => t.label.includes('maintenance'))).toHaveLength(1);
    h.sb.advance(DURATIONS.queuedToggle);
    expect(rawSite(123456).maintenanceMode).toBe(true);
  });

  it('rejects a non-boolean enabled, naming the field, and answers 404 for an unknown site', async () => {
    const r = await h.call('PUT', '/sites/123456/maintenance-mode', { enabled: 'yes' });
    expect(r.status).toBe(400);
    expect(errorEnvelope(r).errors?.[0]).toMatch(/^body\.enabled/);
    expect(specProblems('updateSiteMaintenanceMode', r.status, r.body)).toEqual([]);
    expect(await status(h.api.sites.maintenanceMode.update(999999, { enabled: true }))).toBe(404);
  });
});

describe('basic authentication', () => {
  it('queues the toggle, applies it later and reports it by webhook', async () => {
    expect(await h.api.sites.basicAuthentication.toggle(123456)).toBeNull();
    expect(rawSite(123456)).toMatchObject({ basicAuthentication: false, basicAuthenticationPending: true });
    expect(h.sb.runtime.webhooks).toHaveLength(0);
    h.sb.advance(DURATIONS.queuedToggle);
    expect(rawSite(123456).basicAuthentication).toBe(true);
    expect(rawSite(123456).basicAuthenticationPending).toBeUndefined();
    expect(h.sb.runtime.webhooks.map((w) => [w.event, w.payload])).toEqual([
      [BASIC_AUTH_EVENT, expect.objectContaining({ site_id: 123456, basic_authentication: { enabled: true } })],
    ]);
    // The next call reverses it.
    await h.api.sites.basicAuthentication.toggle(123456);
    h.sb.advance(DURATIONS.queuedToggle);
    expect(rawSite(123456).basicAuthentication).toBe(false);
    expect(h.sb.runtime.webhooks).toHaveLength(2);
    // The site views do not leak the internal fields.
    expect(Object.keys(await h.api.sites.get(123456))).not.toContain('basicAuthentication');
  });

  it('a second toggle while queued withdraws the change (no webhook)', async () => {
    await h.api.sites.basicAuthentication.toggle(123461);
    await h.api.sites.basicAuthentication.toggle(123461);
    h.sb.advance(DURATIONS.queuedToggle);
    expect(rawSite(123461).basicAuthentication).toBe(false);
    expect(h.sb.runtime.webhooks).toHaveLength(0);
  });

  it('is refused on sandbox sites (and kits) with 400', async () => {
    for (const id of [123458, 123459]) {
      const r = await h.call('PUT', `/sites/${id}/basic-authentication`);
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('There was a problem processing your request.');
      expect(specProblems('toggleSiteBasicAuthentication', r.status, r.body)).toEqual([]);
    }
    expect(rawSite(123458).basicAuthenticationPending).toBeUndefined();
    expect(await status(h.api.sites.basicAuthentication.toggle(999999))).toBe(404);
  });
});

describe('toggles', () => {
  it('multisite support flips with a high-traffic plan and is refused without one', async () => {
    const on = await h.api.sites.multisiteSupport.toggle(123456);
    expect(on).toMatchObject({ id: 123456, multisiteSupport: true });
    expect((await h.api.sites.multisiteSupport.toggle(123456)).multisiteSupport).toBe(false);

    h.sb.runtime.state.account.highTrafficPlan = false;
    const r = await h.call('PUT', '/sites/123456/multisite-support');
    expect(r.status).toBe(400);
    expect(errorEnvelope(r).errors).toEqual(['Multisite support requires a high-traffic plan.']);
    expect(specProblems('toggleSiteMultisiteSupport', r.status, r.body)).toEqual([]);
    expect(rawSite(123456).multisiteSupport).toBe(false);
  });

  it('light 404 flips each call and shows on the site', async () => {
    expect(rawSite(123456).lightWeight404).toBe(true);
    expect(await h.api.sites.lightWeight404.toggle(123456)).toEqual({ lightWeight404Enabled: false });
    expect((await h.api.sites.get(123456)).lightWeight404).toBe(false);
    expect(await h.api.sites.lightWeight404.toggle(123456)).toEqual({ lightWeight404Enabled: true });
    expect(await status(h.api.sites.lightWeight404.toggle(999999))).toBe(404);
  });

  it('the MCP plugin alternates with its messages and reports completion by alert', async () => {
    const first = await h.api.sites.cmsMcp.toggle(123456, { raw: true });
    expect(first.message).toBe('MCP plugin enabled');
    expect(first.data).toEqual({ mcp_enabled: true });
    const second = await h.api.sites.cmsMcp.toggle(123456, { raw: true });
    expect(second.message).toBe('MCP plugin disabled');
    expect(second.data).toEqual({ mcp_enabled: false });
    const third = await h.call('PUT', '/sites/123456/cms-mcp');
    expect(third.body).toMatchObject({ message: 'MCP plugin enabled', data: { mcp_enabled: true } });
    expect(specProblems('toggleSiteCmsMcp', third.status, third.body)).toEqual([]);
    h.sb.advance(DURATIONS.queuedToggle);
    // Only the last requested state completes.
    expect(
      alertsOf(123456)
        .filter((a) => a.type.startsWith('site.cms_mcp'))
        .map((a) => a.type),
    ).toEqual(['site.cms_mcp_enabled']);
  });
});

describe('file modifications and PHP filesystem permissions', () => {
  it('defines and removes the constants idempotently', async () => {
    expect(await h.api.sites.fileModifications.get(123456)).toEqual({
      disallow_file_edit: false,
      disallow_file_mods: false,
    });
    const r = await h.api.sites.fileModifications.update(
      123456,
      { constant: 'DISALLOW_FILE_EDIT', enabled: true },
      { raw: true },
    );
    expect(r.message).toBe('DISALLOW_FILE_EDIT enabled');
    expect(r.data).toEqual({ disallow_file_edit: true, disallow_file_mods: false });
    // Again: same result.
    expect(
      await h.api.sites.fileModifications.update(123456, { constant: 'DISALLOW_FILE_EDIT', enabled: true }),
    ).toEqual({
      disallow_file_edit: true,
      disallow_file_mods: false,
    });
    // Removing an absent constant succeeds.
    const off = await h.api.sites.fileModifications.update(
      123456,
      { constant: 'DISALLOW_FILE_MODS', enabled: false },
      { raw: true },
    );
    expect(off.message).toBe('DISALLOW_FILE_MODS disabled');
    expect(off.data).toEqual({ disallow_file_edit: true, disallow_file_mods: false });
    expect(await h.api.sites.fileModifications.get(123456)).toEqual({
      disallow_file_edit: true,
      disallow_file_mods: false,
    });
    expect(await h.api.sites.fileModifications.get(123457)).toEqual({
      disallow_file_edit: false,
      disallow_file_mods: false,
    });

    const bad = await h.call('PUT', '/sites/123456/file-modifications', { constant: 'WP_DEBUG', enabled: true });
    expect(bad.status).toBe(400);
    expect(errorEnvelope(bad).errors?.[0]).toEqual('constant must be DISALLOW_FILE_EDIT or DISALLOW_FILE_MODS');
    expect(await status(h.api.sites.fileModifications.get(999999))).toBe(404);
  });

  it('sets rw, ro or loggedin and rejects anything else with an error listing the three', async () => {
    const ok = await h.call('PUT', '/sites/123456/php_fs_permissions', { php_fs_permission: 'ro' });
    expect(ok.status).toBe(200);
    expect(specProblems('updateSitePhpFsPermissions', ok.status, ok.body)).toEqual([]);
    expect(rawSite(123456).phpFsPermission).toBe('ro');
    await h.api.sites.phpFsPermissions.update(123456, { php_fs_permission: 'loggedin' });
    expect(rawSite(123456).phpFsPermission).toBe('loggedin');

    const bad = await h.call('PUT', '/sites/123456/php_fs_permissions', { php_fs_permission: 'rwx' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('There was a problem processing your request.');
    // The seed's own wording (part 7), produced by the core for every enum field.
    expect(errorEnvelope(bad).errors).toEqual(['php_fs_permission must be rw, ro, or loggedin']);
    expect(specProblems('updateSitePhpFsPermissions', bad.status, bad.body)).toEqual([]);
    expect(rawSite(123456).phpFsPermission).toBe('loggedin');
  });
});

describe('CMS helpers and the rest', () => {
  it('toggles the CMS version between latest stable and beta, and moves to latest', async () => {
    expect(rawSite(123456).cmsVersion).toBe(CMS_VERSION_STABLE);
    expect((await h.api.sites.cms.updateVersion(123456)).cmsVersion).toBe(CMS_VERSION_BETA);
    expect((await h.api.sites.cms.updateVersion(123456, {})).cmsVersion).toBe(CMS_VERSION_STABLE);
    await h.api.sites.cms.updateVersion(123456);
    expect((await h.api.sites.cms.updateVersion(123456, { version: 'latest' })).cmsVersion).toBe(CMS_VERSION_STABLE);
    // latest is idempotent.
    expect((await h.api.sites.cms.updateVersion(123456, { version: 'latest' })).cmsVersion).toBe(CMS_VERSION_STABLE);
    const bad = await h.call('PUT', '/sites/123456/cms/version', { version: '4.0' });
    expect(bad.status).toBe(400);
    expect(errorEnvelope(bad).errors?.[0]).toMatch(/^body\.version/);
    expect(specProblems('updateSiteCmsVersion', bad.status, bad.body)).toEqual([]);
  });

  it('resets the CMS password to a new random value each time', async () => {
    const a = await h.api.sites.cms.resetPassword(123456);
    const b = await h.api.sites.cms.resetPassword(123456);
    expect(a).toMatch(/^.{16}$/);
    expect(a).not.toBe(b);
  });

  it('issues database-admin and single-use login URLs', async () => {
    const url = await h.api.sites.cms.getDbAdminUrl(123456);
    expect(new URL(url).searchParams.get('site')).toBe('123456');
    expect(await h.api.sites.cms.getDbAdminUrl(123456)).not.toBe(url);

    const owner = await h.api.sites.singleUseLogin.create(123456, {
      email: 'ada@example.com',
      user_agent: 'Mozilla/5.0',
    });
    expect(owner.url).toMatch(/^https:\/\/ada-blog\.example\.com\/single-use-login\/\?token=[0-9a-f]{32}$/);
    // A collaborator of the site is a CMS user too; of another site, not.
    await h.api.sites.singleUseLogin.create(123456, { email: 'alan@example.com', user_agent: 'Mozilla/5.0' });
    const other = await h.call('POST', '/sites/123457/single_use_login', {
      email: 'alan@example.com',
      user_agent: 'x',
    });
    expect(other.status).toBe(400);
    expect(specProblems('createSiteSingleUseLogin', other.status, other.body)).toEqual([]);
    const invalid = await h.call('POST', '/sites/123456/single_use_login', { email: 'not-an-email', user_agent: 'x' });
    expect(errorEnvelope(invalid).errors?.[0]).toMatch(/^body\.email/);
    expect(await status(h.api.sites.singleUseLogin.create(999999, { email: 'ada@example.com', user_agent: 'x' }))).toBe(
      404,
    );
  });

  it('flushes the object cache, disconnects SSH and reads the edge cache status', async () => {
    expect(await h.api.sites.objectCache.flush(123456)).toBeNull();
    expect(await h.api.sites.ssh.disconnect(123456)).toBeNull();
    const edge = await h.call('GET', '/sites/123456/edge-cache');
    expect(edge.status).toBe(200);
    expect(specProblems('getSiteEdgeCacheStatus', edge.status, edge.body)).toEqual([]);
    for (const [method, path] of [
      ['GET', '/sites/999999/edge-cache'],
      ['DELETE', '/sites/999999/object-cache'],
      ['GET', '/sites/999999/disconnect-ssh'],
      ['PUT', '/sites/999999/cms/password-reset'],
      ['GET', '/sites/999999/cms/db-admin-url'],
      ['PUT', '/sites/999999/cms-mcp'],
      ['PUT', '/sites/999999/multisite-support'],
    ] as const) {
      expect((await h.call(method, path)).status, path).toBe(404);
    }
  });

  it('writes activity entries with source api.v1', async () => {
    await h.api.sites.objectCache.flush(123457);
    await h.api.sites.ssh.disconnect(123457);
    await h.api.sites.lightWeight404.toggle(123457);
    await h.api.sites.maintenanceMode.update(123457, { enabled: true });
    const names = await actions();
    expect(names.slice(0, 4)).toEqual([
      'site.maintenance_mode_updated',
      'site.light_weight_404_updated',
      'site.ssh_disconnected',
      'site.object_cache_flushed',
    ]);
    const log = await h.api.account.activity.list({
      filters: [{ field: 'action', operator: 'equals', value: 'site.ssh_disconnected' }],
    });
    expect(log.data[0]).toMatchObject({ source: 'api.v1' });
  });
});
