// DNS: zones and records through @hosting-api/client (responses validated by its schemas), records
// attached to sites and the conversions they block, provider records, SSL details and retries on
// the virtual clock, domain setup links.
import { describe, expect, it } from 'vitest';
import { NO_SSL_INFORMATION, SSL_NOT_A_RECORD, SSL_RETRY_MS } from '../src/domain/areas/dns.js';
import { errorEnvelope, status, useSandbox } from './helpers.js';
import { specProblems } from './spec-check.js';

const h = useSandbox();

const ipOf = (siteId: number) => h.sb.runtime.state.sites.find((s) => s.id === siteId)!.ipAddressOne;

describe('zones and records', () => {
  it('lists zones without records and a zone with its records', async () => {
    const zones = await h.call('GET', '/zones');
    expect(zones.body.data).toEqual([{ id: 5501, name: 'example.com', created: expect.any(String) }]);
    expect(specProblems('listZones', zones.status, zones.body)).toEqual([]);
    const zone = await h.call('GET', '/zones/5501/records');
    expect(specProblems('listZoneRecords', zone.status, zone.body)).toEqual([]);
    expect(zone.body.data.records.map((r: any) => [r.id, r.type, r.siteId])).toEqual([
      [880123, 'A', 123456],
      [880124, 'CNAME', null],
      [880125, 'TXT', null],
    ]);
    expect(zone.body.data.records[0]).not.toHaveProperty('ssl');
    const missing = await h.call('GET', '/zones/999/records');
    expect(missing.status).toBe(404);
    expect(specProblems('listZoneRecords', missing.status, missing.body)).toEqual([]);
  });

  it('adds a record (the zone is returned, updated) and deletes it', async () => {
    const before = await h.api.dns.records.list(5501);
    h.sb.advance(60_000);
    const zone = await h.api.dns.records.create(5501, {
      type: 'txt',
      name: 'mail.example.com.',
      value: 'v=DMARC1; p=none',
      ttl: 600,
    });
    const added = zone.records.at(-1)!;
    expect(added).toMatchObject({
      zoneId: 5501,
      type: 'TXT',
      name: 'mail.example.com',
      value: 'v=DMARC1; p=none',
      ttl: 600,
      siteId: null,
      primary: false,
      priority: null,
    });
    expect(zone.records).toHaveLength(before.records.length + 1);
    expect(Date.parse(zone.updated)).toBeGreaterThan(Date.parse(before.updated));
    await h.api.dns.records.create(5501, { type: 'CNAME', name: '@', value: 'Target.Example.net.', ttl: 300 });
    expect((await h.api.dns.records.list(5501)).records.at(-1)).toMatchObject({
      name: 'example.com',
      value: 'target.example.net',
    });

    const after = await h.api.dns.records.delete(5501, added.id);
    expect(after.records.map((r) => r.id)).not.toContain(added.id);
    expect((await h.call('DELETE', `/zones/5501/records/${added.id}`)).status).toBe(404);
    expect((await h.call('DELETE', '/zones/999/records/880123')).status).toBe(404);
  });

  it('refuses bad records with 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'example.com', value: 'x', ttl: 300 }, 'body.type'],
      [{ type: 'A', name: 'example.com', value: '192.0.2.1' }, 'body.ttl'],
      [{ type: 'BOGUS', name: 'example.com', value: 'x', ttl: 300 }, 'body.type'],
      [{ type: 'A', name: 'example.org', value: '192.0.2.1', ttl: 300 }, 'body.name'],
      [{ type: 'A', name: 'example.com', value: '300.0.0.1', ttl: 300 }, 'body.value'],
      [{ type: 'CNAME', name: 'www2.example.com', value: 'not a host', ttl: 300 }, 'body.value'],
      [{ type: 'TXT', name: 'example.com', value: 'v=spf1 -all', ttl: 0 }, 'body.ttl'],
      [{ type: 'TXT', name: 'example.com', value: 'v=spf1 -all', ttl: 300 }, 'body'],
    ];
    for (const [body, field] of cases) {
      const r = await h.call('POST', '/zones/5501/records', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(errorEnvelope(r).errors!.join(' ')).toContain(field);
      expect(specProblems('createZoneRecord', r.status, r.body)).toEqual([]);
    }
    expect((await h.call('POST', '/zones/999/records', { type: 'TXT', name: 'x', value: 'y', ttl: 1 })).status).toBe(
      404,
    );
    expect((await h.api.dns.records.list(5501)).records).toHaveLength(3);
  });
});

describe('records attached to sites', () => {
  it('an A record holding a site address attaches to it and blocks live → staging/sandbox until deleted', async () => {
    const zone = await h.api.dns.records.create(5501, {
      type: 'A',
      name: 'engine.example.com',
      value: ipOf(123461),
      ttl: 300,
    });
    const record = zone.records.find((r) => r.name === 'engine.example.com')!;
    expect(record.siteId).toBe(123461);
    expect((await h.api.sites.get(123461)).domainsCount).toBe(1);

    const refused = await h.call('PUT', '/sites/123461/convert/staging');
    expect(refused.status).toBe(400);
    expect(await status(h.api.sites.convertToSandbox(123461))).toBe(400);

    await h.api.dns.records.delete(5501, record.id);
    expect((await h.api.sites.get(123461)).domainsCount).toBe(0);
    expect((await h.api.sites.convertToStaging(123461)).staging).toBe(true);
  });

  it('a CNAME to the site host name attaches too; the seed record blocks 123456 until deleted', async () => {
    const zone = await h.api.dns.records.create(5501, {
      type: 'CNAME',
      name: 'blog.example.com',
      value: 'ada-blog.example.com',
      ttl: 300,
    });
    expect(zone.records.find((r) => r.name === 'blog.example.com')?.siteId).toBe(123456);
    await h.api.dns.records.delete(5501, 880123);
    expect(await status(h.api.sites.convertToSandbox(123456))).toBe(400);
    await h.api.dns.records.delete(5501, zone.records.find((r) => r.name === 'blog.example.com')!.id);
    expect((await h.api.sites.convertToSandbox(123456)).sandbox).toBe(true);
  });

  it('staging, sandbox and kit sites cannot get DNS records', async () => {
    for (const id of [123457, 123458, 123459]) {
      const r = await h.call('POST', '/zones/5501/records', {
        type: 'A',
        name: `s${id}.example.com`,
        value: ipOf(id),
        ttl: 300,
      });
      expect(r.status).toBe(400);
      expect(r.body.errors[0]).toMatch(/DNS records can only be added for live sites/);
    }
    // Converted to live, the staging site accepts them.
    await h.api.sites.convertToLive(123457);
    const zone = await h.api.dns.records.create(5501, {
      type: 'A',
      name: 'shop.example.com',
      value: ipOf(123457),
      ttl: 300,
    });
    expect(zone.records.find((r) => r.name === 'shop.example.com')?.siteId).toBe(123457);
  });

  it('deleting a site detaches its records', async () => {
    await h.api.sites.delete(123456);
    expect((await h.api.dns.records.list(5501)).records.find((r) => r.id === 880123)?.siteId).toBeNull();
  });
});

describe('email provider records', () => {
  it('adds the provider records once; unknown providers are refused', async () => {
    const r = await h.call('POST', '/zones/5501/providers', { provider: 'example-mail' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: 'Success', data: null, errors: null });
    expect(specProblems('createZoneProviderRecords', r.status, r.body)).toEqual([]);
    const records = (await h.api.dns.records.list(5501)).records;
    const mx = records.filter((x) => x.type === 'MX');
    expect(mx.map((x) => [x.name, x.value, x.priority])).toEqual([
      ['example.com', 'mx1.mail.example.net', 10],
      ['example.com', 'mx2.mail.example.net', 20],
    ]);
    expect(records).toHaveLength(6);
    await h.api.dns.providers.create(5501, { provider: 'example-mail' });
    expect((await h.api.dns.records.list(5501)).records).toHaveLength(6);

    const unknown = await h.call('POST', '/zones/5501/providers', { provider: 'carrier-pigeon' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toMatch(/^body\.provider:/);
    // A name of Object.prototype is no provider either (the fuzz phase of the gate found a 500).
    expect((await h.call('POST', '/zones/5501/providers', { provider: 'constructor' })).status).toBe(400);
    expect((await h.call('POST', '/zones/5501/providers', {})).body.errors.join(' ')).toContain('body.provider');
    expect((await h.call('POST', '/zones/999/providers', { provider: 'example-mail' })).status).toBe(404);
  });
});

describe('SSL', () => {
  it('returns the details of an A record, and No information found when there are none', async () => {
    const ssl = await h.call('GET', '/zones/5501/records/880123/ssl');
    expect(ssl.body).toMatchObject({ message: 'Success', data: { status: 'active' } });
    expect(specProblems('getZoneRecordSsl', ssl.status, ssl.body)).toEqual([]);
    const none = await h.call('GET', '/zones/5501/records/880124/ssl');
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ message: NO_SSL_INFORMATION, data: {}, errors: null });
    expect(specProblems('getZoneRecordSsl', none.status, none.body)).toEqual([]);
    expect((await h.call('GET', '/zones/5501/records/1/ssl')).status).toBe(404);
    expect((await h.call('GET', '/zones/999/records/880123/ssl')).status).toBe(404);
  });

  it('retries only on A records', async () => {
    for (const id of [880124, 880125]) {
      const r = await h.call('PUT', `/zones/5501/records/${id}/ssl`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        message: 'There was a problem processing your request.',
        data: null,
        errors: [SSL_NOT_A_RECORD],
      });
      expect(specProblems('retryZoneRecordSsl', r.status, r.body)).toEqual([]);
    }
    expect((await h.call('PUT', '/zones/5501/records/1/ssl')).status).toBe(404);
  });

  it('a retry provisions the certificate later on the clock', async () => {
    const zone = await h.api.dns.records.create(5501, {
      type: 'A',
      name: 'new.example.com',
      value: '198.51.100.20',
      ttl: 300,
    });
    const id = zone.records.find((r) => r.name === 'new.example.com')!.id;
    expect((await h.api.dns.records.getSsl(5501, id, { raw: true })).message).toBe(NO_SSL_INFORMATION);

    const retry = await h.call('PUT', `/zones/5501/records/${id}/ssl`);
    expect(retry.status).toBe(200);
    expect(specProblems('retryZoneRecordSsl', retry.status, retry.body)).toEqual([]);
    expect(await h.api.dns.records.getSsl(5501, id)).toMatchObject({ status: 'pending' });
    h.sb.advance(SSL_RETRY_MS);
    const done = await h.api.dns.records.getSsl(5501, id);
    expect(done).toMatchObject({ status: 'active', issuer: expect.any(String) });
    expect(Date.parse(String(done.expires_at))).toBeGreaterThan(h.sb.runtime.clock.now());

    // A record deleted while its retry is queued: the work finds nothing and does nothing.
    await h.api.dns.records.retrySsl(5501, 880123);
    await h.api.dns.records.delete(5501, 880123);
    h.sb.advance(SSL_RETRY_MS);
    expect(h.sb.runtime.state.dnsRecords.some((r) => r.id === 880123)).toBe(false);
  });
});

describe('domain setup links', () => {
  it('creates a share link for a live site', async () => {
    const r = await h.call('POST', '/sites/123456/domains/domain_setup_link', { name: 'Ada-Shop.example.com' });
    expect(r.status).toBe(200);
    expect(specProblems('createSiteDomainSetupLink', r.status, r.body)).toEqual([]);
    expect(r.body.data).toMatchObject({ status: 'link_created', created_at: h.sb.runtime.clock.nowIso() });
    expect(r.body.data.sharable_link).toBe(`https://hosting.example.com/domain-setup/${r.body.data.job_id}`);
    const second = await h.api.sites.domains.createSetupLink(123456, { name: 'ada-shop.example.com' });
    expect(second.job_id).not.toBe(r.body.data.job_id);
    expect(h.sb.runtime.state.domainSetupLinks.map((l) => [l.siteId, l.name])).toEqual([
      [123456, 'ada-shop.example.com'],
      [123456, 'ada-shop.example.com'],
    ]);
  });

  it('refuses non-live sites, bad names and unknown sites', async () => {
    const staging = await h.call('POST', '/sites/123457/domains/domain_setup_link', { name: 'shop.example.com' });
    expect(staging.status).toBe(400);
    expect(specProblems('createSiteDomainSetupLink', staging.status, staging.body)).toEqual([]);
    const bad = await h.call('POST', '/sites/123456/domains/domain_setup_link', { name: 'not a domain' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatch(/^body\.name:/);
    expect((await h.call('POST', '/sites/123456/domains/domain_setup_link', {})).body.errors.join(' ')).toContain(
      'body.name',
    );
    expect((await h.call('POST', '/sites/1/domains/domain_setup_link', { name: 'x.example.com' })).status).toBe(404);
  });
});
