// The default account: small, deterministic, and built around the spec's example ids (site
// 123456, note 42, zone 5501, record 880123, alert 9001, ...) so the contract suite's example
// requests find real resources. Timestamps are relative to the clock's start.
import { makeSite } from './model/sites.js';
import type { ActivityRecord, SandboxState, SiteRecord } from './state.js';

const DAY = 86_400_000;
const OWNER = { name: 'Ada Lovelace', email: 'ada@example.com' };
export const ACCOUNT_ID = 7001;
export const OWNER_ID = 98765;

export function seedState(nowMs: number): SandboxState {
  const at = (msAgo: number) => new Date(nowMs - msAgo).toISOString();
  const epoch = (msAgo: number) => Math.floor((nowMs - msAgo) / 1000);
  const site = (s: Parameters<typeof makeSite>[0], extra: Partial<SiteRecord> = {}): SiteRecord => ({
    ...makeSite(s),
    ...extra,
  });
  const base = { accountId: ACCOUNT_ID, createdBy: OWNER, phpVersion: '8.4' };

  const sites: SiteRecord[] = [
    site(
      { ...base, id: 123456, name: 'ada-blog', created: at(90 * DAY), state: 'live', datacenterCode: 'DCA', favorite: true, tags: [{ id: 11, name: 'client-a' }] },
      { displayName: 'Ada Lovelace Blog', lightWeight404: true },
    ),
    site({ ...base, id: 123457, name: 'shop-staging', created: at(60 * DAY), state: 'live', staging: true, datacenterCode: 'AMS', ecommerce: true }),
    site({ ...base, id: 123458, name: 'playground', created: at(30 * DAY), state: 'live', sandbox: true, datacenterCode: 'BUR' }),
    site({ ...base, id: 123459, name: 'starter-kit', created: at(20 * DAY), state: 'live', sandbox: true, kit: true, datacenterCode: 'DFW' }),
    site({ ...base, id: 123460, name: 'old-portfolio', created: at(400 * DAY), state: 'disabled', datacenterCode: 'DCA', phpVersion: '8.3' }),
    site({ ...base, id: 123461, name: 'analytical-engine', created: at(10 * DAY), state: 'live', datacenterCode: 'AMS', favorite: true, gitEnrolled: false }),
  ];

  const activity: ActivityRecord[] = [
    [5512090, 70 * DAY, 'site.created', 'Site created', 'ui', 'Site old-portfolio was created.', null],
    [5512091, 40 * DAY, 'settings', 'Account settings changed', 'ui', 'Webhook settings were changed.', null],
    [5512092, 20 * DAY, 'report.page_views', 'Page views report', 'systems', 'Page views report for ada-blog was generated.', 123456],
    [5512093, 5 * DAY, 'site.created', 'Site created', 'api.v1', 'Site analytical-engine was created.', 123461],
    [5512094, 2 * DAY, 'backup.downloaded', 'Backup downloaded', 'ui', 'A backup of ada-blog was downloaded.', 123456],
  ].map(([id, ago, name, description, source, message, siteId]) => ({
    id: id as number,
    timestamp: at(ago as number),
    accountEmail: OWNER.email,
    ipAddress: source === 'systems' ? null : '203.0.113.24',
    userAgent: source === 'api.v1' ? 'hosting-api-client/1.0.0' : 'Mozilla/5.0',
    name: name as string,
    description: description as string,
    source: source as string,
    message: message as string,
    siteId: siteId as number | null,
  }));

  return {
    account: {
      id: OWNER_ID,
      affiliate: false,
      email: OWNER.email,
      name: OWNER.name,
      organization: 'Analytical Engines Ltd',
      phoneNumber: '+44 20 7946 0958',
      productName: 'Business',
      avatar: 'https://example.com/avatars/ada.png',
      pageViews: {
        allTime: { people: 182340, views: 611204 },
        lastTwoYearsIsAllTime: { people: 182340, views: 611204 },
        currentMonth: { people: 4120, views: 13877 },
        lastMonth: { people: 9870, views: 31502 },
        today: { people: 212, views: 640 },
        twoMonthsAgo: { people: 9455, views: 30118 },
        yesterday: { people: 331, views: 1012 },
      },
      preview: false,
      defaultPhpVersion: '8.4',
      defaultDatacenter: 'DCA',
      maxSites: 50,
      maxBillable: 50,
      maxStaging: 50,
      highTrafficPlan: true,
    },
    activity,
    addons: [
      { id: 11, name: 'Additional sites', unitAllocation: 5, priceInCents: 2500 },
      { id: 12, name: 'Additional storage', unitAllocation: 10, priceInCents: 1000 },
    ],
    attachedAddons: [{ addonId: 11, quantity: 2 }],
    sites,
    notes: [
      { id: 42, siteId: 123456, author: OWNER.name, editor: OWNER.name, subject: 'Launch checklist', body: 'Point DNS at the platform after the content freeze.', created: at(30 * DAY), updated: at(30 * DAY) },
      { id: 43, siteId: 123456, author: OWNER.name, editor: 'Grace Hopper', subject: 'Plugin audit', body: 'Remove unused plugins before the next release.', created: at(10 * DAY), updated: at(3 * DAY) },
    ],
    collaborators: [
      { id: 98765, created: at(80 * DAY), updated: at(80 * DAY), accountId: ACCOUNT_ID, email: 'grace@example.com', siteId: 123456, state: 'active', wpUsername: 'grace', name: 'Grace Hopper', siteName: 'ada-blog', roles: ['manage_notes', 'manage_backups_restores', 'wp_access'], avatar: 'https://avatars.example.com/grace.png', username: null, favorite: true, tags: [] },
      { id: 98766, created: at(50 * DAY), updated: at(50 * DAY), accountId: ACCOUNT_ID, email: 'grace@example.com', siteId: 123457, state: 'active', wpUsername: 'grace', name: 'Grace Hopper', siteName: 'shop-staging', roles: ['wp_access'], avatar: 'https://avatars.example.com/grace.png', username: null, favorite: false, tags: [{ id: 21, name: 'shops' }] },
      { id: 98767, created: at(40 * DAY), updated: at(40 * DAY), accountId: ACCOUNT_ID, email: 'alan@example.com', siteId: 123456, state: 'active', wpUsername: 'alan', name: 'Alan Turing', siteName: 'ada-blog', roles: ['manage_dns'], avatar: 'https://avatars.example.com/alan.png', username: 'alan', favorite: false, tags: [] },
    ],
    accountLevelAccess: [],
    zones: [{ id: 5501, name: 'example.com', created: at(100 * DAY), updated: at(10 * DAY) }],
    dnsRecords: [
      { id: 880123, zoneId: 5501, primary: true, type: 'A', name: 'example.com', value: '192.0.2.10', priority: null, weight: null, port: null, ttl: 3600, siteId: 123456, created: at(90 * DAY), ssl: { status: 'active', issuer: 'Example CA', expires_at: at(-60 * DAY) } },
      { id: 880124, zoneId: 5501, primary: false, type: 'CNAME', name: 'www.example.com', value: 'example.com', priority: null, weight: null, port: null, ttl: 3600, siteId: null, created: at(90 * DAY), ssl: null },
      { id: 880125, zoneId: 5501, primary: false, type: 'TXT', name: 'example.com', value: 'v=spf1 -all', priority: null, weight: null, port: null, ttl: 3600, siteId: null, created: at(60 * DAY), ssl: null },
    ],
    domainSetupLinks: [],
    firewallRules: [
      { id: '8812', siteId: 123456, destination: '198.51.100.7', port: '443', protocol: 'tcp', created: at(15 * DAY) },
    ],
    plugins: [
      { siteId: 123456, name: 'contact-form', title: 'Contact Form', description: 'Simple contact forms.', status: 'active', update: 'none', version: '5.9.1', update_version: null },
      { siteId: 123456, name: 'seo-tools', title: 'SEO Tools', description: 'Search engine helpers.', status: 'inactive', update: 'available', version: '2.1.0', update_version: '2.2.0' },
      { siteId: 123456, name: 'hello-dolly', title: 'Hello Dolly', description: 'A plugin that shows a line from a song in the admin screens.', status: 'active', update: 'available', version: '1.7.2', update_version: '1.7.3' },
      { siteId: 123456, name: 'object-cache', title: 'Object Cache', description: 'Persistent object cache drop-in.', status: 'dropin', update: 'none', version: '1.0.0', update_version: null },
    ],
    muPlugins: [
      { id: 317, created: at(25 * DAY), existingSites: true, futureSites: true, path: 'https://example.com/mu/site-defaults.php', slug: 'site-defaults.php' },
    ],
    backups: [
      // As in the spec's examples: 81234567 is the database part, 81234568 the filesystem part.
      { id: '81234567', site_id: 123456, backup_timestamp: at(1 * DAY), type: 'db', title: 'Daily backup', formatted_timestamp: at(1 * DAY) },
      { id: '81234568', site_id: 123456, backup_timestamp: at(1 * DAY), type: 'fs', title: 'Daily backup', formatted_timestamp: at(1 * DAY) },
      { id: '81234569', site_id: 123456, backup_timestamp: at(2 * DAY), type: 'fs', title: 'Daily backup', formatted_timestamp: at(2 * DAY) },
      { id: '81234570', site_id: 123456, backup_timestamp: at(2 * DAY), type: 'db', title: 'Daily backup', formatted_timestamp: at(2 * DAY) },
      { id: '81234571', site_id: 123457, backup_timestamp: at(1 * DAY), type: 'db', title: 'Daily backup', formatted_timestamp: at(1 * DAY) },
    ],
    ondemandBackups: [
      { id: '5523871', requestId: 77001, siteId: 123456, completed: epoch(3 * DAY - 600_000), status: 'completed', type: 'fs', bytes: '524288000', requested: epoch(3 * DAY), backupTimestamp: at(3 * DAY - 600_000), createdBy: OWNER.name, removedIn: '27 days', deleteAt: epoch(3 * DAY - 30 * DAY) },
    ],
    restores: [
      { id: 6601, siteId: 123456, created: at(7 * DAY), status: 'completed', logMessages: ['Restore started', 'Restore completed'] },
    ],
    gitAccountToken: 'ghp_sandboxseedtoken',
    git: [
      {
        siteId: 123456,
        config: { repository: 'https://github.com/example/ada-blog', branch: 'main', destinationPath: '/', repositorySubdirectory: '', connected: true, hasToken: true },
        branches: ['main', 'develop'],
        history: [
          { id: 3101, created: at(4 * DAY), after: '9fceb02d0ae598e95dc970b74767f19372d61af8', before: 'a3f5c1e2b4d6f8091a2b3c4d5e6f708192a3b4c5', branch: 'main', email: OWNER.email, message: 'Update theme', name: OWNER.name, repository: 'https://github.com/example/ada-blog', state: 'deployed' },
        ],
      },
    ],
    alerts: [
      { id: 9001, type: 'site.backup_completed', category: 'completed', severity: 'info', title: 'Backup completed', message: 'The on-demand backup of ada-blog is ready.', icon: 'backup', site: { id: 123456, name: 'ada-blog', display_name: 'Ada Lovelace Blog' }, actions: [{ label: 'View backups', url: 'https://example.com/sites/123456/backups', style: 'primary' }], read: false, dismissed: false, created_at: at(3 * DAY), expiresAt: null },
      { id: 9002, type: 'account.addon_purchased', category: 'purchases', severity: 'info', title: 'Add-on purchased', message: 'You bought 2 additional sites.', icon: 'receipt', site: null, actions: [], read: true, dismissed: false, created_at: at(20 * DAY), expiresAt: null },
      { id: 9003, type: 'site.backup_failed', category: 'failure', severity: 'info', title: 'Backup failed', message: 'The backup of shop-staging failed.', icon: 'backup', site: { id: 123457, name: 'shop-staging', display_name: 'shop-staging' }, actions: [], read: false, dismissed: true, created_at: at(8 * DAY), expiresAt: null },
      { id: 9004, type: 'site.clone_started', category: 'in_progress', severity: 'info', title: 'Expired notice', message: 'This alert has expired.', icon: 'clone', site: null, actions: [], read: false, dismissed: false, created_at: at(40 * DAY), expiresAt: at(10 * DAY) },
    ],
    ids: { site: 200001, note: 1001, activity: 6000001, alert: 10001, collaborator: 99001, zone: 6001, dnsRecord: 890001, firewallRule: 9001, muPlugin: 401, backup: 82000001, ondemandBackup: 5600001, ondemandRequest: 78001, restore: 6701, gitDeploy: 3201, token: 1 },
  };
}
