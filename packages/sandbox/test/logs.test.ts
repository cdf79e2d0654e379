// Logs, reports, metrics: PHP and server logs (JSON body on GET, scroll_id paging, 200 per page,
// 7-day retention, filters), the site activity log (30 days, 50 per page, filters), site actions,
// the performance and usage reports and metrics.
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { errorEnvelope, type Reply, status, useSandbox } from './helpers.js';
import { specProblems } from './spec-check.js';

const DAY = 86_400_000;
const h = useSandbox();
const now = () => h.sb.runtime.clock.now();

/** A GET with a body (fetch refuses one), as the log reads need. */
function getWithBody(path: string, body: string, contentType = 'application/json'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${h.sb.url}${path}`,
      {
        method: 'GET',
        headers: {
          authorization: `Bearer ${h.token}`,
          'content-type': contentType,
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), headers: new Headers() }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('PHP log', () => {
  it('pages newest first through scroll_id, 200 entries a page, within 7 days', async () => {
    const seen: string[] = [];
    let page = await h.api.sites.logs.php(123456);
    const total = page.total_results;
    expect(total).toBe(7 * 72 + 1); // one entry per 20 minutes over the 7-day retention window
    const sizes: number[] = [];
    for (;;) {
      sizes.push(page.logs.length);
      seen.push(...page.logs.map((e) => e.timestamp));
      if (page.logs.length === 0) break;
      page = await h.api.sites.logs.php(123456, { scroll_id: page.scroll_id });
      expect(page.total_results).toBe(total);
    }
    expect(sizes).toEqual([200, 200, 105, 0]);
    expect(new Set(seen).size).toBe(total);
    expect([...seen].sort().reverse()).toEqual(seen);
    expect(Date.parse(seen.at(-1)!)).toBeGreaterThanOrEqual(now() - 7 * DAY);
    expect(Date.parse(seen[0]!)).toBeLessThanOrEqual(now() + 60_000);
  });

  it('filters by status (severity) and keeps the filter across pages', async () => {
    const first = await h.api.sites.logs.php(123456, { status: 'Warning' });
    expect(first.total_results).toBeGreaterThan(0);
    expect(first.total_results).toBeLessThan(505);
    expect(
      first.logs.every((e) => e.severity === 'Warning' && e.name === 'E_WARNING' && e.atomic_site_id === 123456),
    ).toBe(true);
    const next = await h.api.sites.logs.php(123456, { scroll_id: first.scroll_id });
    expect(next.logs.every((e) => e.severity === 'Warning')).toBe(true);
    expect(first.logs.length + next.logs.length).toBe(Math.min(first.total_results!, 400));
    expect((await h.api.sites.logs.php(123456, { status: 'nothing-like-this' })).logs).toEqual([]);
  });

  it('entries age out after 7 days and new ones arrive as the clock moves', async () => {
    const before = await h.api.sites.logs.php(123456);
    h.sb.advance(DAY);
    await h.refresh();
    const after = await h.api.sites.logs.php(123456);
    expect(after.total_results).toBe(before.total_results);
    expect(Date.parse(after.logs[0]!.timestamp)).toBeGreaterThan(
      Date.parse(before.logs[0]!.timestamp) + DAY - 20 * 60_000,
    );
  });

  it('a new site has no entries from before it existed', async () => {
    const site = await h.api.sites.create({ name: 'fresh-site' });
    expect((await h.api.sites.logs.php(site.id)).total_results).toBe(1);
    h.sb.advance(2 * 3_600_000);
    await h.refresh();
    expect((await h.api.sites.logs.php(site.id)).total_results).toBe(7);
  });

  it('refuses a bad scroll_id, junk bodies and unknown sites', async () => {
    const bad = await getWithBody('/sites/123456/logs/php', JSON.stringify({ scroll_id: 'not-a-cursor' }));
    expect(bad.status).toBe(400);
    expect(errorEnvelope(bad).errors?.[0]).toMatch(/^body\.scroll_id: /);
    expect(specProblems('listSitePhpLogs', bad.status, bad.body)).toEqual([]);
    // A server-log cursor is not a PHP-log cursor, and one site's cursor is not another's.
    const server = await h.api.sites.logs.server(123456);
    expect((await getWithBody('/sites/123456/logs/php', JSON.stringify({ scroll_id: server.scroll_id }))).status).toBe(
      400,
    );
    const php = await h.api.sites.logs.php(123456);
    expect((await getWithBody('/sites/123457/logs/php', JSON.stringify({ scroll_id: php.scroll_id }))).status).toBe(
      400,
    );
    const wrongType = await getWithBody('/sites/123456/logs/php', JSON.stringify({ status: 5 }));
    expect(wrongType.status).toBe(400);
    expect(errorEnvelope(wrongType).errors?.[0]).toMatch(/^body\.status: /);
    expect((await getWithBody('/sites/123456/logs/php', '{oops')).status).toBe(400);
    expect((await getWithBody('/sites/123456/logs/php', '[1]')).status).toBe(400);
    expect((await getWithBody('/sites/123456/logs/php', 'x', 'text/plain')).status).toBe(400);
    expect(await status(h.api.sites.logs.php(999999))).toBe(404);
    const r = await h.call('GET', '/sites/123456/logs/php');
    expect(r.status).toBe(200);
    expect(specProblems('listSitePhpLogs', r.status, r.body)).toEqual([]);
  });
});

describe('server log', () => {
  it('filters by status (integer or string), request_type and user_ip, and pages', async () => {
    const all = await h.api.sites.logs.server(123456);
    expect(all.total_results).toBe(7 * 288 + 1); // one request per 5 minutes
    expect(all.logs).toHaveLength(200);
    const notFound = await h.api.sites.logs.server(123456, {
      status: 404,
      request_type: 'get',
      user_ip: '203.0.113.24',
    });
    expect(notFound.total_results).toBeGreaterThan(0);
    for (const e of notFound.logs) {
      expect(e).toMatchObject({
        status: 404,
        request_type: 'GET',
        user_ip: '203.0.113.24',
        http_host: 'ada-blog.example.com',
        type: 'access',
      });
      expect(e.timestamp).toBe(Math.floor(Date.parse(e.date) / 1000));
    }
    const asString = await h.api.sites.logs.server(123456, {
      status: '404',
      request_type: 'GET',
      user_ip: '203.0.113.24',
    });
    expect(asString.total_results).toBe(notFound.total_results);
    const posts = await h.api.sites.logs.server(123456, { request_type: 'POST' });
    let count = posts.logs.length;
    let next = posts;
    while (next.logs.length === 200) {
      next = await h.api.sites.logs.server(123456, { scroll_id: next.scroll_id });
      expect(next.logs.every((e) => e.request_type === 'POST')).toBe(true);
      count += next.logs.length;
    }
    expect(count).toBe(posts.total_results);
    const raw = await getWithBody('/sites/123456/logs/server', JSON.stringify({ status: 404 }));
    expect(raw.status).toBe(200);
    expect(specProblems('listSiteServerLogs', raw.status, raw.body)).toEqual([]);
  });
});

describe('site activity log', () => {
  it('lists the site entries of the last 30 days, filters and pages at most 50', async () => {
    await h.api.sites.notes.create(123456, { subject: 'a', body: 'b' });
    const log = await h.api.sites.logs.activity(123456, {});
    // The seed's entries of 123456: report.page_views (20 days), backup.downloaded (2 days).
    expect(log.data.map((e) => e.name)).toEqual(['note.created', 'backup.downloaded', 'report.page_views']);
    expect(log.data[0]).toMatchObject({ source: 'api.v1', accountEmail: 'ada@example.com' });
    expect(log.page).toMatchObject({ currentPage: 1, perPage: 50, totalItems: 3 });
    const filtered = await h.api.sites.logs.activity(123456, {
      filters: [{ field: 'action', operator: 'equals', value: 'backup.downloaded' }],
    });
    expect(filtered.data.map((e) => e.name)).toEqual(['backup.downloaded']);
    // Other sites' entries stay out.
    expect((await h.api.sites.logs.activity(123461, {})).data.map((e) => e.name)).toEqual(['site.created']);
    h.sb.advance(11 * DAY); // report.page_views is now 31 days old
    await h.refresh();
    expect((await h.api.sites.logs.activity(123456, {})).data.map((e) => e.name)).toEqual([
      'note.created',
      'backup.downloaded',
    ]);
  });

  it('pages and refuses per_page over 50', async () => {
    for (let i = 0; i < 4; i++) await h.api.sites.notes.create(123458, { subject: `n${i}`, body: 'b' });
    const r = await h.call('POST', '/sites/123458/logs/activity', { per_page: 3, page: 2 });
    expect(r.status).toBe(200);
    expect(specProblems('searchSiteActivityLogs', 200, r.body)).toEqual([]);
    expect(r.body.page).toEqual({ currentPage: 2, nextPage: null, lastPage: 2, perPage: 3, totalItems: 4 });
    const big = await h.call('POST', '/sites/123458/logs/activity', { per_page: 51 });
    expect(big.status).toBe(400);
    expect(errorEnvelope(big).errors?.[0]).toMatch(/^body\.per_page/);
    expect(await status(h.api.sites.logs.activity(999999, {}))).toBe(404);
  });

  it('lists site actions, including the names recorded in site logs', async () => {
    const actions = await h.api.sites.actions.list();
    const names = actions.map((a) => a.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'site.created',
        'backup.downloaded',
        'performance_report.screenshot',
        'note.created',
        'plugin.installed',
        'firewall_rule.created',
      ]),
    );
    expect(names).not.toContain('settings');
    expect(new Set(names).size).toBe(names.length);
    h.sb.runtime.logActivity({ name: 'custom.thing', description: 'Custom thing', message: 'x', siteId: 123456 });
    expect((await h.api.sites.actions.list()).map((a) => a.name)).toContain('custom.thing');
  });
});

describe('reports', () => {
  it('performance report: both devices, scores 0 to 1, stable per site', async () => {
    const r = await h.call('GET', '/sites/123456/reports/performance/latest');
    expect(specProblems('getSitePerformanceReport', r.status, r.body)).toEqual([]);
    const report = await h.api.sites.reports.performance(123456);
    expect(report).toEqual(r.body.data);
    expect(report.desktop_report.final_url).toBe('https://ada-blog.example.com/');
    expect(report.mobile_report.thumbnail_location).toMatch(/mobile/);
    for (const d of [report.desktop_report, report.mobile_report]) {
      for (const c of ['performance', 'accessibility', 'best_practices', 'seo'] as const) {
        expect(d[`${c}_score`]).toBeGreaterThanOrEqual(0);
        expect(d[`${c}_score`]).toBeLessThanOrEqual(1);
      }
    }
    expect(Number(report.mobile_report.largest_contentful_paint_numeric_value)).toBeGreaterThan(
      Number(report.desktop_report.largest_contentful_paint_numeric_value),
    );
    expect(await h.api.sites.reports.performance(123456)).toEqual(report);
    expect(await status(h.api.sites.reports.performance(999999))).toBe(404);
  });

  it('usage report: monthly cycles since creation, storage in GiB', async () => {
    const usage = await h.api.sites.reports.usage(123456);
    const r = await h.call('GET', '/sites/123456/reports/usage');
    expect(specProblems('getSiteUsageReport', r.status, r.body)).toEqual([]);
    // The site was created 90 days ago: one cycle per calendar month since then, newest first.
    const month = (back: number, day = 1) => {
      const d = new Date(now());
      return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back, day));
    };
    const created = Date.parse((await h.api.sites.get(123456)).created);
    const expected: string[] = [];
    for (let back = 0; month(back - 1).getTime() > created; back++)
      expected.push(month(back).toISOString().slice(0, 10));
    expect(usage.map((u) => u.billing_cycle.start_date)).toEqual(expected);
    expect(usage.length).toBeGreaterThanOrEqual(3);
    const last = month(0, 0).toISOString().slice(0, 10); // day 0 of this month: the last day of the previous one
    expect(usage[1]!.billing_cycle.end_date).toBe(last);
    const gib = (52_428_800 + 8_388_608) / 1024 ** 3;
    for (const { billing_cycle: c } of usage) {
      expect(c.site).toMatchObject({ id: 123456, name: 'ada-blog', url: 'https://ada-blog.example.com' });
      expect(c.total_daily_average_storage_usage_in_gigabytes).toBeGreaterThan(gib * 0.89);
      expect(c.total_daily_average_storage_usage_in_gigabytes).toBeLessThanOrEqual(gib * 1.0001);
    }
    const site = await h.api.sites.create({ name: 'brand-new' });
    expect(await h.api.sites.reports.usage(site.id)).toHaveLength(1);
  });
});

describe('metrics', () => {
  it('echoes the search and answers one period per resolution step', async () => {
    const m = await h.api.sites.metrics.query(123456, {
      start_at: '24h',
      metrics: ['requests_persec'],
      dimensions: ['page_is_cached'],
    });
    expect(m).toMatchObject({
      id: 123456,
      name: 'ada-blog',
      displayName: 'Ada Lovelace Blog',
      url: 'https://ada-blog.example.com',
    });
    const hour = Math.floor(now() / 3_600_000) * 3_600_000; // the clock only moves forward between tests
    expect(m.search).toEqual({
      startAt: new Date(hour - DAY).toISOString(),
      endAt: new Date(hour).toISOString(),
      resolution: 3600,
      metrics: ['requests_persec'],
      dimensions: ['page_is_cached'],
    });
    expect(m.periods).toHaveLength(24);
    expect(m.periods[0]!.timestamp).toBe((hour - DAY) / 1000);
    expect(m.periods.at(-1)!.timestamp).toBe((hour - 3_600_000) / 1000);
    const cached = m.periods[0]!.page_is_cached as Record<string, Record<string, number>>;
    expect(Object.keys(cached.requests_persec!)).toEqual(['true', 'false']);
    const week = await h.api.sites.metrics.query(123456, {
      start_at: '7d',
      metrics: ['requests_persec', 'response_bytes_persec'],
      dimensions: ['page_is_cached', 'http_status'],
    });
    expect(week.search.resolution).toBe(86_400);
    expect(week.periods).toHaveLength(7);
    expect(Object.keys(week.periods[0]!).sort()).toEqual(['http_status', 'page_is_cached', 'timestamp']);
    const r = await h.call('POST', '/sites/123456/metrics', { start_at: '1h' });
    expect(specProblems('querySiteMetrics', r.status, r.body)).toEqual([]);
    expect(r.body.data.search.resolution).toBe(60);
    expect(r.body.data.periods).toHaveLength(60);
  });

  it('refuses unknown names and ranges, with the field named', async () => {
    for (const [body, field] of [
      [{ start_at: 'yesterday-ish' }, 'body.start_at'],
      [{ start_at: '90d' }, 'body.start_at'],
      [{ metrics: ['bogus'] }, 'body.metrics.0'],
      [{ metrics: [] }, 'body.metrics'],
      [{ dimensions: ['colour'] }, 'body.dimensions.0'],
      [{ metrics: 'requests_persec' }, 'body.metrics'],
    ] as const) {
      const r = await h.call('POST', '/sites/123456/metrics', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(errorEnvelope(r).errors?.[0]?.startsWith(`${field}:`), JSON.stringify(r.body)).toBe(true);
      expect(specProblems('querySiteMetrics', r.status, r.body)).toEqual([]);
    }
    expect(await status(h.api.sites.metrics.query(999999, {}))).toBe(404);
  });
});
