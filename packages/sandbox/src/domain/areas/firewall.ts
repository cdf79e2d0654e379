// Egress firewall rules of a site: list, get, create (a duplicate is a 400 with the seed's
// `Firewall rule already exists`), delete, refresh. The record is not documented beyond its
// inputs, so a rule answers {id, destination, port, protocol}.
import { isIP } from '../../platform.js';
import { type Ctx, defineArea } from '../area.js';
import { badRequest, notFound } from '../errors.js';
import { type FirewallRuleRecord, nextId } from '../state.js';
import type { OperationId, Schema } from '../types.js';

export const FIREWALL_RULE_EXISTS = 'Firewall rule already exists';
/** The protocols the sandbox accepts (the seed shows `tcp`; the set is not documented). */
export const FIREWALL_PROTOCOLS = ['tcp', 'udp'];

/** The rule is an open object in the spec (its generated type has no fields), hence the cast. */
export const firewallRuleView = (r: FirewallRuleRecord): Schema<'FirewallRule'> =>
  ({ id: r.id, destination: r.destination, port: r.port, protocol: r.protocol }) as unknown as Schema<'FirewallRule'>;

function findRule(
  ctx: Pick<Ctx<OperationId>, 'site' | 'state'> & { params: { site_id: number; firewall_rule_id: string } },
) {
  const site = ctx.site(ctx.params.site_id);
  const rule = ctx.state.firewallRules.find((r) => r.id === ctx.params.firewall_rule_id && r.siteId === site.id);
  if (!rule) throw notFound();
  return rule;
}

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** An IPv4/IPv6 address, optionally a CIDR block, or a host name. */
function checkDestination(value: string): string {
  const v = value.trim();
  const [address, prefix, ...rest] = v.split('/');
  const family = isIP(address ?? '');
  const ok =
    rest.length === 0 &&
    (prefix === undefined
      ? family !== 0 || (HOSTNAME.test(v) && /[a-z]/i.test(v.split('.').pop() ?? ''))
      : family !== 0 && /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
  if (!ok) throw badRequest('body.destination: must be an IP address, a CIDR block or a host name');
  return v.toLowerCase();
}

function checkPort(value: string): string {
  const v = value.trim();
  if (!/^\d{1,5}$/.test(v) || Number(v) < 1 || Number(v) > 65535) {
    throw badRequest('body.port: must be a port number from 1 to 65535, sent as a string');
  }
  return String(Number(v));
}

function checkProtocol(value: string): string {
  const v = value.trim().toLowerCase();
  if (!FIREWALL_PROTOCOLS.includes(v))
    throw badRequest(`body.protocol: must be one of ${FIREWALL_PROTOCOLS.join(', ')}`);
  return v;
}

export default defineArea({
  listSiteFirewallRules: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    return { data: ctx.state.firewallRules.filter((r) => r.siteId === site.id).map(firewallRuleView) };
  },

  getSiteFirewallRule: (ctx) => ({ data: firewallRuleView(findRule(ctx)) }),

  createSiteFirewallRule: (ctx) => {
    const { state } = ctx;
    const site = ctx.site(ctx.params.site_id);
    const destination = checkDestination(ctx.body.destination);
    const port = checkPort(ctx.body.port);
    const protocol = checkProtocol(ctx.body.protocol);
    // Check and write without an await in between: writes to one site are serialised.
    if (
      state.firewallRules.some(
        (r) => r.siteId === site.id && r.destination === destination && r.port === port && r.protocol === protocol,
      )
    ) {
      throw badRequest(FIREWALL_RULE_EXISTS);
    }
    const rule: FirewallRuleRecord = {
      id: String(nextId(state, 'firewallRule', 9001)),
      siteId: site.id,
      destination,
      port,
      protocol,
      created: ctx.rt.clock.nowIso(),
    };
    state.firewallRules.push(rule);
    ctx.activity(
      'firewall_rule.created',
      'Firewall rule created',
      `Egress firewall rule ${protocol} ${destination}:${port} was added to ${site.name}.`,
      site.id,
    );
    return { data: firewallRuleView(rule) };
  },

  deleteSiteFirewallRule: (ctx) => {
    const rule = findRule(ctx);
    const site = ctx.site(rule.siteId);
    ctx.state.firewallRules = ctx.state.firewallRules.filter((r) => r !== rule);
    ctx.activity(
      'firewall_rule.deleted',
      'Firewall rule deleted',
      `Egress firewall rule ${rule.protocol} ${rule.destination}:${rule.port} was removed from ${site.name}.`,
      site.id,
    );
    return { data: null };
  },

  /** The effect of a refresh is not documented: the rules are re-applied unchanged. */
  refreshSiteFirewallRules: (ctx) => {
    ctx.site(ctx.params.site_id);
    return { data: null };
  },
});
