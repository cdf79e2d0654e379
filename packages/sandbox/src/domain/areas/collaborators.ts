// Collaborators: the per-site entries (list, get, the entry's site), account-level access
// (owner-only; omitted settings become false except manage_sso; all six access flags false loses
// access), batch add/remove across sites (`-1` = all sites; scheduled, applied later on the clock)
// and the collaborator's own view of their sites (their favorite flag and tags).
import { type Ctx, defineArea } from '../area.js';
import { badRequest, notFound } from '../errors.js';
import { collaboratorSiteView, siteView } from '../model/sites.js';
import { DEFAULT_PER_PAGE, paginate } from '../pagination.js';
import { DURATIONS, type SandboxRuntime } from '../runtime.js';
import {
  type AccountLevelAccessRecord,
  type CollaboratorRecord,
  nextId,
  type SandboxState,
  type SiteRecord,
} from '../state.js';
import type { OperationId, Schema } from '../types.js';

/** Part 2: the accepted role values. */
export const COLLABORATOR_ROLES = [
  'allocate_resources',
  'clone_site',
  'convert_site',
  'delete_site',
  'disable_site',
  'enable_site',
  'execute_bulk_operations',
  'manage_backups_restores',
  'manage_collaborators',
  'manage_dns',
  'manage_git',
  'manage_notes',
  'manage_performance',
  'manage_cms',
  'migrate_site',
  'db_admin_access',
  'plugin_management_access',
  'reset_collaborator_password',
  'security',
  'sftp_access',
  'update_site_custom_name',
  'update_site_php_version',
  'update_site_cms_version',
  'wp_access',
] as const;

/** The six settings that keep account-level access while any of them is true (part 4, Rules). */
const ACCESS_FLAGS = [
  'add_to_all_new',
  'create_site',
  'manage_tags',
  'account_notifications',
  'site_management_notifications',
  'site_operation_notifications',
] as const;
/** What account_administrator grants (no notifications, no site access). */
const ADMIN_GRANTS = [
  'create_site',
  'manage_tags',
  'manage_sso',
  'view_usage',
  'manage_billing',
  'delegate_email_notification_capabilities',
] as const;
const SETTINGS = [
  ...ACCESS_FLAGS,
  'account_administrator',
  'view_usage',
  'manage_billing',
  'delegate_email_notification_capabilities',
] as const;
type Setting = (typeof SETTINGS)[number] | 'manage_sso';

/** The stored account-level access of one collaborator account (state.accountLevelAccess). */
export type AccessSettings = AccountLevelAccessRecord;

const norm = (email: string) => email.trim().toLowerCase();
const accessOf = (state: SandboxState, email: string) =>
  state.accountLevelAccess.find((a) => norm(a.email) === norm(email));
const entriesOf = (state: SandboxState, email: string) =>
  state.collaborators.filter((c) => norm(c.email) === norm(email));

/** The person behind an email: from their site entries or their collaborator account; null if unknown. */
function personOf(state: SandboxState, email: string) {
  const entry = entriesOf(state, email)[0];
  if (entry)
    return {
      name: entry.name,
      email: entry.email,
      wpUsername: entry.wpUsername,
      avatar: entry.avatar,
      username: entry.username,
    };
  const access = accessOf(state, email);
  if (access) return newPerson(access.email, access.name);
  return null;
}

/** A person the account has not seen: name and CMS user name from the email's local part. */
function newPerson(email: string, name?: string) {
  const local = norm(email).split('@')[0] ?? 'collaborator';
  const handle = local.replace(/[^a-z0-9]/g, '') || 'collaborator';
  return {
    name: name ?? local,
    email: norm(email),
    wpUsername: handle,
    avatar: `https://avatars.example.com/${handle}.png`,
    username: null,
  };
}

export const collaboratorView = (state: SandboxState, c: CollaboratorRecord): Schema<'Collaborator'> => ({
  id: c.id,
  created: c.created,
  updated: c.updated,
  accountId: c.accountId,
  email: c.email,
  siteId: c.siteId,
  state: c.state,
  wpUsername: c.wpUsername,
  name: c.name,
  siteName: state.sites.find((s) => s.id === c.siteId)?.name ?? c.siteName,
  roles: [...c.roles],
});

/** Adds (or, when already attached, updates the roles of) the collaborator on one site. */
function attach(state: SandboxState, site: SiteRecord, email: string, roles: string[] | undefined, now: string) {
  const existing = state.collaborators.find((c) => c.siteId === site.id && norm(c.email) === norm(email));
  if (existing) {
    if (roles) existing.roles = [...roles];
    existing.updated = now;
    return existing;
  }
  const person = personOf(state, email) ?? newPerson(email);
  const entry: CollaboratorRecord = {
    id: nextId(state, 'collaborator'),
    created: now,
    updated: now,
    accountId: site.accountId,
    email: person.email,
    siteId: site.id,
    state: 'active',
    wpUsername: person.wpUsername,
    name: person.name,
    siteName: site.name,
    roles: [...(roles ?? [])],
    avatar: person.avatar,
    username: person.username,
    favorite: false,
    tags: [],
  };
  state.collaborators.push(entry);
  return entry;
}

/**
 * Account-level access `add_to_all_new`: adds every such collaborator, with their stored roles, to a
 * site that was just created (call it from site creation and cloning).
 */
export function addToAllNewSite(state: SandboxState, site: SiteRecord, now: string): void {
  for (const access of state.accountLevelAccess) {
    if (access.hasAccess && access.add_to_all_new) attach(state, site, access.email, access.roles, now);
  }
}

function checkRoles(roles: readonly string[] | undefined): string[] | undefined {
  if (roles === undefined) return undefined;
  roles.forEach((role, i) => {
    if (!(COLLABORATOR_ROLES as readonly string[]).includes(role)) {
      throw badRequest(`body.roles.${i}: unknown role ${role}; accepted roles: ${COLLABORATOR_ROLES.join(', ')}`);
    }
  });
  return [...new Set(roles)];
}

function checkNotOwner(state: SandboxState, email: string) {
  if (norm(email) === norm(state.account.email))
    throw badRequest('body.email: the account owner cannot be a collaborator on their own account');
}

/** `siteIds` → the account's sites (`-1` = all of them), each once; unknown ids are a 400. */
function resolveSites(state: SandboxState, siteIds: readonly number[]): SiteRecord[] {
  if (siteIds.includes(-1)) return [...state.sites].sort((a, b) => a.id - b.id);
  const sites: SiteRecord[] = [];
  siteIds.forEach((id, i) => {
    const site = state.sites.find((s) => s.id === id);
    if (!site) throw badRequest(`body.siteIds.${i}: no site ${id} on this account (-1 means all sites)`);
    if (!sites.includes(site)) sites.push(site);
  });
  return sites;
}

function schedule(rt: SandboxRuntime, label: string, fn: (state: SandboxState, now: string) => void) {
  rt.later(DURATIONS.collaboratorBatch, label, () => fn(rt.state, rt.clock.nowIso()));
}

/** The collaborator (by email) and their entry on one site, or a 404. */
function entryOn(ctx: Pick<Ctx<OperationId>, 'site' | 'state'>, email: string, siteId: number) {
  const site = ctx.site(siteId);
  const entry = ctx.state.collaborators.find((c) => c.siteId === site.id && norm(c.email) === norm(email));
  if (!entry) throw notFound();
  return { site, entry };
}

const oneSite = (state: SandboxState, site: SiteRecord, entry: CollaboratorRecord): Schema<'CollaboratorSites'> => ({
  name: entry.name,
  email: entry.email,
  sites: [collaboratorSiteView(state, site, entry)],
});

export default defineArea({
  listCollaborators: ({ state }) => ({
    data: [...state.collaborators].sort((a, b) => a.id - b.id).map((c) => collaboratorView(state, c)),
  }),

  getCollaborator: ({ params, state }) => {
    const entry = state.collaborators.find((c) => c.id === params.collaborator_id);
    if (!entry) throw notFound();
    return { data: collaboratorView(state, entry) };
  },

  getCollaboratorSite: (ctx) => {
    const entry = ctx.state.collaborators.find((c) => c.id === ctx.params.collaborator_id);
    if (!entry) throw notFound();
    return { data: siteView(ctx.state, ctx.site(entry.siteId)) };
  },

  updateCollaboratorAccountLevelAccess: (ctx) => {
    const { body, state } = ctx;
    checkNotOwner(state, body.email);
    const roles = checkRoles(body.roles);
    const now = ctx.rt.clock.nowIso();
    const existing = accessOf(state, body.email);
    const admin = body.account_administrator === true;
    const next = {} as Record<Setting, boolean>;
    for (const setting of SETTINGS) next[setting] = body[setting] === true;
    // manage_sso: omitted leaves the current value unchanged; false revokes it.
    next.manage_sso = body.manage_sso ?? (existing?.hasAccess ? existing.manage_sso : false);
    if (admin) for (const granted of ADMIN_GRANTS) next[granted] = true;
    const hasAccess = ACCESS_FLAGS.some((flag) => next[flag]);
    // Losing account-level access clears every setting; site attachments remain.
    if (!hasAccess) for (const setting of [...SETTINGS, 'manage_sso'] as const) next[setting] = false;
    const record: AccessSettings = {
      email: existing?.email ?? norm(body.email),
      name: existing?.name ?? personOf(state, body.email)?.name ?? newPerson(body.email).name,
      ...next,
      roles: next.add_to_all_new ? (roles ?? []) : [],
      hasAccess,
      created: existing?.created ?? now,
      updated: now,
    };
    if (existing) Object.assign(existing, record);
    else state.accountLevelAccess.push(record);
    return { data: { email: record.email, add_to_all_new: record.add_to_all_new, create_site: record.create_site } };
  },

  batchCreateCollaborators: (ctx) => {
    const { body, state } = ctx;
    checkNotOwner(state, body.email);
    const roles = checkRoles(body.roles);
    const sites = resolveSites(state, body.siteIds);
    const email = norm(body.email);
    const siteIds = sites.map((s) => s.id);
    schedule(ctx.rt, `add ${email} to ${siteIds.length} sites`, (current, at) => {
      // Sites deleted meanwhile are skipped.
      for (const id of siteIds) {
        const site = current.sites.find((s) => s.id === id);
        if (site) attach(current, site, email, roles, at);
      }
    });
    return { data: null, message: `Collaborator creation scheduled for ${sites.length} sites` };
  },

  batchDestroyCollaborators: (ctx) => {
    const { body, state } = ctx;
    const email = norm(body.email);
    const siteIds = resolveSites(state, body.siteIds).map((s) => s.id);
    // Applied after any earlier scheduled batch (same delay, FIFO); a site without the
    // collaborator is left as it is. delete_wp_user concerns CMS users, which the sandbox does not hold.
    schedule(ctx.rt, `remove ${email} from ${siteIds.length} sites`, (current) => {
      current.collaborators = current.collaborators.filter(
        (c) => !(norm(c.email) === email && siteIds.includes(c.siteId)),
      );
    });
    return { data: null, message: `Collaborator removal scheduled for ${siteIds.length} sites` };
  },

  listCollaboratorSites: (ctx) => {
    const { state, query } = ctx;
    const email = ctx.params.email_address;
    const person = personOf(state, email);
    if (!person) throw notFound();
    const tag = query.tag_name;
    const entries = entriesOf(state, email)
      .map((entry) => ({ entry, site: state.sites.find((s) => s.id === entry.siteId) }))
      .filter((x): x is { entry: CollaboratorRecord; site: SiteRecord } => x.site !== undefined)
      .filter(({ entry }) => tag === undefined || entry.tags.some((t) => t.name === tag))
      // As GET /sites: the collaborator's favorites first, then by site id.
      .sort((a, b) => Number(b.entry.favorite) - Number(a.entry.favorite) || a.site.id - b.site.id);
    const { items, page } = paginate(entries, query.page ?? 1, query.per_page ?? DEFAULT_PER_PAGE);
    return {
      data: {
        name: person.name,
        email: person.email,
        sites: items.map(({ entry, site }) => collaboratorSiteView(state, site, entry)),
      },
      page,
    };
  },

  getCollaboratorSiteByEmail: (ctx) => {
    const { site, entry } = entryOn(ctx, ctx.params.email_address, ctx.params.site_id);
    return { data: oneSite(ctx.state, site, entry) };
  },

  favoriteCollaboratorSite: (ctx) => {
    const { site, entry } = entryOn(ctx, ctx.params.email_address, ctx.params.site_id);
    entry.favorite = true;
    return { data: oneSite(ctx.state, site, entry) };
  },

  deleteCollaboratorSiteFavorite: (ctx) => {
    const { site, entry } = entryOn(ctx, ctx.params.email_address, ctx.params.site_id);
    entry.favorite = false;
    return { data: oneSite(ctx.state, site, entry) };
  },
});
