// DNS: zones (list), records (list, add, delete; a record whose value points at a site is attached
// to it, which blocks that site's live → staging/sandbox conversions, and staging/sandbox sites
// cannot get records), email-provider records, SSL details and retries (A records only), and
// domain setup share links.
import { type Ctx, defineArea } from '../area.js';
import { badRequest, notFound } from '../errors.js';
import { type DnsRecordRecord, nextId, type SandboxState, type SiteRecord, type ZoneRecord } from '../state.js';
import type { OpData, OperationId, Schema } from '../types.js';

/** Virtual duration of an SSL provisioning retry. */
export const SSL_RETRY_MS = 30_000;
export const SSL_VALIDITY_DAYS = 90;
const DAY = 86_400_000;

/** Record types the sandbox accepts (A, CNAME and TXT are the seed's; the others are common types). */
export const RECORD_TYPES = ['A', 'AAAA', 'CAA', 'CNAME', 'MX', 'NS', 'SRV', 'TXT'] as const;

/** Email provider keys (the real keys are not documented; `example-mail` is the spec's example). */
export const EMAIL_PROVIDERS: Record<string, { type: string; value: string; priority: number | null; ttl: number }[]> =
  {
    'example-mail': [
      { type: 'MX', value: 'mx1.mail.example.net', priority: 10, ttl: 3600 },
      { type: 'MX', value: 'mx2.mail.example.net', priority: 20, ttl: 3600 },
      { type: 'TXT', value: 'v=spf1 include:_spf.mail.example.net ~all', priority: null, ttl: 3600 },
    ],
  };

export const SSL_NOT_A_RECORD = 'SSL can only be retried on A records';
export const NO_SSL_INFORMATION = 'No information found';

const isIpv4 = (v: string) =>
  /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.test(v) &&
  v.split('.').every((o) => Number(o) <= 255 && String(Number(o)) === o);
const isIpv6 = (v: string) =>
  v.includes(':') && /^[0-9a-fA-F:.]+$/.test(v) && v.split('::').length <= 2 && v.length <= 45;
const HOST = /^(?=.{1,253}$)(\*\.)?([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const isHostname = (v: string) => HOST.test(v);
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

const recordView = ({ ssl: _ssl, ...record }: DnsRecordRecord): Schema<'DnsRecord'> => ({ ...record });

export function zoneView(state: SandboxState, zone: ZoneRecord): Schema<'Zone'> {
  return {
    id: zone.id,
    name: zone.name,
    created: zone.created,
    updated: zone.updated,
    records: state.dnsRecords
      .filter((r) => r.zoneId === zone.id)
      .sort((a, b) => a.id - b.id)
      .map(recordView),
  };
}

function findZone(state: SandboxState, zoneId: number): ZoneRecord {
  const zone = state.zones.find((z) => z.id === zoneId);
  if (!zone) throw notFound();
  return zone;
}

function findRecord(ctx: Pick<Ctx<OperationId>, 'state'> & { params: { zone_id: number; record_id: number } }) {
  const zone = findZone(ctx.state, ctx.params.zone_id);
  const record = ctx.state.dnsRecords.find((r) => r.id === ctx.params.record_id && r.zoneId === zone.id);
  if (!record) throw notFound();
  return { zone, record };
}

/** Part 3: staging and sandbox sites cannot get DNS records or domains; every other site can. */
const isLive = (site: SiteRecord) => !site.staging && !site.sandbox;
const hostOf = (url: string) =>
  url
    .replace(/^https?:\/\//, '')
    .replace(/\/.*$/, '')
    .toLowerCase();

/**
 * The site a record points at: an A record holding one of the site's IP addresses, or a CNAME to
 * the site's platform host name. Such a record is attached to the site (`siteId`), which is what the
 * site conversions check.
 */
export function siteForRecord(state: SandboxState, type: string, value: string): SiteRecord | undefined {
  const v = value.trim().toLowerCase().replace(/\.$/, '');
  if (type === 'A') return state.sites.find((s) => [s.ipAddress, s.ipAddressOne, s.ipAddressTwo].includes(v));
  if (type === 'CNAME') return state.sites.find((s) => hostOf(s.url) === v);
  return undefined;
}

/** The record's name inside the zone: `@` or empty is the apex; other names must be the zone or under it. */
function nameInZone(zone: ZoneRecord, raw: string): string {
  const name = raw.trim().toLowerCase().replace(/\.$/, '');
  if (name === '' || name === '@') return zone.name;
  if (name !== zone.name && !name.endsWith(`.${zone.name}`)) {
    throw badRequest(`body.name: must be ${zone.name} or a name under it`);
  }
  if (!isHostname(name)) throw badRequest(`body.name: ${raw} is not a valid DNS name`);
  return name;
}

function checkValue(type: string, raw: string): string {
  const value = raw.trim();
  if (value === '') throw badRequest('body.value: required');
  const ok =
    type === 'A'
      ? isIpv4(value)
      : type === 'AAAA'
        ? isIpv6(value)
        : type === 'CNAME' || type === 'NS' || type === 'MX'
          ? isHostname(value.toLowerCase().replace(/\.$/, ''))
          : value.length <= 4096;
  if (!ok) {
    const what =
      type === 'A'
        ? 'an IPv4 address'
        : type === 'AAAA'
          ? 'an IPv6 address'
          : type === 'TXT'
            ? 'at most 4096 characters'
            : 'a host name';
    throw badRequest(`body.value: a ${type} record needs ${what}`);
  }
  return type === 'CNAME' || type === 'NS' || type === 'MX' ? value.toLowerCase().replace(/\.$/, '') : value;
}

/** Part 3: staging and sandbox sites (including kits) cannot get DNS records. */
function checkSiteAcceptsRecords(site: SiteRecord | undefined) {
  if (site && !isLive(site)) {
    const kind = site.kit ? 'kit' : site.staging ? 'staging' : 'sandbox';
    throw badRequest(`Site ${site.name} is a ${kind} site: DNS records can only be added for live sites.`);
  }
}

const sameRecord = (
  a: { type: string; name: string; value: string },
  b: { type: string; name: string; value: string },
) => a.type === b.type && a.name === b.name && a.value.toLowerCase() === b.value.toLowerCase();

/** A deterministic UUID-shaped job id from a counter. */
const jobId = (n: number) => `5f1c2a9e-3b7d-4e08-9a61-${n.toString(16).padStart(12, '0')}`;

export default defineArea({
  listZones: ({ state }) => ({
    data: [...state.zones].sort((a, b) => a.id - b.id).map((z) => ({ id: z.id, name: z.name, created: z.created })),
  }),

  listZoneRecords: ({ params, state }) => ({ data: zoneView(state, findZone(state, params.zone_id)) }),

  createZoneRecord: (ctx) => {
    const { body, state } = ctx;
    const zone = findZone(state, ctx.params.zone_id);
    const type = body.type.trim().toUpperCase();
    if (!(RECORD_TYPES as readonly string[]).includes(type)) {
      throw badRequest(`body.type: must be one of ${RECORD_TYPES.join(', ')}`);
    }
    const name = nameInZone(zone, body.name);
    const value = checkValue(type, body.value);
    if (!Number.isInteger(body.ttl) || body.ttl < 1) throw badRequest('body.ttl: must be a positive number of seconds');
    if (state.dnsRecords.some((r) => r.zoneId === zone.id && sameRecord(r, { type, name, value }))) {
      throw badRequest('body: the zone already has this record');
    }
    const site = siteForRecord(state, type, value);
    checkSiteAcceptsRecords(site);
    const now = ctx.rt.clock.nowIso();
    state.dnsRecords.push({
      id: nextId(state, 'dnsRecord'),
      zoneId: zone.id,
      primary: false,
      type,
      name,
      value,
      priority: null,
      weight: null,
      port: null,
      ttl: body.ttl,
      siteId: site?.id ?? null,
      created: now,
      ssl: null,
    });
    zone.updated = now;
    return { data: zoneView(state, zone) };
  },

  deleteZoneRecord: (ctx) => {
    const { zone, record } = findRecord(ctx);
    ctx.state.dnsRecords = ctx.state.dnsRecords.filter((r) => r !== record);
    zone.updated = ctx.rt.clock.nowIso();
    return { data: zoneView(ctx.state, zone) };
  },

  createZoneProviderRecords: (ctx) => {
    const { body, state } = ctx;
    const zone = findZone(state, ctx.params.zone_id);
    const provider = body.provider.trim().toLowerCase();
    // Own keys only: "constructor" is no provider.
    const records = Object.hasOwn(EMAIL_PROVIDERS, provider) ? EMAIL_PROVIDERS[provider] : undefined;
    if (!records) {
      throw badRequest(
        `body.provider: unknown email provider ${body.provider}; known: ${Object.keys(EMAIL_PROVIDERS).join(', ')}`,
      );
    }
    const now = ctx.rt.clock.nowIso();
    for (const r of records) {
      const wanted = { type: r.type, name: zone.name, value: r.value };
      // Records already in the zone are not duplicated: repeating the request changes nothing.
      if (state.dnsRecords.some((x) => x.zoneId === zone.id && sameRecord(x, wanted))) continue;
      state.dnsRecords.push({
        id: nextId(state, 'dnsRecord'),
        zoneId: zone.id,
        primary: false,
        ...wanted,
        priority: r.priority,
        weight: null,
        port: null,
        ttl: r.ttl,
        siteId: null,
        created: now,
        ssl: null,
      });
      zone.updated = now;
    }
    return { data: null };
  },

  getZoneRecordSsl: (ctx) => {
    const { record } = findRecord(ctx);
    if (record.type !== 'A' || !record.ssl) return { data: {}, message: NO_SSL_INFORMATION };
    // The details are an open object in the spec (their fields are not documented).
    return { data: structuredClone(record.ssl) as OpData<'getZoneRecordSsl'> };
  },

  retryZoneRecordSsl: (ctx) => {
    const { record } = findRecord(ctx);
    if (record.type !== 'A') throw badRequest(SSL_NOT_A_RECORD);
    const { rt } = ctx;
    const previous = record.ssl;
    record.ssl = { ...(previous ?? {}), status: 'pending', retried_at: rt.clock.nowIso() };
    const id = record.id;
    rt.later(SSL_RETRY_MS, `ssl retry for record ${id}`, () => {
      const current = rt.state.dnsRecords.find((r) => r.id === id);
      if (current?.ssl?.status !== 'pending') return;
      const now = rt.clock.now();
      current.ssl = {
        status: 'active',
        issuer: 'Example CA',
        issued_at: new Date(now).toISOString(),
        expires_at: new Date(now + SSL_VALIDITY_DAYS * DAY).toISOString(),
      };
    });
    return { data: null };
  },

  createSiteDomainSetupLink: (ctx) => {
    const { body, state, rt } = ctx;
    const site = ctx.site(ctx.params.site_id);
    const name = body.name.trim().toLowerCase().replace(/\.$/, '');
    if (!DOMAIN.test(name)) throw badRequest(`body.name: ${body.name} is not a valid domain name`);
    // Part 3: domains may be added once a site is live.
    if (!isLive(site))
      throw badRequest(`Site ${site.name} is not a live site: domains can only be added to live sites.`);
    const job = jobId(nextId(state, 'domainSetupLink', 1));
    const link = {
      sharable_link: `https://hosting.example.com/domain-setup/${job}`,
      job_id: job,
      status: 'link_created',
      created_at: rt.clock.nowIso(),
    };
    state.domainSetupLinks.push({ ...link, siteId: site.id, name });
    return { data: link };
  },
});
