// The alerts inbox: list (newest first; category, search, show_dismissed; paging only when asked
// for, per_page default 500 and larger values applied as 500), counts of unread alerts, get, read and dismiss (one or
// all; idempotent). Every alert in `state.alerts` is the account's, whoever published it (areas
// publish through `rt.publishAlert`); an expired alert is invisible everywhere.
import { defineArea } from '../area.js';
import { notFound } from '../errors.js';
import { paginate } from '../pagination.js';
import type { AlertRecord, SandboxState } from '../state.js';
import type { Schema } from '../types.js';

export const ALERTS_MAX_PER_PAGE = 500;
export const ALERT_CATEGORIES = ['in_progress', 'failure', 'completed', 'purchases', 'take_action'] as const;

export const alertView = ({ expiresAt: _e, ...alert }: AlertRecord): Schema<'Alert'> => ({
  ...alert,
  site: alert.site ? { ...alert.site } : null,
  actions: alert.actions.map((a) => ({ ...a })),
});

/** Not expired at `now` (an alert whose expiry is now has expired). */
export const isVisible = (alert: AlertRecord, now: number) =>
  alert.expiresAt === null || Date.parse(alert.expiresAt) > now;

const visibleAlerts = (state: SandboxState, now: number) => state.alerts.filter((a) => isVisible(a, now));

const newestFirst = (a: AlertRecord, b: AlertRecord) =>
  Date.parse(b.created_at) - Date.parse(a.created_at) || b.id - a.id;

/** Counted as unread: unread, not dismissed, unexpired (GET /alerts/counts). */
const isUnread = (a: AlertRecord) => !a.read && !a.dismissed;

function findAlert(state: SandboxState, now: number, id: number): AlertRecord {
  const alert = state.alerts.find((a) => a.id === id);
  if (!alert || !isVisible(alert, now)) throw notFound();
  return alert;
}

export default defineArea({
  listAlerts: ({ query, state, rt }) => {
    const category = query.category ?? 'all';
    const search = query.search?.trim().toLowerCase() ?? '';
    const showDismissed = query.show_dismissed === true;
    const alerts = visibleAlerts(state, rt.clock.now())
      .filter((a) => showDismissed || !a.dismissed)
      // Any value other than the five categories and `all` matches nothing (an empty list).
      .filter((a) => category === 'all' || a.category === category)
      .filter(
        (a) =>
          search === '' ||
          [a.title, a.message, a.site?.name, a.site?.display_name].some((t) => t?.toLowerCase().includes(search)),
      )
      .sort(newestFirst);
    if (query.page === undefined && query.per_page === undefined) return { data: alerts.map(alertView) };
    const perPage = Math.min(query.per_page ?? ALERTS_MAX_PER_PAGE, ALERTS_MAX_PER_PAGE);
    const { items, page } = paginate(alerts, query.page ?? 1, perPage);
    return { data: items.map(alertView), page };
  },

  getAlertCounts: ({ state, rt }) => {
    const unread = visibleAlerts(state, rt.clock.now()).filter(isUnread);
    const count = (c: string) => unread.filter((a) => a.category === c).length;
    return {
      data: {
        in_progress: count('in_progress'),
        failure: count('failure'),
        completed: count('completed'),
        purchases: count('purchases'),
        take_action: count('take_action'),
        all: unread.length,
      },
    };
  },

  // Both bulk changes count the alerts they changed, so a repeat answers {count: 0}. Part 3:
  // read_all marks every visible alert read (dismissed ones are still visible: GET /alerts/{id}
  // returns them); dismiss_all dismisses every visible alert not yet dismissed, in-progress ones
  // included (their operations carry on).
  markAllAlertsRead: ({ state, rt }) => {
    const changed = visibleAlerts(state, rt.clock.now()).filter((a) => !a.read);
    for (const a of changed) a.read = true;
    return { data: { count: changed.length } };
  },

  dismissAllAlerts: ({ state, rt }) => {
    const changed = visibleAlerts(state, rt.clock.now()).filter((a) => !a.dismissed);
    for (const a of changed) a.dismissed = true;
    return { data: { count: changed.length } };
  },

  getAlert: ({ params, state, rt }) => ({ data: alertView(findAlert(state, rt.clock.now(), params.alert_id)) }),

  markAlertRead: ({ params, state, rt }) => {
    const alert = findAlert(state, rt.clock.now(), params.alert_id);
    alert.read = true;
    return { data: { id: alert.id, read: true as const } };
  },

  dismissAlert: ({ params, state, rt }) => {
    const alert = findAlert(state, rt.clock.now(), params.alert_id);
    alert.dismissed = true;
    return { data: { id: alert.id, dismissed: true as const } };
  },
});
