// The sandbox's whole state: plain JSON (arrays of records), so `--seed FILE` can load it,
// `GET /__sandbox/state` can dump it, and reset is a deep copy. Records are the spec's resource
// types plus a few internal fields (documented where they are declared). One section per area:
// phase-2 area authors add internal fields to their own section only.
import type { Schema } from './types.js';

// ---- account ----------------------------------------------------------------------------
export interface AccountRecord {
  id: number;
  affiliate: boolean;
  email: string;
  name: string;
  organization: string;
  phoneNumber: string;
  productName: string;
  avatar: string;
  pageViews: Schema<'PageViews'>;
  preview: boolean;
  defaultPhpVersion: string;
  defaultDatacenter: string | null;
  maxSites: number;
  /** capacity.sites.maxBillable / maxStaging. */
  maxBillable: number;
  maxStaging: number;
  /** Multisite support needs a high-traffic plan (part 8). */
  highTrafficPlan: boolean;
}

export type ActivityRecord = Schema<'ActivityLogEntry'> & {
  /** null for account-level entries; site entries also appear in the account log. */
  siteId: number | null;
};

export interface AttachedAddonRecord {
  addonId: number;
  quantity: number;
}

// ---- sites --------------------------------------------------------------------------------
export type SiteRecord = Omit<Schema<'Site'>, 'createdBy' | 'maintenanceModeStatus'> & {
  createdBy: Schema<'SiteCreatedBy'>;
  maintenanceModeStatus?: 'enabling' | 'disabling';
  pageViews: Schema<'PageViews'>;
  cmsLoginUrl: string;
  /** Enrolled in the new git integration (git operations answer 422 otherwise). */
  gitEnrolled: boolean;
  basicAuthentication: boolean;
  /** Basic-authentication change queued (part 6). */
  basicAuthenticationPending?: boolean;
  cmsMcpEnabled: boolean;
  fileModifications: { disallow_file_edit: boolean; disallow_file_mods: boolean };
  phpFsPermission: 'rw' | 'ro' | 'loggedin';
  /** Set while a restore runs: the site is in maintenance mode (part 3). */
  restoring?: boolean;
};

export type NoteRecord = Schema<'Note'> & { siteId: number };

// ---- collaborators --------------------------------------------------------------------------
export type CollaboratorRecord = Schema<'Collaborator'> & {
  avatar: string;
  username: string | null;
  /** The collaborator's own favorite flag and tags for this site (collaborator views). */
  favorite: boolean;
  tags: Schema<'SiteTag'>[];
};
/** The stored account-level access of one collaborator account (areas/collaborators.ts). */
export interface AccountLevelAccessRecord {
  email: string;
  /** The collaborator account's display name (reused when they are added to sites). */
  name: string;
  /** Roles for automatic additions to new sites; empty unless add_to_all_new. */
  roles: string[];
  /** False once all six access flags were turned off: the account exists but has no account-level access. */
  hasAccess: boolean;
  created: string;
  updated: string;
  // The settings of update-account-level-access (part 4).
  add_to_all_new: boolean;
  create_site: boolean;
  manage_tags: boolean;
  account_notifications: boolean;
  site_management_notifications: boolean;
  site_operation_notifications: boolean;
  account_administrator: boolean;
  view_usage: boolean;
  manage_billing: boolean;
  delegate_email_notification_capabilities: boolean;
  manage_sso: boolean;
}

// ---- DNS ----------------------------------------------------------------------------------
export interface ZoneRecord {
  id: number;
  name: string;
  created: string;
  updated: string;
}
export type DnsRecordRecord = Schema<'DnsRecord'> & {
  /** SSL details for A records; null = `No information found`. */
  ssl: Record<string, unknown> | null;
};
export type DomainSetupLinkRecord = Schema<'DomainSetupLink'> & { siteId: number; name: string };

// ---- firewall, plugins ----------------------------------------------------------------------
export interface FirewallRuleRecord {
  id: string;
  siteId: number;
  destination: string;
  port: string;
  protocol: string;
  created: string;
}
export type PluginRecord = Schema<'Plugin'> & { siteId: number };
export type MuPluginRecord = Schema<'MuPlugin'>;

// ---- backups and restores -------------------------------------------------------------------
export type BackupRecord = Schema<'BackupTyped'>;
export type OndemandBackupRecord = Schema<'OndemandBackup'> & {
  /** Stable internal key: `id` is null while creating, so lookups use requestId until then. */
  requestId: number;
};
export type RestoreRecord = Schema<'Restore'> & {
  siteId: number;
  created: string;
  /** The site restored onto (restore_on_site_id), when it is not `siteId`. */
  targetSiteId?: number;
  /** The target's maintenance mode before the restore, put back when it ends. */
  maintenanceBefore?: boolean;
};

// ---- git ----------------------------------------------------------------------------------
export interface GitRecord {
  siteId: number;
  config: Schema<'GitConfiguration'>;
  branches: string[];
  history: Schema<'GitDeployHistoryEntry'>[];
  /** DELETE git/token (or git) cleared the account's token for this site only (part 4). */
  tokenCleared?: boolean;
}

// ---- alerts ----------------------------------------------------------------------------------
export type AlertRecord = Schema<'Alert'> & {
  /** Expired alerts are invisible (404, not listed); null = never expires. */
  expiresAt: string | null;
};

export interface SandboxState {
  account: AccountRecord;
  activity: ActivityRecord[];
  addons: Schema<'Addon'>[];
  attachedAddons: AttachedAddonRecord[];
  sites: SiteRecord[];
  notes: NoteRecord[];
  collaborators: CollaboratorRecord[];
  accountLevelAccess: AccountLevelAccessRecord[];
  zones: ZoneRecord[];
  dnsRecords: DnsRecordRecord[];
  domainSetupLinks: DomainSetupLinkRecord[];
  firewallRules: FirewallRuleRecord[];
  plugins: PluginRecord[];
  muPlugins: MuPluginRecord[];
  backups: BackupRecord[];
  ondemandBackups: OndemandBackupRecord[];
  restores: RestoreRecord[];
  /** Git token stored for the account (reused across sites, part 4). */
  gitAccountToken: string | null;
  git: GitRecord[];
  alerts: AlertRecord[];
  /** Next id per kind; `nextId(state, 'site')` hands them out. */
  ids: Record<string, number>;
}

/** Hands out the next integer id of a kind (deterministic). */
export function nextId(state: SandboxState, kind: string, start = 1000): number {
  const id = state.ids[kind] ?? start;
  state.ids[kind] = id + 1;
  return id;
}
