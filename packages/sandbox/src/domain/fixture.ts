// The zod schema of a whole sandbox state, for `PUT /__sandbox/state`, `PATCH /__sandbox/state`
// and `--seed FILE`: built from the spec's component schemas (@hosting-api/schemas) plus the
// internal fields declared in state.ts, so a fixture that passes is one every handler can serve.
// The compile-time check at the bottom keeps it in step with the `SandboxState` type.
import * as S from '@hosting-api/schemas';
import { z } from 'zod';
import { DUMP_SIZE_LIMIT, STATE_SIZE_LIMIT, sizeOf, stateSize } from './budget.js';
import type { SandboxState } from './state.js';

const int = z.number().int();
const siteId = int;

const Account = z.object({
  id: int,
  affiliate: z.boolean(),
  email: z.string(),
  name: z.string(),
  organization: z.string(),
  phoneNumber: z.string(),
  productName: z.string(),
  avatar: z.string(),
  pageViews: S.PageViews,
  preview: z.boolean(),
  defaultPhpVersion: z.string(),
  defaultDatacenter: z.string().nullable(),
  maxSites: int,
  maxBillable: int,
  maxStaging: int,
  highTrafficPlan: z.boolean(),
});

const SiteRecord = S.Site.omit({ createdBy: true, maintenanceModeStatus: true }).extend({
  createdBy: S.SiteCreatedBy,
  maintenanceModeStatus: z.enum(['enabling', 'disabling']).optional(),
  pageViews: S.PageViews,
  cmsLoginUrl: z.string(),
  gitEnrolled: z.boolean(),
  basicAuthentication: z.boolean(),
  basicAuthenticationPending: z.boolean().optional(),
  cmsMcpEnabled: z.boolean(),
  fileModifications: z.object({ disallow_file_edit: z.boolean(), disallow_file_mods: z.boolean() }),
  phpFsPermission: z.enum(['rw', 'ro', 'loggedin']),
  restoring: z.boolean().optional(),
});

export const SandboxStateSchema = z.object({
  account: Account,
  activity: z.array(S.ActivityLogEntry.extend({ siteId: siteId.nullable() })),
  addons: z.array(S.Addon),
  attachedAddons: z.array(z.object({ addonId: int, quantity: int })),
  sites: z.array(SiteRecord),
  notes: z.array(S.Note.extend({ siteId })),
  collaborators: z.array(
    S.Collaborator.extend({
      avatar: z.string(),
      username: z.string().nullable(),
      favorite: z.boolean(),
      tags: z.array(S.SiteTag),
    }),
  ),
  accountLevelAccess: z.array(
    z.object({
      email: z.string(),
      name: z.string(),
      roles: z.array(z.string()),
      hasAccess: z.boolean(),
      created: z.string(),
      updated: z.string(),
      add_to_all_new: z.boolean(),
      create_site: z.boolean(),
      manage_tags: z.boolean(),
      account_notifications: z.boolean(),
      site_management_notifications: z.boolean(),
      site_operation_notifications: z.boolean(),
      account_administrator: z.boolean(),
      view_usage: z.boolean(),
      manage_billing: z.boolean(),
      delegate_email_notification_capabilities: z.boolean(),
      manage_sso: z.boolean(),
    }),
  ),
  zones: z.array(z.object({ id: int, name: z.string(), created: z.string(), updated: z.string() })),
  dnsRecords: z.array(S.DnsRecord.extend({ ssl: z.record(z.string(), z.unknown()).nullable() })),
  domainSetupLinks: z.array(S.DomainSetupLink.extend({ siteId, name: z.string() })),
  firewallRules: z.array(
    z.object({
      id: z.string(),
      siteId,
      destination: z.string(),
      port: z.string(),
      protocol: z.string(),
      created: z.string(),
    }),
  ),
  plugins: z.array(S.Plugin.extend({ siteId })),
  muPlugins: z.array(S.MuPlugin),
  backups: z.array(S.BackupTyped),
  ondemandBackups: z.array(S.OndemandBackup.extend({ requestId: int })),
  restores: z.array(
    S.Restore.extend({
      siteId,
      created: z.string(),
      targetSiteId: siteId.optional(),
      maintenanceBefore: z.boolean().optional(),
    }),
  ),
  gitAccountToken: z.string().nullable(),
  git: z.array(
    z.object({
      siteId,
      config: S.GitConfiguration,
      branches: z.array(z.string()),
      history: z.array(S.GitDeployHistoryEntry),
      tokenCleared: z.boolean().optional(),
    }),
  ),
  alerts: z.array(S.Alert.extend({ expiresAt: z.string().nullable() })),
  ids: z.record(z.string(), int),
});

/**
 * The problems of a fixture: empty when it is a usable state, else one text naming the first bad
 * field by its path (`sites.0.id: Invalid input: expected number, received string`).
 */
/**
 * The path of a `__proto__` key anywhere in a value (JSON.parse keeps it as an own key, and a merge
 * or a copy would reach Object.prototype through it), or undefined. An explicit stack, not recursion.
 */
export function protoKeyPath(value: unknown, root: string): string | undefined {
  const stack: [unknown, string][] = [[value, root]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, path] = top;
    if (typeof node !== 'object' || node === null) continue;
    for (const key of Object.keys(node)) {
      if (key === '__proto__') return `${path}.__proto__`;
      stack.push([(node as Record<string, unknown>)[key], `${path}.${key}`]);
    }
  }
  return undefined;
}

export function fixtureProblems(value: unknown, stateLimit = STATE_SIZE_LIMIT): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return ['the fixture must be a JSON object (e.g. a dump from GET /__sandbox/state)'];
  }
  const result = SandboxStateSchema.safeParse(value);
  if (result.success) return sizeProblems(value as SandboxState, stateLimit);
  const issue = result.error.issues[0]!;
  const path = issue.path.map(String).join('.');
  return [`${path || '(the fixture)'}: ${issue.message}`];
}

/** A fixture the sandbox could not have made: past the state's size limit, or past the dump's. */
function sizeProblems(state: SandboxState, stateLimit: number): string[] {
  const size = stateSize(state);
  if (size > stateLimit)
    return [`(the fixture): its state takes about ${size} characters, more than the sandbox keeps (${stateLimit})`];
  const whole = sizeOf(state);
  if (whole > DUMP_SIZE_LIMIT)
    return [`(the fixture): it takes about ${whole} characters, more than the state dump answers (${DUMP_SIZE_LIMIT})`];
  return [];
}

// Compile-time: whatever the schema accepts is a SandboxState (a field added to state.ts and not
// here, or typed differently, fails the typecheck).
type Accepted = z.infer<typeof SandboxStateSchema>;
export const fixtureMatchesState: Accepted extends SandboxState ? true : never = true;
