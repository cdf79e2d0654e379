// Site records and their four views (list, detail, search, collaborator), shared by the seed and
// every area that returns a site.
import type { SandboxState, SiteRecord } from '../state.js';
import type { Schema } from '../types.js';

export const DATACENTERS: Schema<'Datacenter'>[] = [
  { code: 'AMS', name: 'Amsterdam' },
  { code: 'BUR', name: 'Burbank' },
  { code: 'DCA', name: 'Washington, DC' },
  { code: 'DFW', name: 'Dallas-Fort Worth' },
];
export const PHP_VERSIONS = ['8.3', '8.4', '8.5'];
export const INSTALL_OPTIONS = ['cms', 'cms-ecommerce'];
export const DEFAULT_INSTALL = 'cms';
export const CMS_VERSION_STABLE = 'stable (6.8.3)';
export const CMS_VERSION_BETA = 'beta (6.9-RC1)';

/** Part 7.4: at least 3 characters, no periods, spaces or special characters, no leading/trailing dash. */
export const SITE_NAME_RULE =
  'Site names must be at least 3 characters long, may not contain periods, spaces or special characters, and may not start or end with a dash.';
export function isValidSiteName(name: string): boolean {
  return /^[A-Za-z0-9-]{3,}$/.test(name) && !name.startsWith('-') && !name.endsWith('-');
}

export const zeroPageViews = (): Schema<'PageViews'> => {
  const zero = () => ({ people: 0, views: 0 });
  return {
    allTime: zero(),
    lastTwoYearsIsAllTime: zero(),
    currentMonth: zero(),
    lastMonth: zero(),
    today: zero(),
    twoMonthsAgo: zero(),
    yesterday: zero(),
  };
};

export interface NewSite {
  id: number;
  name: string;
  created: string;
  accountId: number;
  createdBy: Schema<'SiteCreatedBy'>;
  state?: string;
  staging?: boolean;
  sandbox?: boolean;
  kit?: boolean;
  ecommerce?: boolean;
  phpVersion?: string | null;
  datacenterCode?: string | null;
  multisiteSupport?: boolean;
  clonedFromId?: number | null;
  favorite?: boolean;
  tags?: Schema<'SiteTag'>[];
  gitEnrolled?: boolean;
}

/** A full site record with realistic defaults; ip addresses derive from the id. */
export function makeSite(input: NewSite): SiteRecord {
  const dc = DATACENTERS.find((d) => d.code === input.datacenterCode);
  const staging = input.staging ?? false;
  const sandbox = input.sandbox ?? false;
  const octet = (n: number) => ((input.id * 2 + n) % 250) + 2;
  return {
    id: input.id,
    created: input.created,
    accountId: input.accountId,
    createdBy: input.createdBy,
    clonedFromId: input.clonedFromId ?? null,
    collaboratorsCount: 0,
    domainsCount: 0,
    datacenterCode: dc ? dc.code : 'N/A',
    datacenterName: dc ? dc.name : 'N/A',
    displayName: input.name,
    name: input.name,
    ecommerce: input.ecommerce ?? false,
    edgeCache: 'enabled',
    edgeCacheDefensiveMode: false,
    edgeCacheDefensiveModeUntil: null,
    favorite: input.favorite ?? false,
    fileSystemUsageBytes: 52_428_800,
    databaseUsageBytes: 8_388_608,
    maxFileSystemUsageBytes: 53_687_091_200,
    warningHeadroomFileSystemUsageBytes: 5_368_709_120,
    maxDatabaseUsageBytes: null,
    warningHeadroomDatabaseUsageBytes: null,
    ipAddress: `192.0.2.${octet(0)}`,
    ipAddressOne: `192.0.2.${octet(0)}`,
    ipAddressTwo: `192.0.2.${octet(1)}`,
    state: input.state ?? 'deploying',
    url: `https://${input.name}.example.com`,
    staging,
    sandbox,
    kit: input.kit ?? false,
    sftpDomain: 'sftp.example.com',
    phpVersion: input.phpVersion ?? null,
    cmsVersion: CMS_VERSION_STABLE,
    tags: input.tags ?? [],
    wpEnvironmentType: staging ? 'staging' : sandbox ? 'development' : 'production',
    lightWeight404: false,
    multisiteSupport: input.multisiteSupport ?? false,
    maintenanceMode: false,
    pageViews: zeroPageViews(),
    cmsLoginUrl: `https://${input.name}.example.com/login`,
    gitEnrolled: input.gitEnrolled ?? true,
    basicAuthentication: false,
    cmsMcpEnabled: false,
    fileModifications: { disallow_file_edit: false, disallow_file_mods: false },
    phpFsPermission: 'rw',
  };
}

/** Counts that live in other collections. */
function setDerived(view: { collaboratorsCount: number; domainsCount: number }, state: SandboxState, site: SiteRecord) {
  let collaborators = 0;
  for (const c of state.collaborators) if (c.siteId === site.id) collaborators++;
  let domains = 0;
  for (const r of state.dnsRecords) if (r.siteId === site.id) domains++;
  view.collaboratorsCount = collaborators;
  view.domainsCount = domains;
}

/**
 * The public fields of a site record (the `Site` schema's, but createdBy): this is the hot path of
 * `GET /sites/{site_id}`. One object literal, field by field: V8 builds it with a single shape,
 * and JSON.stringify of such an object takes about half the time it takes for a rest-pattern copy
 * (which also costs more to make than the rest of the view).
 * Views are serialised as soon as the handler returns, so nested records are shared, not cloned;
 * tags are copied as handlers may change them after building a view.
 */
function publicFields(site: SiteRecord): Omit<Schema<'Site'>, 'createdBy'> {
  const view: Omit<Schema<'Site'>, 'createdBy'> = {
    id: site.id,
    created: site.created,
    accountId: site.accountId,
    clonedFromId: site.clonedFromId,
    collaboratorsCount: site.collaboratorsCount,
    domainsCount: site.domainsCount,
    datacenterCode: site.datacenterCode,
    datacenterName: site.datacenterName,
    displayName: site.displayName,
    name: site.name,
    ecommerce: site.ecommerce,
    edgeCache: site.edgeCache,
    edgeCacheDefensiveMode: site.edgeCacheDefensiveMode,
    edgeCacheDefensiveModeUntil: site.edgeCacheDefensiveModeUntil,
    favorite: site.favorite,
    fileSystemUsageBytes: site.fileSystemUsageBytes,
    databaseUsageBytes: site.databaseUsageBytes,
    maxFileSystemUsageBytes: site.maxFileSystemUsageBytes,
    warningHeadroomFileSystemUsageBytes: site.warningHeadroomFileSystemUsageBytes,
    maxDatabaseUsageBytes: site.maxDatabaseUsageBytes,
    warningHeadroomDatabaseUsageBytes: site.warningHeadroomDatabaseUsageBytes,
    ipAddress: site.ipAddress,
    ipAddressOne: site.ipAddressOne,
    ipAddressTwo: site.ipAddressTwo,
    state: site.state,
    url: site.url,
    staging: site.staging,
    sandbox: site.sandbox,
    kit: site.kit,
    sftpDomain: site.sftpDomain,
    phpVersion: site.phpVersion,
    cmsVersion: site.cmsVersion,
    wpEnvironmentType: site.wpEnvironmentType,
    lightWeight404: site.lightWeight404,
    multisiteSupport: site.multisiteSupport,
    maintenanceMode: site.maintenanceMode,
    tags: site.tags.map((t) => ({ ...t })),
  };
  if (site.maintenanceModeStatus !== undefined) view.maintenanceModeStatus = site.maintenanceModeStatus;
  return view;
}

/** List view (`Site`). `withCreatedBy` for conversion responses (part 2). */
export function siteView(state: SandboxState, site: SiteRecord, withCreatedBy = false): Schema<'Site'> {
  // Fields are assigned onto the copy (no second spread: that alone cost more than the rest).
  const view = publicFields(site) as Schema<'Site'>;
  setDerived(view, state, site);
  if (withCreatedBy) view.createdBy = { ...site.createdBy };
  return view;
}

/** Detail view (`SiteDetail`): list fields plus pageViews, cmsLoginUrl and collaborators. */
export function siteDetailView(state: SandboxState, site: SiteRecord): Schema<'SiteDetail'> {
  const view = publicFields(site) as Schema<'SiteDetail'>;
  setDerived(view, state, site);
  view.pageViews = site.pageViews;
  view.cmsLoginUrl = site.cmsLoginUrl;
  view.collaborators = [];
  for (const c of state.collaborators) {
    if (c.siteId !== site.id) continue;
    view.collaborators.push({
      id: c.id,
      created: c.created,
      email: c.email,
      avatar: c.avatar,
      name: c.name,
      wpUsername: c.wpUsername,
      username: c.username,
    });
  }
  return view;
}

/** Search view (`SiteSearchResult`): `ipAddresses` instead of the three ip fields. */
export function siteSearchView(state: SandboxState, site: SiteRecord): Schema<'SiteSearchResult'> {
  const { ipAddress: _a, ipAddressOne, ipAddressTwo, ...rest } = siteView(state, site);
  return { ...rest, ipAddresses: [ipAddressOne, ipAddressTwo] };
}

/** Collaborator view (`CollaboratorSite`): favorite and tags are the collaborator's own. */
export function collaboratorSiteView(
  state: SandboxState,
  site: SiteRecord,
  own: { favorite: boolean; tags: Schema<'SiteTag'>[] },
): Schema<'CollaboratorSite'> {
  return { ...siteSearchView(state, site), favorite: own.favorite, tags: own.tags.map((t) => ({ ...t })) };
}

/** Billable = live sites (not staging, sandbox or kit), disabled ones included (part 3). */
export const isBillable = (site: SiteRecord) => !site.staging && !site.sandbox && !site.kit;

export function capacity(state: SandboxState) {
  const sites = state.sites;
  return {
    sites: {
      maxBillable: state.account.maxBillable,
      maxStaging: state.account.maxStaging,
      billable: sites.filter(isBillable).length,
      staging: sites.filter((s) => s.staging).length,
      total: sites.length,
    },
  };
}

/** Favorites first, then by id (stable, deterministic). */
export function sortSites(sites: SiteRecord[]): SiteRecord[] {
  return [...sites].sort((a, b) => Number(b.favorite) - Number(a.favorite) || a.id - b.id);
}
