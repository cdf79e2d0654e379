// Sites core: list (paginate rules, favorites first), create → deploying → live, get, update,
// delete, validate, search, option lists, disable/enable, conversions, clone → cloning,
// favorites. State transitions follow part 3 of the seed.
import { type Ctx, defineArea } from '../area.js';
import { badRequest } from '../errors.js';
import {
  DATACENTERS,
  DEFAULT_INSTALL,
  INSTALL_OPTIONS,
  isBillable,
  isValidSiteName,
  makeSite,
  PHP_VERSIONS,
  SITE_NAME_RULE,
  siteDetailView,
  siteSearchView,
  siteView,
  sortSites,
} from '../model/sites.js';
import { DEFAULT_PER_PAGE, paginate } from '../pagination.js';
import { DURATIONS, type SandboxRuntime } from '../runtime.js';
import { nextId, type SandboxState, type SiteRecord } from '../state.js';
import type { OperationId } from '../types.js';
import { addToAllNewSite } from './collaborators.js';

/** Search filter keys: the seed shows name and state; any scalar site field works here. */
const SEARCH_KEYS = new Set(
  Object.entries(makeSite({ id: 1, name: 'x', created: '', accountId: 1, createdBy: { name: '', email: '' } }))
    .filter(([, v]) => v === null || typeof v !== 'object')
    .map(([k]) => k),
);

function checkName(state: SandboxState, name: unknown, field = 'body.name'): string {
  if (typeof name !== 'string' || name === '') throw badRequest(`${field}: required`);
  if (!isValidSiteName(name)) throw badRequest(`${field}: ${SITE_NAME_RULE}`);
  if (state.sites.some((s) => s.name === name)) throw badRequest(`${field}: a site named ${name} already exists`);
  return name;
}

function checkPhp(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !PHP_VERSIONS.includes(value)) {
    throw badRequest(`body.php_version: must be one of ${PHP_VERSIONS.join(', ')}`);
  }
  return value;
}

function checkDatacenter(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !DATACENTERS.some((d) => d.code === value)) {
    throw badRequest(`body.datacenter_code: must be one of ${DATACENTERS.map((d) => d.code).join(', ')}`);
  }
  return value;
}

/** Capacity checks for a site about to exist (or change kind). */
function checkCapacity(state: SandboxState, kind: { staging: boolean; billable: boolean }, exclude?: number) {
  const others = state.sites.filter((s) => s.id !== exclude);
  if (exclude === undefined && others.length >= state.account.maxSites) {
    throw badRequest(`The account has reached its limit of ${state.account.maxSites} sites.`);
  }
  if (kind.staging && others.filter((s) => s.staging).length >= state.account.maxStaging) {
    throw badRequest(`The account has reached its limit of ${state.account.maxStaging} staging sites.`);
  }
  if (kind.billable && others.filter(isBillable).length >= state.account.maxBillable) {
    throw badRequest(`The account has reached its limit of ${state.account.maxBillable} billable sites.`);
  }
}

const owner = (state: SandboxState) => ({ name: state.account.name, email: state.account.email });
const hasDnsRecords = (state: SandboxState, site: SiteRecord) => state.dnsRecords.some((r) => r.siteId === site.id);

/** Queued: the site goes live after DURATIONS[kind] unless it was deleted or changed meanwhile. */
function goLiveLater(rt: SandboxRuntime, siteId: number, from: string, done: (site: SiteRecord) => void) {
  rt.later(from === 'cloning' ? DURATIONS.siteClone : DURATIONS.siteDeploy, `site ${siteId} ${from} → live`, () => {
    const site = rt.state.sites.find((s) => s.id === siteId);
    if (!site || site.state !== from) return;
    site.state = 'live';
    done(site);
  });
}

function convert<K extends OperationId>(
  ctx: Ctx<K> & { params: { site_id: number } },
  target: 'staging' | 'sandbox' | 'live' | 'kit',
) {
  const { state } = ctx;
  const site = ctx.site(ctx.params.site_id);
  const live = !site.staging && !site.sandbox;
  const refuse = (why: string) => {
    throw badRequest(why);
  };
  const from = site.kit ? 'kit' : site.staging ? 'staging' : site.sandbox ? 'sandbox' : 'live';
  switch (target) {
    case 'staging':
      if (!(live || site.sandbox)) refuse('Only live or sandbox sites can be converted to staging.');
      if (live && hasDnsRecords(state, site))
        refuse('A live site with DNS records attached cannot be converted to staging.');
      checkCapacity(state, { staging: true, billable: false }, site.id);
      // A kit is a sandbox site (part 3): once it is no longer one, it is no longer a kit.
      Object.assign(site, { staging: true, sandbox: false, kit: false, wpEnvironmentType: 'staging' });
      break;
    case 'sandbox':
      if (!(live || site.staging)) refuse('Only staging or live sites can be converted to sandbox.');
      if (live && hasDnsRecords(state, site))
        refuse('A live site with DNS records attached cannot be converted to sandbox.');
      // Part 3: staging to sandbox puts the site in maintenance mode.
      if (site.staging) site.maintenanceMode = true;
      Object.assign(site, { staging: false, sandbox: true, wpEnvironmentType: 'development' });
      break;
    case 'live':
      if (!(site.staging || site.sandbox)) refuse('Only staging or sandbox sites can be converted to live.');
      checkCapacity(state, { staging: false, billable: true }, site.id);
      Object.assign(site, { staging: false, sandbox: false, kit: false, wpEnvironmentType: 'production' });
      break;
    case 'kit':
      if (!site.sandbox) refuse('Only sandbox sites can be converted to a kit.');
      site.kit = true;
      break;
  }
  ctx.activity(
    'site.converted',
    'Site converted',
    `Site ${site.name} was converted from ${from} to ${target}.`,
    site.id,
  );
  return { data: siteView(state, site, true) };
}

export default defineArea({
  listSites: ({ query, state }) => {
    const sites = sortSites(state.sites);
    if (query.paginate !== true) return { data: sites.map((s) => siteView(state, s)) };
    const { items, page } = paginate(sites, query.page ?? 1, query.per_page ?? DEFAULT_PER_PAGE);
    return { data: items.map((s) => siteView(state, s)), page };
  },

  createSite: (ctx) => {
    const { body, state, rt } = ctx;
    const name = checkName(state, body.name);
    const phpVersion = checkPhp(body.php_version) ?? state.account.defaultPhpVersion;
    const datacenterCode = checkDatacenter(body.datacenter_code) ?? state.account.defaultDatacenter;
    if (body.install !== undefined && !INSTALL_OPTIONS.includes(body.install)) {
      throw badRequest(`body.install: must be one of ${INSTALL_OPTIONS.join(', ')}`);
    }
    const staging = body.staging === true;
    const sandbox = body.sandbox === true;
    checkCapacity(state, { staging, billable: !staging && !sandbox });
    const site = makeSite({
      id: nextId(state, 'site', 200001),
      name,
      created: rt.clock.nowIso(),
      accountId: state.sites[0]?.accountId ?? 7001,
      createdBy: owner(state),
      state: 'deploying',
      staging,
      sandbox,
      kit: body.kit === true,
      ecommerce: (body.install ?? DEFAULT_INSTALL) === 'cms-ecommerce',
      phpVersion,
      datacenterCode,
      multisiteSupport: body.multisite_support === true || body.multisite_support === 'true',
    });
    state.sites.push(site);
    // Collaborators with account-level access `add_to_all_new` join every new site.
    addToAllNewSite(state, site, rt.clock.nowIso());
    ctx.activity('site.created', 'Site created', `Site ${name} was created.`, site.id);
    goLiveLater(rt, site.id, 'deploying', (live) =>
      rt.publishAlert({
        type: 'site.created',
        category: 'completed',
        title: 'Site is live',
        message: `The site ${live.name} has been deployed.`,
        icon: 'site',
        siteId: live.id,
      }),
    );
    return { data: siteView(state, site) };
  },

  validateSiteName: ({ body, state }) => {
    if (!isValidSiteName(body.name)) return { data: { valid: false }, message: SITE_NAME_RULE };
    if (state.sites.some((s) => s.name === body.name)) {
      return { data: { valid: false }, message: `A site named ${body.name} already exists.` };
    }
    return { data: { valid: true } };
  },

  searchSites: ({ body, state }) => {
    const filters = body.filters ?? [];
    filters.forEach((f, i) => {
      if (!SEARCH_KEYS.has(f.key)) throw badRequest(`body.filters.${i}.key: unknown site field ${f.key}`);
    });
    const matches = sortSites(state.sites).filter((site) =>
      filters.every((f) => {
        const value = (site as unknown as Record<string, unknown>)[f.key];
        // name matches by substring (a search); every other key by equality of its text.
        return f.key === 'name' || f.key === 'displayName'
          ? String(value).toLowerCase().includes(String(f.value).toLowerCase())
          : String(value) === String(f.value);
      }),
    );
    const { items, page } = paginate(matches, body.page ?? 1, body.per_page ?? DEFAULT_PER_PAGE);
    return { data: items.map((s) => siteSearchView(state, s)), page };
  },

  listSiteInstallOptions: () => ({ data: [...INSTALL_OPTIONS] }),
  listSiteDatacenters: () => ({ data: DATACENTERS.map((d) => ({ ...d })) }),
  listSitePhpVersions: () => ({ data: [...PHP_VERSIONS] }),

  getSite: (ctx) => ({ data: siteDetailView(ctx.state, ctx.site(ctx.params.site_id)) }),

  updateSite: (ctx) => {
    const { body, state } = ctx;
    const site = ctx.site(ctx.params.site_id);
    const php = checkPhp(body.php_version);
    if (body.name !== undefined) site.displayName = body.name;
    if (php) site.phpVersion = php;
    if (body.wp_environment_type !== undefined) site.wpEnvironmentType = body.wp_environment_type;
    ctx.activity('site.updated', 'Site updated', `Site ${site.name} was updated.`, site.id);
    return { data: siteView(state, site) };
  },

  deleteSite: (ctx) => {
    const { state } = ctx;
    const site = ctx.site(ctx.params.site_id);
    const id = site.id;
    state.sites = state.sites.filter((s) => s.id !== id);
    // Everything that belongs to the site goes with it; DNS records are detached.
    state.notes = state.notes.filter((n) => n.siteId !== id);
    state.collaborators = state.collaborators.filter((c) => c.siteId !== id);
    state.firewallRules = state.firewallRules.filter((r) => r.siteId !== id);
    state.plugins = state.plugins.filter((p) => p.siteId !== id);
    state.backups = state.backups.filter((b) => b.site_id !== id);
    state.ondemandBackups = state.ondemandBackups.filter((b) => b.siteId !== id);
    state.restores = state.restores.filter((r) => r.siteId !== id);
    state.git = state.git.filter((g) => g.siteId !== id);
    state.domainSetupLinks = state.domainSetupLinks.filter((l) => l.siteId !== id);
    for (const record of state.dnsRecords) if (record.siteId === id) record.siteId = null;
    ctx.activity('site.deleted', 'Site deleted', `Site ${site.name} was deleted.`, id);
    return { data: null };
  },

  disableSite: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    site.state = 'disabled';
    ctx.activity('site.disabled', 'Site disabled', `Site ${site.name} was disabled.`, site.id);
    return { data: siteView(ctx.state, site) };
  },

  enableSite: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    if (site.state !== 'disabled') throw badRequest('Only disabled sites can be enabled.');
    site.state = 'live';
    ctx.activity('site.enabled', 'Site enabled', `Site ${site.name} was enabled.`, site.id);
    return { data: siteView(ctx.state, site) };
  },

  convertSite: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    if (!(site.staging || site.sandbox)) throw badRequest('Only staging or sandbox sites can be converted to live.');
    return convert(ctx, 'live');
  },
  convertSiteToKit: (ctx) => convert(ctx, 'kit'),
  convertSiteToSandbox: (ctx) => convert(ctx, 'sandbox'),
  convertSiteToLive: (ctx) => convert(ctx, 'live'),
  convertSiteToStaging: (ctx) => convert(ctx, 'staging'),

  cloneSite: (ctx) => {
    const { body, state, rt } = ctx;
    const source = ctx.site(ctx.params.site_id);
    const name = checkName(state, body.name);
    const datacenterCode = checkDatacenter(body.datacenter_code) ?? source.datacenterCode;
    const staging = body.staging === true;
    const sandbox = body.sandbox === true;
    checkCapacity(state, { staging, billable: !staging && !sandbox });
    const clone = makeSite({
      id: nextId(state, 'site', 200001),
      name,
      created: rt.clock.nowIso(),
      accountId: source.accountId,
      createdBy: owner(state),
      state: 'cloning',
      staging,
      sandbox,
      kit: body.kit === true,
      ecommerce: source.ecommerce,
      phpVersion: source.phpVersion,
      datacenterCode: datacenterCode === 'N/A' ? null : datacenterCode,
      multisiteSupport: source.multisiteSupport,
      clonedFromId: source.id,
      gitEnrolled: source.gitEnrolled,
    });
    state.sites.push(clone);
    addToAllNewSite(state, clone, rt.clock.nowIso());
    ctx.activity('site.cloned', 'Site cloned', `Site ${source.name} was cloned to ${name}.`, clone.id);
    const started = rt.publishAlert({
      type: 'site.clone_started',
      category: 'in_progress',
      title: 'Cloning site',
      message: `Cloning ${source.name} to ${name}.`,
      icon: 'clone',
      siteId: clone.id,
    });
    goLiveLater(rt, clone.id, 'cloning', (live) => {
      // The in-progress alert ends; dismissing it never cancelled the clone (part 3).
      const alert = rt.state.alerts.find((a) => a.id === started.id);
      if (alert) alert.expiresAt = rt.clock.nowIso();
      rt.publishAlert({
        type: 'site.clone_completed',
        category: 'completed',
        title: 'Clone completed',
        message: `The site ${live.name} is ready.`,
        icon: 'clone',
        siteId: live.id,
      });
    });
    return { data: siteView(state, clone) };
  },

  addSiteFavorite: (ctx) => {
    ctx.site(ctx.params.site_id).favorite = true;
    return { data: null };
  },
  deleteSiteFavorite: (ctx) => {
    ctx.site(ctx.params.site_id).favorite = false;
    return { data: null };
  },
});
