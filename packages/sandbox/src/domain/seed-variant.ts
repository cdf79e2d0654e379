// Another account than the built-in one, for tests that must not depend on its ids, names or
// counts (the contract gate's "green on any correct server"): variant N of the seed has every id
// moved (the same move everywhere, so references still hold), other site names, one note fewer
// and N more sites.
import { makeSite } from './model/sites.js';
import type { SandboxState } from './state.js';

/** Keys that hold an id or a reference to one (integers, or digits in a string). */
const ID_KEY = /^(id|siteId|site_id|zoneId|addonId|requestId|accountId|databaseBackupId|filesystemBackupId)$/;

export function variantState(state: SandboxState, variant: number): SandboxState {
  if (!Number.isInteger(variant) || variant < 1) throw new Error('seedVariant must be a whole number ≥ 1');
  const shift = 7919 * variant;
  const move = (value: unknown): unknown => {
    if (typeof value === 'number' && Number.isInteger(value)) return value + shift;
    if (typeof value === 'string' && /^\d+$/.test(value)) return String(Number(value) + shift);
    return value;
  };
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = ID_KEY.test(key) ? move(value) : walk(value);
    return out;
  };
  const next = walk(state) as SandboxState;
  // The id counters move too, so that new ids do not meet moved ones.
  next.ids = Object.fromEntries(Object.entries(state.ids).map(([k, v]) => [k, k === 'token' ? v : v + shift]));
  // Other names (site names are unique and appear in URLs).
  const suffix = `v${variant}`;
  for (const site of next.sites) {
    site.name = `${site.name}-${suffix}`;
    if (site.displayName === state.sites.find((s) => s.id + shift === site.id)?.name) site.displayName = site.name;
  }
  // Other counts: one note fewer, `variant` more live sites.
  next.notes = next.notes.slice(1);
  const template = next.sites[0]!;
  for (let i = 0; i < variant; i++) {
    const id = next.ids.site!;
    next.ids.site = id + 1;
    next.sites.push(
      makeSite({
        accountId: template.accountId,
        createdBy: template.createdBy,
        phpVersion: template.phpVersion,
        id,
        name: `extra-${suffix}-${i + 1}`,
        created: template.created,
        state: 'live',
        datacenterCode: template.datacenterCode,
      }),
    );
  }
  return next;
}
