// Alerts inbox: listing rules (newest first, category, search, show_dismissed, opt-in paging with
// per_page up to 500), counts, get/read/dismiss (idempotent), the bulk changes, expiry, and the
// alerts other areas publish through rt.publishAlert.
import { describe, expect, it } from 'vitest';
import { DURATIONS } from '../src/index.js';
import { type Harness, status, useSandbox } from './helpers.js';
import { specProblems } from './spec-check.js';

const h = useSandbox();

const ids = (alerts: { id: number }[]) => alerts.map((a) => a.id);
const list = async (query = '') => {
  const r = await h.call('GET', `/alerts${query}`);
  expect(r.status).toBe(200);
  expect(specProblems('listAlerts', r.status, r.body)).toEqual([]);
  return r.body as { data: { id: number; category: string }[]; page?: Record<string, unknown> };
};
/** Publishes n completed alerts, one virtual second apart (ids ascending = newer). */
function publish(n: number, extra: Partial<Parameters<Harness['sb']['runtime']['publishAlert']>[0]> = {}) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    h.sb.advance(1000);
    out.push(
      h.sb.runtime.publishAlert({
        type: 'site.test',
        category: 'completed',
        title: `Test ${i}`,
        message: 'm',
        ...extra,
      }).id,
    );
  }
  return out;
}

describe('listing', () => {
  it('returns every visible alert newest first, without dismissed or expired ones and without a page block', async () => {
    const r = await list();
    // 9001 (3 days old), 9002 (20 days, read); 9003 is dismissed, 9004 expired.
    expect(ids(r.data)).toEqual([9001, 9002]);
    expect(r.page).toBeUndefined();
    expect(ids((await h.api.alerts.list()).data)).toEqual([9001, 9002]);
  });

  it('includes dismissed alerts with show_dismissed, never expired ones', async () => {
    expect(ids((await list('?show_dismissed=true')).data)).toEqual([9001, 9003, 9002]);
    expect(ids((await list('?show_dismissed=false')).data)).toEqual([9001, 9002]);
  });

  it('filters by category: one of five, all or omitted for all, anything else empty', async () => {
    expect(ids((await list('?category=failure&show_dismissed=true')).data)).toEqual([9003]);
    expect(ids((await list('?category=purchases')).data)).toEqual([9002]);
    expect(ids((await list('?category=all')).data)).toEqual([9001, 9002]);
    expect((await list('?category=in_progress')).data).toEqual([]);
    expect((await list('?category=nonsense')).data).toEqual([]);
    expect((await h.api.alerts.list({ category: 'take_action' })).data).toEqual([]);
  });

  it('searches title, message and site name (case-insensitive)', async () => {
    expect(ids((await list('?search=PURCHASED')).data)).toEqual([9002]); // title
    expect(ids((await list('?search=additional%20sites')).data)).toEqual([9002]); // message
    expect(ids((await list('?search=ada-blog')).data)).toEqual([9001]); // site name (and message)
    expect(ids((await list('?search=shop-staging&show_dismissed=true')).data)).toEqual([9003]);
    const onlySite = publish(1, { title: 'Plain', message: 'nothing here', siteId: 123461 });
    expect(ids((await list('?search=analytical')).data)).toEqual(onlySite);
    expect((await list('?search=zzz')).data).toEqual([]);
  });

  it('pages only when page or per_page is sent: page defaults to 1, per_page to 500', async () => {
    const created = publish(5).reverse(); // newest first
    const p2 = await list('?per_page=3&page=2');
    expect(ids(p2.data)).toEqual([created[3], created[4], 9001]);
    expect(p2.page).toEqual({ currentPage: 2, nextPage: 3, lastPage: 3, perPage: 3, totalItems: 7 });
    const onlyPage = await list('?page=1');
    expect(onlyPage.data).toHaveLength(7);
    expect(onlyPage.page).toEqual({ currentPage: 1, nextPage: null, lastPage: 1, perPage: 500, totalItems: 7 });
    const onlyPerPage = await list('?per_page=500');
    expect(onlyPerPage.page).toMatchObject({ currentPage: 1, perPage: 500 });
    expect((await list('?page=9&per_page=2')).data).toEqual([]);

    const all: number[] = [];
    for await (const a of h.api.paginate(h.api.alerts.list, { per_page: 2 })) all.push(a.id);
    expect(all).toEqual([...created, 9001, 9002]);
  });

  it('answers 600 alerts in full unpaged, and at most 500 per page (a larger per_page is applied as 500)', async () => {
    publish(598);
    expect((await list()).data).toHaveLength(600);
    const first = await list('?page=1');
    expect(first.data).toHaveLength(500);
    expect(first.page).toEqual({ currentPage: 1, nextPage: 2, lastPage: 2, perPage: 500, totalItems: 600 });
    expect((await list('?page=2')).data).toHaveLength(100);
    // Part 4: per_page "defaults and maxes 500, and page.perPage reports the applied value".
    for (const perPage of [501, 1000]) {
      const clamped = await h.call('GET', `/alerts?per_page=${perPage}`);
      expect(clamped.status).toBe(200);
      expect(clamped.body.data).toHaveLength(500);
      expect(clamped.body.page).toEqual({ currentPage: 1, nextPage: 2, lastPage: 2, perPage: 500, totalItems: 600 });
      expect(specProblems('listAlerts', clamped.status, clamped.body)).toEqual([]);
    }
  });
});

describe('one alert', () => {
  it('gets an alert, dismissed ones too; 404 for missing or expired', async () => {
    const a = await h.api.alerts.get(9001);
    expect(a).toMatchObject({
      id: 9001,
      type: 'site.backup_completed',
      category: 'completed',
      site: { id: 123456, name: 'ada-blog', display_name: 'Ada Lovelace Blog' },
    });
    expect(Object.keys(a)).not.toContain('expiresAt');
    expect((await h.api.alerts.get(9003)).dismissed).toBe(true);
    for (const id of [9004, 424242]) {
      const r = await h.call('GET', `/alerts/${id}`);
      expect(r.status).toBe(404);
      expect(r.body.message).toBe('We could not locate the requested resources.');
      expect(specProblems('getAlert', r.status, r.body)).toEqual([]);
      expect((await h.call('POST', `/alerts/${id}/read`)).status).toBe(404);
      expect((await h.call('POST', `/alerts/${id}/dismiss`)).status).toBe(404);
    }
    expect((await h.call('GET', '/alerts/abc')).status).toBe(404);
  });

  it('marks read and dismisses, idempotently', async () => {
    expect(await h.api.alerts.markRead(9001)).toEqual({ id: 9001, read: true });
    expect(await h.api.alerts.markRead(9001)).toEqual({ id: 9001, read: true });
    expect((await h.api.alerts.get(9001)).read).toBe(true);
    expect(await h.api.alerts.dismiss(9001)).toEqual({ id: 9001, dismissed: true });
    expect(await h.api.alerts.dismiss(9001)).toEqual({ id: 9001, dismissed: true });
    expect(ids((await list()).data)).toEqual([9002]);
    expect((await h.api.alerts.get(9001)).dismissed).toBe(true);
    // A dismissed alert can still be read.
    expect(await h.api.alerts.markRead(9003)).toEqual({ id: 9003, read: true });
  });

  it('an alert disappears once it expires on the clock', async () => {
    const alert = h.sb.runtime.publishAlert({
      type: 'site.test',
      category: 'take_action',
      title: 'Soon gone',
      message: 'm',
    });
    alert.expiresAt = new Date(h.sb.runtime.clock.now() + 60_000).toISOString();
    expect((await h.api.alerts.get(alert.id)).title).toBe('Soon gone');
    expect((await h.api.alerts.counts()).take_action).toBe(1);
    h.sb.advance(60_000);
    expect(await status(h.api.alerts.get(alert.id))).toBe(404);
    expect(ids((await list('?show_dismissed=true')).data)).not.toContain(alert.id);
    expect((await h.api.alerts.counts()).take_action).toBe(0);
  });
});

describe('counts and bulk changes', () => {
  it('counts unread, not dismissed, unexpired alerts per category and in all', async () => {
    const r = await h.call('GET', '/alerts/counts');
    expect(specProblems('getAlertCounts', r.status, r.body)).toEqual([]);
    expect(r.body.data).toEqual({ in_progress: 0, failure: 0, completed: 1, purchases: 0, take_action: 0, all: 1 });
    publish(2, { category: 'failure' });
    publish(1, { category: 'in_progress' });
    expect(await h.api.alerts.counts()).toEqual({
      in_progress: 1,
      failure: 2,
      completed: 1,
      purchases: 0,
      take_action: 0,
      all: 4,
    });
    await h.api.alerts.markRead(9001);
    expect((await h.api.alerts.counts()).completed).toBe(0);
  });

  it('read_all reads every visible alert, dismissed ones too; a repeat affects nothing', async () => {
    publish(2, { category: 'failure' });
    const r = await h.call('POST', '/alerts/read_all');
    expect(specProblems('markAllAlertsRead', r.status, r.body)).toEqual([]);
    // 9001, 9002, the two new ones and the dismissed (still visible) 9003; not the expired 9004.
    expect(r.body.data).toEqual({ count: 4 });
    expect((await h.api.alerts.get(9003)).read).toBe(true);
    expect((await h.api.alerts.counts()).all).toBe(0);
    expect(await h.api.alerts.markAllRead()).toEqual({ count: 0 });
    expect((await list()).data.every((a: any) => a.read)).toBe(true);
  });

  it('dismiss_all dismisses every visible alert, in-progress ones included', async () => {
    publish(1, { category: 'in_progress' });
    expect(await h.api.alerts.dismissAll()).toEqual({ count: 3 }); // 9001, 9002 and the new one
    expect((await list()).data).toEqual([]);
    expect(await h.api.alerts.dismissAll()).toEqual({ count: 0 });
    expect((await list('?show_dismissed=true')).data).toHaveLength(4);
    expect((await h.api.alerts.counts()).all).toBe(0);
  });
});

describe('alerts published by other areas', () => {
  it('shows the deploy alert of a new site', async () => {
    const site = await h.api.sites.create({ name: 'alert-me' });
    expect((await list(`?search=alert-me`)).data).toEqual([]);
    h.sb.advance(DURATIONS.siteDeploy);
    const found = (await h.api.alerts.list({ search: 'alert-me' })).data;
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      category: 'completed',
      read: false,
      dismissed: false,
      site: { id: site.id, name: 'alert-me' },
    });
    expect((await h.api.alerts.counts()).completed).toBe(2);
  });

  it('a dismissed in-progress clone alert does not stop the clone, which still publishes its completion', async () => {
    const clone = await h.api.sites.clone(123456, { name: 'ada-clone' });
    const started = (await h.api.alerts.list({ category: 'in_progress' })).data;
    expect(started).toHaveLength(1);
    expect(started[0]?.site?.id).toBe(clone.id);
    expect((await h.api.alerts.counts()).in_progress).toBe(1);
    expect(await h.api.alerts.dismissAll()).toEqual({ count: 3 });

    h.sb.advance(DURATIONS.siteClone);
    expect((await h.api.sites.get(clone.id)).state).toBe('live');
    const now = (await h.api.alerts.list()).data;
    expect(now.map((a) => [a.category, a.site?.id])).toEqual([['completed', clone.id]]);
    // The in-progress alert ended with its operation.
    expect(await status(h.api.alerts.get(started[0]!.id))).toBe(404);
  });

  it('shows the completion alerts of queued site operations', async () => {
    await h.api.sites.maintenanceMode.update(123457, { enabled: true });
    await h.api.sites.basicAuthentication.toggle(123457);
    h.sb.advance(DURATIONS.queuedToggle);
    const found = (await h.api.alerts.list({ search: 'shop-staging', category: 'completed' })).data;
    expect(found.map((a) => a.type).sort()).toEqual([
      'site.basic_authentication_enabled',
      'site.maintenance_mode_enabled',
    ]);
  });
});
