// Account: profile, defaults, activity log (filters, paging, 60-day retention), add-ons.
import { accountActions } from '../actions.js';
import { defineArea } from '../area.js';
import { badRequest } from '../errors.js';
import { capacity, DATACENTERS, PHP_VERSIONS } from '../model/sites.js';
import { paginate } from '../pagination.js';
import type { ActivityRecord, SandboxState } from '../state.js';
import type { Schema } from '../types.js';

const DAY = 86_400_000;
export const ACCOUNT_LOG_RETENTION_DAYS = 60;
export const SITE_LOG_RETENTION_DAYS = 30;
/** Most filters one activity search takes (the seed gives no number: a sandbox choice, DECISIONS.md). */
export const ACTIVITY_MAX_FILTERS = 20;
export const ACTIVITY_MAX_PER_PAGE = 50;
/**
 * Most characters the values of one search's filters take together (a sandbox choice): an email
 * address is at most 254, an IP address 45; each character costs a comparison per log entry.
 */
export const ACTIVITY_MAX_FILTER_CHARS = 1_000;

/** Public fields of an activity entry (drops the internal siteId). */
export const activityView = ({ siteId: _s, ...entry }: ActivityRecord): Schema<'ActivityLogEntry'> => ({ ...entry });

const FILTER_FIELDS = {
  action: 'name',
  account_email: 'accountEmail',
  ip_address: 'ipAddress',
  source: 'source',
} as const;

/**
 * The shared activity-log search of POST /account/logs/activity and
 * POST /sites/{site_id}/logs/activity: retention window, filters (all must match), newest first,
 * at most 50 per page.
 */
export function searchActivity(
  state: SandboxState,
  now: number,
  input: { page?: number; per_page?: number; filters?: Schema<'ActivityLogFilter'>[] } | undefined,
  scope: { siteId?: number; retentionDays: number },
) {
  const perPage = input?.per_page ?? ACTIVITY_MAX_PER_PAGE;
  const page = input?.page ?? 1;
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > ACTIVITY_MAX_PER_PAGE) {
    throw badRequest(`body.per_page: must be an integer from 1 to ${ACTIVITY_MAX_PER_PAGE}`);
  }
  if (!Number.isInteger(page) || page < 1) throw badRequest('body.page: must be an integer of at least 1');
  const filters = input?.filters ?? [];
  // The seed gives no number of filters; each costs a pass over the log, so the count is bounded.
  if (filters.length > ACTIVITY_MAX_FILTERS) {
    throw badRequest(`body.filters: at most ${ACTIVITY_MAX_FILTERS} filters (got ${filters.length})`);
  }
  const chars = filters.reduce((n, f) => n + (typeof f.value === 'string' ? f.value.length : 0), 0);
  if (chars > ACTIVITY_MAX_FILTER_CHARS) {
    throw badRequest(
      `body.filters: the values of the filters take at most ${ACTIVITY_MAX_FILTER_CHARS} characters together (got ${chars})`,
    );
  }
  filters.forEach((f, i) => {
    if (!Object.hasOwn(FILTER_FIELDS, f.field)) {
      throw badRequest(`body.filters.${i}.field: must be one of ${Object.keys(FILTER_FIELDS).join(', ')}`);
    }
    if (f.operator !== 'equals' && f.operator !== 'contains') {
      throw badRequest(`body.filters.${i}.operator: must be equals or contains`);
    }
  });
  // Lower-cased once, not once per entry.
  const wanted = filters.map((f) => ({
    key: FILTER_FIELDS[f.field],
    equals: f.operator === 'equals',
    value: f.value.toLowerCase(),
  }));
  const since = now - scope.retentionDays * DAY;
  const matches = state.activity
    .filter((e) => Date.parse(e.timestamp) >= since)
    .filter((e) => scope.siteId === undefined || e.siteId === scope.siteId)
    .filter((e) =>
      wanted.every((f) => {
        const value = String(e[f.key] ?? '').toLowerCase();
        return f.equals ? value === f.value : value.includes(f.value);
      }),
    )
    .sort((a, b) => b.timestamp.localeCompare(a.timestamp) || b.id - a.id);
  const { items, page: block } = paginate(matches, page, perPage);
  return { data: items.map(activityView), page: block };
}

function attachedView(state: SandboxState): Schema<'AttachedAddon'>[] {
  return state.attachedAddons.flatMap((a) => {
    const addon = state.addons.find((x) => x.id === a.addonId);
    return addon ? [{ name: addon.name, quantity: a.quantity }] : [];
  });
}

export default defineArea({
  getAccount: ({ state }) => {
    const { account } = state;
    return {
      data: {
        affiliate: account.affiliate,
        collaboratorCount: new Set(state.collaborators.map((c) => c.email)).size,
        email: account.email,
        name: account.name,
        organization: account.organization,
        phoneNumber: account.phoneNumber,
        productName: account.productName,
        avatar: account.avatar,
        pageViews: structuredClone(account.pageViews),
        preview: account.preview,
        defaultPhpVersion: account.defaultPhpVersion,
        defaultDatacenter: account.defaultDatacenter,
        maxSites: account.maxSites,
        sitesCount: state.sites.length,
        capacity: capacity(state),
        recent_activity: [...state.activity]
          .sort((a, b) => b.timestamp.localeCompare(a.timestamp))
          .slice(0, 5)
          .map(activityView),
      },
    };
  },

  updateAccount: (ctx) => {
    const { body, state } = ctx;
    const hasPhp = body.php_version !== undefined;
    const hasDc = body.datacenter_code !== undefined;
    // Neither sent: nothing to change (the documentation states no condition); answers the account.
    if (hasPhp && !PHP_VERSIONS.includes(body.php_version as string)) {
      throw badRequest(`body.php_version: must be one of ${PHP_VERSIONS.join(', ')}`);
    }
    const dc = body.datacenter_code;
    if (hasDc && dc !== null && !DATACENTERS.some((d) => d.code === dc)) {
      throw badRequest(`body.datacenter_code: must be one of ${DATACENTERS.map((d) => d.code).join(', ')} or null`);
    }
    if (hasPhp) state.account.defaultPhpVersion = body.php_version as string;
    if (hasDc) state.account.defaultDatacenter = dc ?? null;
    const changes = [
      hasPhp ? `default PHP version ${body.php_version}` : '',
      hasDc ? `default datacenter ${dc ?? 'none'}` : '',
    ].filter(Boolean);
    ctx.activity('settings', 'Account settings changed', `Account settings changed: ${changes.join(', ')}.`);
    return { data: null };
  },

  searchAccountActivityLogs: ({ body, state, rt }) =>
    searchActivity(state, rt.clock.now(), body, { retentionDays: ACCOUNT_LOG_RETENTION_DAYS }),

  listAccountActivityActions: ({ state }) => ({ data: accountActions(state) }),

  listAccountAddons: ({ state }) => ({ data: state.addons.map((a) => ({ ...a })) }),

  listAttachedAccountAddons: ({ state }) => ({ data: attachedView(state) }),

  updateAccountAddon: (ctx) => {
    const { body, state } = ctx;
    const addon = state.addons.find((a) => a.id === body.addon_id);
    if (!addon) throw badRequest(`body.addon_id: no add-on with id ${body.addon_id}`);
    if (!Number.isInteger(body.quantity) || body.quantity < 0) {
      throw badRequest('body.quantity: must be an integer of at least 0');
    }
    // quantity is the total wanted, not an increment; 0 detaches.
    state.attachedAddons = state.attachedAddons.filter((a) => a.addonId !== addon.id);
    if (body.quantity > 0) state.attachedAddons.push({ addonId: addon.id, quantity: body.quantity });
    ctx.activity('settings', 'Account add-ons changed', `Add-on ${addon.name} set to quantity ${body.quantity}.`);
    return { data: attachedView(state) };
  },
});
