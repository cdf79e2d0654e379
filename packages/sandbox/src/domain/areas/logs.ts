// Logs, reports, metrics: PHP and web server logs (GET with an optional JSON body, 200 entries per
// page through scroll_id, 7-day retention), the site activity log (the account area's search,
// 30-day retention), the site actions list, the performance and usage reports and metrics.
//
// Log entries, reports and metrics are synthetic but deterministic: they derive from the site's
// seeded fields (id, name, url, creation time, storage use) and the virtual clock, so they need
// no state, appear only after the site was created, and age out as the clock moves.
import { decodeBase64url, encodeBase64url } from '../../platform.js';
import { siteActions } from '../actions.js';
import { type Ctx, defineArea } from '../area.js';
import { badRequest } from '../errors.js';
import type { SiteRecord } from '../state.js';
import type { Schema } from '../types.js';
import { SITE_LOG_RETENTION_DAYS, searchActivity } from './account.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Part 8: PHP and server logs keep 7 days and answer 200 entries per page. */
export const SERVER_LOG_RETENTION_DAYS = 7;
export const LOG_PAGE_SIZE = 200;
/** One synthetic PHP log entry per 20 minutes, one access log entry per 5 minutes. */
const PHP_LOG_EVERY = 20 * MINUTE;
const SERVER_LOG_EVERY = 5 * MINUTE;

// ---- deterministic numbers ----------------------------------------------------------------

/** A 32-bit hash of integers (stable across runs): the source of every synthetic value. */
function hash(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    // Both 32-bit halves, so epoch milliseconds hash fully.
    for (const word of [Math.floor(part) | 0, Math.floor(part / 2 ** 32) | 0]) {
      h = Math.imul(h ^ (word & 0xffff), 0x01000193);
      h = Math.imul(h ^ (word >>> 16), 0x01000193);
    }
  }
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h >>> 0;
}
/** A number in [0, 1) from the hash. */
const unit = (...parts: number[]) => hash(...parts) / 2 ** 32;
const pick = <T>(items: readonly T[], ...parts: number[]): T => items[hash(...parts) % items.length] as T;
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

// ---- synthetic log entries ------------------------------------------------------------------

type PhpEntry = Schema<'PhpLogEntry'>;
type ServerEntry = Schema<'ServerLogEntry'>;

const PHP_PROBLEMS = [
  {
    severity: 'Warning',
    name: 'E_WARNING',
    message: 'Undefined array key "title"',
    file: '/srv/htdocs/wp-content/themes/storefront/functions.php',
    line: 118,
  },
  {
    severity: 'Warning',
    name: 'E_WARNING',
    message: 'Attempt to read property "ID" on null',
    file: '/srv/htdocs/wp-content/plugins/contact-form/includes/form.php',
    line: 204,
  },
  {
    severity: 'Warning',
    name: 'E_WARNING',
    message: 'foreach() argument must be of type array|object, null given',
    file: '/srv/htdocs/wp-content/plugins/seo-tools/seo-tools.php',
    line: 77,
  },
  {
    severity: 'Notice',
    name: 'E_NOTICE',
    message: 'Function is_home was called incorrectly',
    file: '/srv/htdocs/wp-includes/functions.php',
    line: 6031,
  },
  {
    severity: 'Deprecated',
    name: 'E_DEPRECATED',
    message: 'Creation of dynamic property Widget::$cache is deprecated',
    file: '/srv/htdocs/wp-content/themes/storefront/inc/widgets.php',
    line: 42,
  },
  {
    severity: 'Fatal error',
    name: 'E_ERROR',
    message: 'Allowed memory size of 268435456 bytes exhausted',
    file: '/srv/htdocs/wp-includes/class-wpdb.php',
    line: 2351,
  },
] as const;
/** Indexes into PHP_PROBLEMS: warnings most often, fatal errors rarest. */
const PHP_WEIGHTS = [0, 1, 2, 0, 1, 2, 0, 3, 3, 4, 4, 5];

function phpEntry(site: SiteRecord, at: number): PhpEntry {
  const p = PHP_PROBLEMS[pick(PHP_WEIGHTS, site.id, at, 1)]!;
  return {
    message: p.message,
    severity: p.severity,
    kind: 'php',
    name: p.name,
    file: p.file,
    line: p.line,
    timestamp: new Date(at + (hash(site.id, at, 3) % 60_000)).toISOString(),
    atomic_site_id: site.id,
  };
}

const CLIENT_IPS = ['203.0.113.24', '198.51.100.14', '192.0.2.77', '203.0.113.90', '2001:db8::5'];
const AGENTS = [
  'Mozilla/5.0 (X11; Linux x86_64)',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5)',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X)',
  'Googlebot/2.1 (+http://www.google.com/bot.html)',
];
const REQUESTS: { type: string; url: string; status: number; renderer: string }[] = [
  { type: 'GET', url: '/', status: 200, renderer: 'php' },
  { type: 'GET', url: '/', status: 200, renderer: 'php' },
  { type: 'GET', url: '/blog/', status: 200, renderer: 'php' },
  { type: 'GET', url: '/wp-content/uploads/2026/10/header.jpg', status: 200, renderer: 'static' },
  { type: 'GET', url: '/wp-content/themes/storefront/style.css', status: 304, renderer: 'static' },
  { type: 'GET', url: '/old-page/', status: 301, renderer: 'php' },
  { type: 'GET', url: '/missing-page/', status: 404, renderer: 'php' },
  { type: 'POST', url: '/wp-admin/admin-ajax.php', status: 200, renderer: 'php' },
  { type: 'POST', url: '/wp-login.php', status: 200, renderer: 'php' },
  { type: 'HEAD', url: '/', status: 200, renderer: 'php' },
  { type: 'GET', url: '/checkout/', status: 500, renderer: 'php' },
];

function serverEntry(site: SiteRecord, at: number): ServerEntry {
  const r = pick(REQUESTS, site.id, at, 11);
  const ip = pick(CLIENT_IPS, site.id, at, 12);
  const time = at + (hash(site.id, at, 13) % 60_000);
  const host = new URL(site.url).host;
  const cached = r.renderer === 'static' || (r.type === 'GET' && r.status === 200 && unit(site.id, at, 14) < 0.6);
  return {
    body_bytes_sent: r.type === 'HEAD' || r.status === 304 ? 0 : 512 + (hash(site.id, at, 15) % 90_000),
    cached: String(cached),
    date: new Date(time).toISOString(),
    http2: String(unit(site.id, at, 16) < 0.8),
    http_host: host,
    http_referer: unit(site.id, at, 17) < 0.5 ? `${site.url}/` : '',
    http_user_agent: pick(AGENTS, site.id, at, 18),
    http_version: 'HTTP/2.0',
    http_x_forwarded_for: ip,
    renderer: r.renderer,
    request_completion: 'OK',
    request_time: cached
      ? round(0.001 + unit(site.id, at, 19) * 0.01, 3)
      : round(0.05 + unit(site.id, at, 19) * 0.6, 3),
    request_type: r.type,
    request_url: r.url,
    scheme: 'https',
    status: r.status,
    timestamp: Math.floor(time / 1000),
    type: 'access',
    user_ip: ip,
  };
}

// ---- log reads through scroll_id -------------------------------------------------------------

interface LogKind<E, F> {
  kind: 'php' | 'server';
  every: number;
  entry: (site: SiteRecord, at: number) => E;
  filtersOf: (body: Record<string, unknown>) => F;
  matches: (entry: E, filters: F) => boolean;
}

type PhpFilters = { status?: string };
type ServerFilters = { status?: string; request_type?: string; user_ip?: string };

const PHP_LOG: LogKind<PhpEntry, PhpFilters> = {
  kind: 'php',
  every: PHP_LOG_EVERY,
  entry: phpEntry,
  filtersOf: (b) => (b.status !== undefined ? { status: String(b.status) } : {}),
  matches: (e, f) => f.status === undefined || e.severity.toLowerCase() === f.status.toLowerCase(),
};

const SERVER_LOG: LogKind<ServerEntry, ServerFilters> = {
  kind: 'server',
  every: SERVER_LOG_EVERY,
  entry: serverEntry,
  filtersOf: (b) => {
    const f: ServerFilters = {};
    if (b.status !== undefined) f.status = String(b.status);
    if (b.request_type !== undefined) f.request_type = String(b.request_type);
    if (b.user_ip !== undefined) f.user_ip = String(b.user_ip);
    return f;
  },
  matches: (e, f) =>
    (f.status === undefined || String(e.status) === f.status.trim()) &&
    (f.request_type === undefined || e.request_type.toLowerCase() === f.request_type.toLowerCase()) &&
    (f.user_ip === undefined || e.user_ip === f.user_ip.trim()),
};

/** What a scroll_id carries: the search (site, log, filters, snapshot time) and the position. */
interface Scroll {
  v: 1;
  kind: 'php' | 'server';
  site: number;
  filters: Record<string, string>;
  /** Snapshot: entries after this time (epoch ms) belong to a new search. */
  until: number;
  /** Entries older than this slot (epoch ms) come next. */
  before: number;
}

const encodeScroll = (s: Scroll) => encodeBase64url(JSON.stringify(s));

function decodeScroll(text: string, kind: 'php' | 'server', siteId: number): Scroll {
  const invalid = () =>
    badRequest(
      `body.scroll_id: not a scroll_id of this site's ${kind === 'php' ? 'PHP' : 'server'} log; send the scroll_id of the previous page`,
    );
  let s: Partial<Scroll>;
  try {
    s = JSON.parse(decodeBase64url(text)) as Partial<Scroll>;
  } catch {
    throw invalid();
  }
  if (
    typeof s !== 'object' ||
    s === null ||
    s.v !== 1 ||
    s.kind !== kind ||
    s.site !== siteId ||
    typeof s.until !== 'number' ||
    typeof s.before !== 'number' ||
    !Number.isFinite(s.until) ||
    !Number.isFinite(s.before) ||
    typeof s.filters !== 'object' ||
    s.filters === null ||
    Array.isArray(s.filters) ||
    !Object.values(s.filters).every((v) => typeof v === 'string')
  ) {
    throw invalid();
  }
  return s as Scroll;
}

/**
 * One page of a log: newest first, 200 entries, within the 7-day retention and after the site's
 * creation. The first read fixes the search (filters, snapshot time) in its scroll_id; a
 * continuation follows the scroll's search (filters sent alongside it are not re-applied).
 */
function readLog<E, F>(log: LogKind<E, F>, site: SiteRecord, now: number, body: Record<string, unknown> | undefined) {
  const input = body ?? {};
  let scroll: Scroll;
  if (typeof input.scroll_id === 'string' && input.scroll_id !== '') {
    scroll = decodeScroll(input.scroll_id, log.kind, site.id);
  } else {
    const filters = log.filtersOf(input) as Record<string, string>;
    scroll = { v: 1, kind: log.kind, site: site.id, filters, until: now, before: Infinity };
  }
  const filters = scroll.filters as F;
  const oldest = Math.max(now - SERVER_LOG_RETENTION_DAYS * DAY, Date.parse(site.created));
  const first = Math.ceil(oldest / log.every) * log.every;
  const last = Math.floor(scroll.until / log.every) * log.every;
  let total = 0;
  const page: E[] = [];
  let before = scroll.before;
  for (let at = last; at >= first; at -= log.every) {
    const entry = log.entry(site, at);
    if (!log.matches(entry, filters)) continue;
    total++;
    if (at < scroll.before && page.length < LOG_PAGE_SIZE) {
      page.push(entry);
      before = at;
    }
  }
  const next: Scroll = { ...scroll, before: page.length ? before : Math.min(scroll.before, first) };
  return { total_results: total, logs: page, scroll_id: encodeScroll(next) };
}

/** A log read for a request: its site, the virtual now and its filter body. */
const readLogOf = <E, F>(log: LogKind<E, F>, ctx: Ctx<'listSitePhpLogs' | 'listSiteServerLogs'>) =>
  readLog(log, ctx.site(ctx.params.site_id), ctx.rt.clock.now(), ctx.body as Record<string, unknown> | undefined);

// ---- reports --------------------------------------------------------------------------------

const CATEGORIES = [
  ['performance', 'Performance'],
  ['accessibility', 'Accessibility'],
  ['best_practices', 'Best practices'],
  ['seo', 'SEO'],
] as const;

/** The audit metrics: title, description, unit, and a typical desktop value. */
const METRICS = [
  [
    'first_contentful_paint',
    'First Contentful Paint',
    'First Contentful Paint marks the time at which the first text or image is painted.',
    'millisecond',
    900,
  ],
  [
    'interactive',
    'Time to Interactive',
    'Time to Interactive is the amount of time it takes for the page to become fully interactive.',
    'millisecond',
    1400,
  ],
  [
    'speed_index',
    'Speed Index',
    'Speed Index shows how quickly the contents of a page are visibly populated.',
    'millisecond',
    1100,
  ],
  [
    'total_blocking_time',
    'Total Blocking Time',
    'Sum of all time periods between FCP and Time to Interactive when task length exceeded 50ms.',
    'millisecond',
    30,
  ],
  [
    'largest_contentful_paint',
    'Largest Contentful Paint',
    'Largest Contentful Paint marks the time at which the largest text or image is painted.',
    'millisecond',
    1200,
  ],
  [
    'cumulative_layout_shift',
    'Cumulative Layout Shift',
    'Cumulative Layout Shift measures the movement of visible elements within the viewport.',
    'unitless',
    0.02,
  ],
  [
    'server_response_time',
    'Initial server response time was short',
    'Keep the server response time for the main document short because all other requests depend on it.',
    'millisecond',
    120,
  ],
] as const;

function displayValue(metric: string, value: number): string {
  if (metric === 'cumulative_layout_shift') return value.toFixed(3);
  if (metric === 'server_response_time') return `Root document took ${Math.round(value)} ms`;
  if (metric === 'total_blocking_time') return `${Math.round(value)} ms`;
  return `${(value / 1000).toFixed(1)} s`;
}

function deviceReport(site: SiteRecord, device: 'desktop' | 'mobile', at: string): Schema<'PerformanceReportDevice'> {
  const d = device === 'desktop' ? 1 : 2;
  const slowdown = device === 'desktop' ? 1 : 2.6; // mobile audits throttle CPU and network
  const report: Record<string, string | number> = {
    created_at: at,
    updated_at: at,
    final_url: `${site.url}/`,
    thumbnail_location: `https://screenshots.example.com/${site.id}/${device}.jpg`,
    fetch_time: at,
    lighthouse_version: '12.2.1',
  };
  const metricScores: number[] = [];
  METRICS.forEach(([key, title, description, unitName, typical], i) => {
    const value = typical * slowdown * (0.7 + unit(site.id, d, i, 21) * 0.8);
    // Score falls from 1 as the value grows past the typical desktop value.
    const score = round(Math.max(0, Math.min(1, 1.25 - (value / typical) * 0.3)), 2);
    metricScores.push(score);
    report[`${key}_title`] = title;
    report[`${key}_description`] = description;
    report[`${key}_score`] = score;
    report[`${key}_display_value`] = displayValue(key, value);
    report[`${key}_numeric_value`] = String(round(value, unitName === 'unitless' ? 4 : 1));
    report[`${key}_numeric_unit`] = unitName;
  });
  const performance = round(metricScores.reduce((a, b) => a + b, 0) / metricScores.length, 2);
  CATEGORIES.forEach(([key, title], i) => {
    report[`${key}_score`] = key === 'performance' ? performance : round(0.8 + unit(site.id, i, 22) * 0.2, 2);
    report[`${key}_title`] = title;
  });
  return report as unknown as Schema<'PerformanceReportDevice'>;
}

/** The latest audit runs daily at midnight UTC (or right after the site was created). */
function performanceReport(site: SiteRecord, now: number): Schema<'PerformanceReport'> {
  const at = new Date(Math.min(now, Math.max(Math.floor(now / DAY) * DAY, Date.parse(site.created)))).toISOString();
  return { desktop_report: deviceReport(site, 'desktop', at), mobile_report: deviceReport(site, 'mobile', at) };
}

const GIB = 1024 ** 3;
const MAX_BILLING_CYCLES = 12;
const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Monthly billing cycles from the site's creation to now (at most 12), newest first. Storage is
 * the site's file system plus database use in GiB; visits are synthetic per cycle, counted up to
 * now for the current cycle.
 */
function usageReport(site: SiteRecord, now: number): Schema<'UsageReportEntry'>[] {
  const created = Date.parse(site.created);
  const storage = (site.fileSystemUsageBytes + site.databaseUsageBytes) / GIB;
  const entries: Schema<'UsageReportEntry'>[] = [];
  const today = new Date(now);
  for (let back = 0; back < MAX_BILLING_CYCLES; back++) {
    const start = Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - back, 1);
    const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - back + 1, 1);
    if (end <= created) break;
    const from = Math.max(start, created);
    const to = Math.min(end, now);
    const days = Math.max(1, Math.ceil((to - from) / DAY));
    const perDay = 150 + (hash(site.id, start, 31) % 900);
    const visits = Math.round(perDay * ((to - from) / DAY));
    const stored = round(storage * (0.9 + unit(site.id, start, 32) * 0.1), 4);
    entries.push({
      billing_cycle: {
        start_date: ymd(start),
        end_date: ymd(end - DAY),
        total_daily_average_storage_usage_in_gigabytes: stored,
        total_unique_visits: visits,
        site: {
          id: site.id,
          name: site.name,
          url: site.url,
          daily_average_visits: round(visits / days, 1),
          daily_average_storage_usage_in_gigabytes: stored,
        },
      },
    });
  }
  return entries;
}

// ---- metrics --------------------------------------------------------------------------------

/** Metric names the sandbox knows, with a typical value (per second). */
export const METRIC_NAMES: Record<string, number> = {
  requests_persec: 2.5,
  response_bytes_persec: 180_000,
  response_time_average: 0.21,
  php_requests_persec: 0.9,
};
/** Dimension names the sandbox knows, with their values and each value's share. */
export const DIMENSIONS: Record<string, [string, number][]> = {
  page_is_cached: [
    ['true', 0.8],
    ['false', 0.2],
  ],
  http_status: [
    ['200', 0.86],
    ['301', 0.04],
    ['304', 0.05],
    ['404', 0.04],
    ['500', 0.01],
  ],
  http_verb: [
    ['GET', 0.92],
    ['POST', 0.07],
    ['HEAD', 0.01],
  ],
  renderer: [
    ['php', 0.35],
    ['static', 0.65],
  ],
};
const MAX_METRICS_RANGE = 30 * DAY;
const DEFAULT_START_AT = '24h';

/** start_at: a relative period label (`30m`, `24h`, `7d`, up to 30 days) or a past ISO time. */
function rangeStart(startAt: string, now: number): number {
  const m = /^(\d{1,6})\s*(m|h|d)$/.exec(startAt.trim());
  const fail = () =>
    badRequest(
      'body.start_at: send a relative period such as 1h, 24h or 7d (at most 30d) or an ISO 8601 time within the last 30 days',
    );
  let start: number;
  if (m) start = now - Number(m[1]) * { m: MINUTE, h: HOUR, d: DAY }[m[2] as 'm' | 'h' | 'd'];
  else if (/^\d{4}-\d{2}-\d{2}/.test(startAt) && Number.isFinite(Date.parse(startAt))) start = Date.parse(startAt);
  else throw fail();
  if (start >= now || now - start > MAX_METRICS_RANGE) throw fail();
  return start;
}

/** Periods: 1 minute up to 2 hours, 1 hour up to 2 days, 1 day beyond (seconds). */
const resolutionFor = (range: number) => (range <= 2 * HOUR ? 60 : range <= 2 * DAY ? 3600 : 86_400);

function checkNames(
  list: string[] | undefined,
  known: Record<string, unknown>,
  field: string,
  fallback: string[],
): string[] {
  const names = list ?? fallback;
  if (names.length === 0) throw badRequest(`body.${field}: name at least one of ${Object.keys(known).join(', ')}`);
  names.forEach((n, i) => {
    if (!Object.hasOwn(known, n))
      throw badRequest(
        `body.${field}.${i}: unknown ${field.replace(/s$/, '')} ${n}; known: ${Object.keys(known).join(', ')}`,
      );
  });
  return [...new Set(names)];
}

function metricsResult(ctx: Ctx<'querySiteMetrics'>, site: SiteRecord): Schema<'MetricsResult'> {
  const body = ctx.body ?? {};
  const now = ctx.rt.clock.now();
  const startAt = body.start_at ?? DEFAULT_START_AT;
  const metrics = checkNames(body.metrics, METRIC_NAMES, 'metrics', ['requests_persec']);
  const dimensions = checkNames(body.dimensions, DIMENSIONS, 'dimensions', ['page_is_cached']);
  const start = rangeStart(startAt, now);
  const resolution = resolutionFor(now - start);
  const step = resolution * 1000;
  const endAt = Math.floor(now / step) * step;
  const startAligned = endAt - Math.ceil((now - start) / step) * step;
  const created = Date.parse(site.created);
  const periods: Schema<'MetricsPeriod'>[] = [];
  for (let t = startAligned; t < endAt; t += step) {
    const period = { timestamp: Math.floor(t / 1000) } as Schema<'MetricsPeriod'>;
    // Daily traffic curve: quiet at night (UTC), busy in the afternoon.
    const hour = new Date(t).getUTCHours();
    const curve = 0.55 + 0.45 * Math.sin(((hour - 9) / 24) * 2 * Math.PI);
    for (const dimension of dimensions) {
      const byMetric: Record<string, Record<string, number>> = {};
      metrics.forEach((metric, mi) => {
        const values: Record<string, number> = {};
        DIMENSIONS[dimension]!.forEach(([value, share], vi) => {
          const typical = METRIC_NAMES[metric]!;
          const noise = 0.8 + unit(site.id, t, mi, vi, 41) * 0.4;
          const isAverage = metric === 'response_time_average';
          const v =
            t + step <= created
              ? 0
              : isAverage
                ? typical * noise * (value === 'true' || value === 'static' ? 0.05 : 1)
                : typical * share * curve * noise;
          values[value] = round(v, isAverage ? 3 : 2);
        });
        byMetric[metric] = values;
      });
      (period as Record<string, unknown>)[dimension] = byMetric;
    }
    periods.push(period);
  }
  return {
    id: site.id,
    name: site.name,
    displayName: site.displayName,
    url: site.url,
    search: {
      startAt: new Date(startAligned).toISOString(),
      endAt: new Date(endAt).toISOString(),
      resolution,
      metrics,
      dimensions,
    },
    periods,
  };
}

// ---- handlers ----------------------------------------------------------------------------------

export default defineArea({
  // GET with an optional JSON body: the core parses and validates it like any other body.
  listSitePhpLogs: (ctx) => ({ data: readLogOf(PHP_LOG, ctx) }),
  listSiteServerLogs: (ctx) => ({ data: readLogOf(SERVER_LOG, ctx) }),

  searchSiteActivityLogs: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    return searchActivity(ctx.state, ctx.rt.clock.now(), ctx.body, {
      siteId: site.id,
      retentionDays: SITE_LOG_RETENTION_DAYS,
    });
  },

  listSiteActivityActions: ({ state }) => ({ data: siteActions(state) }),

  getSitePerformanceReport: (ctx) => ({ data: performanceReport(ctx.site(ctx.params.site_id), ctx.rt.clock.now()) }),

  getSiteUsageReport: (ctx) => ({ data: usageReport(ctx.site(ctx.params.site_id), ctx.rt.clock.now()) }),

  querySiteMetrics: (ctx) => ({ data: metricsResult(ctx, ctx.site(ctx.params.site_id)) }),
});
