// Egress firewall: list, get, create (duplicate → 400 `Firewall rule already exists`), delete,
// refresh; validation naming the field; 404s for unknown sites and rules of other sites.
import { describe, expect, it } from 'vitest';
import { errorEnvelope, status, useSandbox } from './helpers.js';
import { specProblems } from './spec-check.js';

const h = useSandbox();

describe('egress firewall', () => {
  it('lists the seeded rule and gets it by id', async () => {
    const rules = await h.api.sites.firewallRules.list(123456);
    expect(rules).toEqual([{ id: '8812', destination: '198.51.100.7', port: '443', protocol: 'tcp' }]);
    expect(await h.api.sites.firewallRules.get(123456, '8812')).toEqual(rules[0]);
    expect(await h.api.sites.firewallRules.list(123457)).toEqual([]);
    const r = await h.call('GET', '/sites/123456/firewall_rules/8812');
    expect(specProblems('getSiteFirewallRule', r.status, r.body)).toEqual([]);
  });

  it('creates a rule, refuses the same rule again, deletes it', async () => {
    const rule = (await h.api.sites.firewallRules.create(123457, {
      destination: '198.51.100.7',
      port: '5432',
      protocol: 'tcp',
    })) as Record<string, unknown>;
    expect(rule).toMatchObject({ destination: '198.51.100.7', port: '5432', protocol: 'tcp' });
    expect(typeof rule.id).toBe('string');
    const id = rule.id as string;
    expect(await h.api.sites.firewallRules.get(123457, id)).toEqual(rule);
    expect(await h.api.sites.firewallRules.list(123457)).toEqual([rule]);

    // The same destination, port and protocol (also spelt differently) is a duplicate.
    for (const body of [
      { destination: '198.51.100.7', port: '5432', protocol: 'tcp' },
      { destination: '198.51.100.7', port: '05432', protocol: 'TCP' },
    ]) {
      const dup = await h.call('POST', '/sites/123457/firewall_rules/create', body);
      expect(dup.status).toBe(400);
      expect(errorEnvelope(dup)).toEqual({
        message: 'There was a problem processing your request.',
        data: null,
        errors: ['Firewall rule already exists'],
      });
      expect(specProblems('createSiteFirewallRule', dup.status, dup.body)).toEqual([]);
    }
    // Another port, protocol or site is a different rule.
    await h.api.sites.firewallRules.create(123457, { destination: '198.51.100.7', port: '5432', protocol: 'udp' });
    await h.api.sites.firewallRules.create(123457, { destination: '198.51.100.7', port: '5433', protocol: 'tcp' });
    await h.api.sites.firewallRules.create(123458, { destination: '198.51.100.7', port: '5432', protocol: 'tcp' });
    expect(await h.api.sites.firewallRules.list(123457)).toHaveLength(3);

    const del = await h.call('DELETE', `/sites/123457/firewall_rules/${id}`);
    expect(del.status).toBe(200);
    expect(del.body.data).toBeNull();
    expect(specProblems('deleteSiteFirewallRule', del.status, del.body)).toEqual([]);
    expect(await status(h.api.sites.firewallRules.get(123457, id))).toBe(404);
    expect(await status(h.api.sites.firewallRules.delete(123457, id))).toBe(404);
    // Deleted, it can be created again.
    await h.api.sites.firewallRules.create(123457, { destination: '198.51.100.7', port: '5432', protocol: 'tcp' });

    const log = await h.api.sites.logs.activity(123457, {
      filters: [{ field: 'action', operator: 'contains', value: 'firewall_rule' }],
    });
    expect(log.data.map((e) => e.name)).toEqual([
      'firewall_rule.created',
      'firewall_rule.deleted',
      'firewall_rule.created',
      'firewall_rule.created',
      'firewall_rule.created',
    ]);
    expect(log.data[0]!.source).toBe('api.v1');
  });

  it('holds the no-duplicate rule under concurrent creates', async () => {
    const body = { destination: 'db.example.net', port: '3306', protocol: 'tcp' };
    const replies = await Promise.all(
      Array.from({ length: 8 }, () => h.call('POST', '/sites/123458/firewall_rules/create', body)),
    );
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 400)).toHaveLength(7);
    expect(await h.api.sites.firewallRules.list(123458)).toHaveLength(1);
  });

  it('validates destination, port and protocol, naming the field', async () => {
    for (const [body, field] of [
      [{ destination: 'not an address', port: '443', protocol: 'tcp' }, 'body.destination'],
      [{ destination: '198.51.100.0/40', port: '443', protocol: 'tcp' }, 'body.destination'],
      [{ destination: '198.51.100.7', port: '70000', protocol: 'tcp' }, 'body.port'],
      [{ destination: '198.51.100.7', port: 'https', protocol: 'tcp' }, 'body.port'],
      [{ destination: '198.51.100.7', port: '443', protocol: 'icmp-ish' }, 'body.protocol'],
      [{ destination: '198.51.100.7', port: 443, protocol: 'tcp' }, 'body.port'],
      [{ destination: '198.51.100.7', protocol: 'tcp' }, 'body.port'],
    ] as const) {
      const r = await h.call('POST', '/sites/123456/firewall_rules/create', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(errorEnvelope(r).errors?.[0]?.startsWith(`${field}:`), JSON.stringify(r.body)).toBe(true);
    }
    // CIDR blocks, IPv6 and host names are destinations too.
    for (const destination of ['198.51.100.0/24', '2001:db8::10', 'api.example.org']) {
      expect(
        await status(h.api.sites.firewallRules.create(123456, { destination, port: '443', protocol: 'tcp' })),
      ).toBe(200);
    }
  });

  it('refresh keeps the rules; unknown sites and rules of other sites are 404', async () => {
    const r = await h.call('POST', '/sites/123456/firewall_rules/refresh');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: 'Success', data: null, errors: null });
    expect(specProblems('refreshSiteFirewallRules', r.status, r.body)).toEqual([]);
    expect(await h.api.sites.firewallRules.list(123456)).toHaveLength(1);
    expect(await status(h.api.sites.firewallRules.get(123457, '8812'))).toBe(404);
    expect(await status(h.api.sites.firewallRules.get(123456, 'nope'))).toBe(404);
    expect(await status(h.api.sites.firewallRules.list(999999))).toBe(404);
    expect(await status(h.api.sites.firewallRules.refresh(999999))).toBe(404);
    expect(
      await status(
        h.api.sites.firewallRules.create(999999, { destination: '198.51.100.7', port: '1', protocol: 'tcp' }),
      ),
    ).toBe(404);
    // Deleting the site takes its rules with it.
    await h.api.sites.delete(123456);
    expect(h.sb.runtime.state.firewallRules.filter((x) => x.siteId === 123456)).toEqual([]);
  });
});
