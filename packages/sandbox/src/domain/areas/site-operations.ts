// Site operations: edge-cache status, object-cache flush, the light 404 / multisite / basic-auth /
// MCP toggles, maintenance mode (set or reverse, queued with `maintenanceModeStatus`),
// file-modification constants, PHP filesystem permissions, SSH disconnect, CMS password reset,
// database-admin URL, CMS version (set or toggle stable/beta) and single-use login URLs.
// Queued changes (maintenance mode, basic authentication, MCP) complete after
// DURATIONS.queuedToggle of virtual time; basic authentication is also reported by webhook (part 6).
import { randomHex, randomInt } from '../../platform.js';
import { defineArea } from '../area.js';
import { badRequest } from '../errors.js';
import { CMS_VERSION_BETA, CMS_VERSION_STABLE, siteView } from '../model/sites.js';
import { DURATIONS, type SandboxRuntime } from '../runtime.js';
import type { SiteRecord } from '../state.js';

/** Webhook event of a completed basic-authentication change (the seed does not name it). */
export const BASIC_AUTH_EVENT = 'basic_authentication_updated';

const label = {
  maintenance: (id: number) => `site ${id} maintenance mode`,
  basicAuth: (id: number) => `site ${id} basic authentication`,
  mcp: (id: number) => `site ${id} cms mcp`,
};

/** Drops queued work with that label (a later request withdrew it). */
function cancelQueued(rt: SandboxRuntime, taskLabel: string) {
  for (const task of rt.clock.pending().filter((t) => t.label === taskLabel)) rt.clock.cancel(task.id);
}

const findSite = (rt: SandboxRuntime, id: number) => rt.state.sites.find((s) => s.id === id);
const onOff = (on: boolean) => (on ? 'enabled' : 'disabled');

/** The state maintenance mode is in, or is heading to while a change is queued. */
const maintenanceTarget = (site: SiteRecord) =>
  site.maintenanceModeStatus ? site.maintenanceModeStatus === 'enabling' : site.maintenanceMode;

function queueMaintenance(rt: SandboxRuntime, siteId: number, enabled: boolean) {
  const status = enabled ? 'enabling' : 'disabling';
  rt.later(DURATIONS.queuedToggle, label.maintenance(siteId), () => {
    const site = findSite(rt, siteId);
    if (!site || site.maintenanceModeStatus !== status) return;
    site.maintenanceMode = enabled;
    delete site.maintenanceModeStatus;
    rt.publishAlert({
      type: enabled ? 'site.maintenance_mode_enabled' : 'site.maintenance_mode_disabled',
      category: 'completed',
      title: enabled ? 'Maintenance mode enabled' : 'Maintenance mode disabled',
      message: `Maintenance mode is now ${onOff(enabled)} on ${site.name}.`,
      icon: 'maintenance',
      siteId: site.id,
    });
  });
}

function queueBasicAuth(rt: SandboxRuntime, siteId: number) {
  rt.later(DURATIONS.queuedToggle, label.basicAuth(siteId), () => {
    const site = findSite(rt, siteId);
    if (!site?.basicAuthenticationPending) return;
    site.basicAuthentication = !site.basicAuthentication;
    delete site.basicAuthenticationPending;
    const enabled = site.basicAuthentication;
    rt.publishAlert({
      type: enabled ? 'site.basic_authentication_enabled' : 'site.basic_authentication_disabled',
      category: 'completed',
      title: enabled ? 'Basic authentication enabled' : 'Basic authentication disabled',
      message: `Basic authentication is now ${onOff(enabled)} on ${site.name}.`,
      icon: 'security',
      siteId: site.id,
    });
    rt.emitWebhook(BASIC_AUTH_EVENT, {
      site_id: site.id,
      basic_authentication: { enabled },
      timestamp: rt.clock.nowIso(),
    });
  });
}

const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789!#$%*+-=?@';
const randomPassword = (length = 16) =>
  Array.from({ length }, () => PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)]).join('');
const randomToken = () => randomHex(16);

export default defineArea({
  getSiteEdgeCacheStatus: (ctx) => {
    ctx.site(ctx.params.site_id);
    // The record's fields are not documented (part 2 gaps): an empty record, as the spec's example.
    return { data: {} };
  },

  deleteSiteObjectCache: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    ctx.activity(
      'site.object_cache_flushed',
      'Object cache flushed',
      `The object cache of ${site.name} was flushed.`,
      site.id,
    );
    return { data: null };
  },

  toggleSiteLightWeight404: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    site.lightWeight404 = !site.lightWeight404;
    ctx.activity(
      'site.light_weight_404_updated',
      'Light 404 changed',
      `Light 404 responses were ${onOff(site.lightWeight404)} on ${site.name}.`,
      site.id,
    );
    return { data: { lightWeight404Enabled: site.lightWeight404 } };
  },

  toggleSiteMultisiteSupport: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    if (!ctx.state.account.highTrafficPlan) {
      throw badRequest('Multisite support requires a high-traffic plan.');
    }
    site.multisiteSupport = !site.multisiteSupport;
    ctx.activity(
      'site.multisite_support_updated',
      'Multisite support changed',
      `Multisite support was ${onOff(site.multisiteSupport)} on ${site.name}.`,
      site.id,
    );
    return { data: siteView(ctx.state, site) };
  },

  updateSiteMaintenanceMode: (ctx) => {
    const { rt } = ctx;
    const site = ctx.site(ctx.params.site_id);
    const heading = maintenanceTarget(site);
    const wanted = ctx.body?.enabled ?? !heading;
    // `enabled` sent and already the state (or the queued state): a no-op (part 3).
    if (wanted === heading) return { data: null };
    cancelQueued(rt, label.maintenance(site.id));
    if (wanted === site.maintenanceMode) {
      // Reverses a change that is still queued: the queued change is withdrawn.
      delete site.maintenanceModeStatus;
    } else {
      site.maintenanceModeStatus = wanted ? 'enabling' : 'disabling';
      queueMaintenance(rt, site.id, wanted);
    }
    ctx.activity(
      'site.maintenance_mode_updated',
      'Maintenance mode changed',
      `Maintenance mode was set to ${onOff(wanted)} on ${site.name}.`,
      site.id,
    );
    return { data: null };
  },

  toggleSiteBasicAuthentication: (ctx) => {
    const { rt } = ctx;
    const site = ctx.site(ctx.params.site_id);
    if (site.sandbox) throw badRequest('Basic authentication is not available on sandbox sites.');
    cancelQueued(rt, label.basicAuth(site.id));
    // Each call reverses the state the site is heading to; reversing a queued change withdraws it.
    const wanted = site.basicAuthenticationPending ? site.basicAuthentication : !site.basicAuthentication;
    if (site.basicAuthenticationPending) {
      delete site.basicAuthenticationPending;
    } else {
      site.basicAuthenticationPending = true;
      queueBasicAuth(rt, site.id);
    }
    ctx.activity(
      'site.basic_authentication_updated',
      'Basic authentication changed',
      `Basic authentication was set to ${onOff(wanted)} on ${site.name}.`,
      site.id,
    );
    return { data: null };
  },

  toggleSiteCmsMcp: (ctx) => {
    const { rt } = ctx;
    const site = ctx.site(ctx.params.site_id);
    // Calls alternate: the reported state is the one just requested; the plugin change itself
    // is applied later (an alert reports it). A newer toggle replaces a queued one.
    site.cmsMcpEnabled = !site.cmsMcpEnabled;
    const enabled = site.cmsMcpEnabled;
    cancelQueued(rt, label.mcp(site.id));
    rt.later(DURATIONS.queuedToggle, label.mcp(site.id), () => {
      const s = findSite(rt, site.id);
      if (!s || s.cmsMcpEnabled !== enabled) return;
      rt.publishAlert({
        type: enabled ? 'site.cms_mcp_enabled' : 'site.cms_mcp_disabled',
        category: 'completed',
        title: enabled ? 'MCP plugin enabled' : 'MCP plugin disabled',
        message: `The MCP plugin is now ${onOff(enabled)} on ${s.name}.`,
        icon: 'plugin',
        siteId: s.id,
      });
    });
    ctx.activity(
      'site.cms_mcp_updated',
      'MCP plugin changed',
      `The MCP plugin was ${onOff(enabled)} on ${site.name}.`,
      site.id,
    );
    return { data: { mcp_enabled: enabled }, message: enabled ? 'MCP plugin enabled' : 'MCP plugin disabled' };
  },

  getSiteFileModifications: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    return { data: { ...site.fileModifications } };
  },

  updateSiteFileModifications: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    const { constant, enabled } = ctx.body;
    const key = constant === 'DISALLOW_FILE_EDIT' ? 'disallow_file_edit' : 'disallow_file_mods';
    // true defines the constant, false removes it (removing an absent one succeeds): idempotent.
    site.fileModifications[key] = enabled;
    const message = `${constant} ${onOff(enabled)}`;
    ctx.activity(
      'site.file_modifications_updated',
      'File modifications changed',
      `${message} on ${site.name}.`,
      site.id,
    );
    return { data: { ...site.fileModifications }, message };
  },

  updateSitePhpFsPermissions: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    // The schema's enum already refused other values, with the seed's text
    // (`php_fs_permission must be rw, ro, or loggedin`, see validation.ts).
    const value = ctx.body.php_fs_permission;
    site.phpFsPermission = value;
    ctx.activity(
      'site.php_fs_permissions_updated',
      'PHP filesystem permission changed',
      `The PHP filesystem permission of ${site.name} was set to ${value}.`,
      site.id,
    );
    return { data: null };
  },

  getSiteDisconnectSsh: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    ctx.activity(
      'site.ssh_disconnected',
      'SSH disconnected',
      `All SSH connections to ${site.name} were terminated.`,
      site.id,
    );
    return { data: null };
  },

  resetSiteCmsPassword: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    ctx.activity(
      'site.cms_password_reset',
      'CMS password reset',
      `The CMS admin password of ${site.name} was reset.`,
      site.id,
    );
    return { data: randomPassword() };
  },

  getSiteCmsDbAdminUrl: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    ctx.activity(
      'site.db_admin_url_created',
      'Database admin URL issued',
      `A database-admin URL was issued for ${site.name}.`,
      site.id,
    );
    return { data: `https://db-admin.example.com/login?site=${site.id}&token=${randomToken()}` };
  },

  updateSiteCmsVersion: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    const version = ctx.body?.version;
    if (version === undefined) {
      // Omitted: toggles between the latest stable release and the beta.
      site.cmsVersion = site.cmsVersion === CMS_VERSION_BETA ? CMS_VERSION_STABLE : CMS_VERSION_BETA;
    } else if (version === 'latest') {
      site.cmsVersion = CMS_VERSION_STABLE;
    } else {
      throw badRequest('body.version: must be latest (omit version to toggle between latest stable and beta)');
    }
    ctx.activity(
      'site.cms_version_updated',
      'CMS version changed',
      `The CMS version of ${site.name} is now ${site.cmsVersion}.`,
      site.id,
    );
    return { data: siteView(ctx.state, site) };
  },

  createSiteSingleUseLogin: (ctx) => {
    const { state } = ctx;
    const site = ctx.site(ctx.params.site_id);
    const email = ctx.body.email.trim().toLowerCase();
    // CMS users of a site: the account owner and the site's collaborators.
    const users = [state.account.email, ...state.collaborators.filter((c) => c.siteId === site.id).map((c) => c.email)];
    if (!users.some((u) => u.toLowerCase() === email)) {
      throw badRequest(`body.email: no CMS user with that email on site ${site.id}`);
    }
    ctx.activity(
      'site.single_use_login_created',
      'Single-use login created',
      `A single-use login URL was issued for ${email} on ${site.name}.`,
      site.id,
    );
    return { data: { url: `${site.url}/single-use-login/?token=${randomToken()}` } };
  },
});
