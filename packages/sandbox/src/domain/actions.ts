// The one registry of activity action names (part 6): every name an area writes to the activity
// log is declared here, once, and the listing endpoints (`GET /activity/account-actions`,
// `GET /activity/site-actions`) answer from it, so they stay the source of current option lists.
// `ctx.activity(name, ...)` only accepts a name of this registry (a type error otherwise).
import type { SandboxState } from './state.js';
import type { Schema } from './types.js';

interface ActionDef {
  description: string;
  /** false: account-only (no site log lists it; e.g. `settings`, `site.deleted`). */
  site: boolean;
}

const site = (description: string): ActionDef => ({ description, site: true });
const accountOnly = (description: string): ActionDef => ({ description, site: false });

export const ACTIVITY_ACTIONS = {
  // account and sites (the seed's names: site.created, site.deleted, settings, report.*, ...)
  'site.created': site('A site was created.'),
  'site.deleted': accountOnly('A site was deleted.'),
  'site.updated': site('A site was updated.'),
  'site.cloned': site('A site was cloned.'),
  'site.converted': site('A site was converted.'),
  'site.disabled': site('A site was disabled.'),
  'site.enabled': site('A site was enabled.'),
  settings: accountOnly('Account settings were changed.'),
  'report.page_views': site('A page views report was generated.'),
  'report.space_usage': site('A space usage report was generated.'),
  'performance_report.screenshot': site('A performance report screenshot was taken.'),
  // site operations
  'site.object_cache_flushed': site('The object cache of a site was flushed.'),
  'site.light_weight_404_updated': site('Light 404 responses were turned on or off.'),
  'site.multisite_support_updated': site('Multisite support was turned on or off.'),
  'site.maintenance_mode_updated': site('A maintenance-mode change was requested.'),
  'site.basic_authentication_updated': site('A basic-authentication change was requested.'),
  'site.cms_mcp_updated': site('The MCP plugin was enabled or disabled.'),
  'site.file_modifications_updated': site('A file-modification constant was changed.'),
  'site.php_fs_permissions_updated': site('The PHP filesystem permission was changed.'),
  'site.ssh_disconnected': site('All SSH connections to a site were terminated.'),
  'site.cms_password_reset': site('The CMS admin password was reset.'),
  'site.db_admin_url_created': site('A database-admin URL was issued.'),
  'site.cms_version_updated': site('The CMS version of a site was changed.'),
  'site.single_use_login_created': site('A single-use login URL was issued.'),
  // notes, firewall, plugins, must-use plugins
  'note.created': site('A note was added to a site.'),
  'note.updated': site('A note was updated.'),
  'note.deleted': site('A note was deleted.'),
  'firewall_rule.created': site('An egress firewall rule was created.'),
  'firewall_rule.deleted': site('An egress firewall rule was deleted.'),
  'plugin.installed': site('Plugins were installed.'),
  'plugin.updated': site('Plugins were updated.'),
  'plugin.activated': site('Plugins were activated.'),
  'plugin.deactivated': site('Plugins were deactivated.'),
  'mu_plugin.created': site('A must-use plugin was uploaded.'),
  'mu_plugin.refreshed': site('A must-use plugin was refreshed.'),
  'mu_plugin.deleted': site('A must-use plugin was deleted.'),
  // backups and restores
  'backup.downloaded': site('A backup was downloaded.'),
  'backup.created': site('An on-demand backup was requested.'),
  'backup.deleted': site('An on-demand backup was deleted.'),
  'backup.restored': site('A restore was started.'),
  // git
  'git.connected': site('A git repository was connected.'),
  'git.updated': site('The git configuration was changed.'),
  'git.disconnected': site('The git repository was disconnected.'),
  'git.token_stored': site('A git token was stored.'),
  'git.token_revoked': site('The git token was removed from a site.'),
  'git.deploy': site('A git deploy was started.'),
} as const satisfies Record<string, ActionDef>;

export type ActionName = keyof typeof ACTIVITY_ACTIONS;

const entries = Object.entries(ACTIVITY_ACTIONS) as [ActionName, ActionDef][];

/**
 * The listing: the registry's actions, then any other name recorded in the log (a `--seed`
 * fixture may hold some), so a filter can name every action that can be found.
 */
function listing(state: SandboxState, siteLog: boolean): Schema<'ActivityAction'>[] {
  const list: Schema<'ActivityAction'>[] = entries
    .filter(([, def]) => !siteLog || def.site)
    .map(([name, def]) => ({ name, description: def.description }));
  const known = new Set<string>(list.map((a) => a.name));
  for (const entry of state.activity) {
    if ((siteLog && entry.siteId === null) || known.has(entry.name)) continue;
    if (siteLog && entry.name in ACTIVITY_ACTIONS && !ACTIVITY_ACTIONS[entry.name as ActionName].site) continue;
    known.add(entry.name);
    list.push({ name: entry.name, description: entry.description });
  }
  return list;
}

/** `GET /activity/account-actions`: every action (the account log holds the site entries too). */
export const accountActions = (state: SandboxState) => listing(state, false);
/** `GET /activity/site-actions`: the actions a site's log can hold. */
export const siteActions = (state: SandboxState) => listing(state, true);
