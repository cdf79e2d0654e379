// Must-use plugins of the account: one public PHP file each, installed in the default must-use
// plugin directory of the account's existing sites, future sites, or both. Create, refresh and
// delete are queued (part 6): the record changes at once, the work on the sites completes after
// DURATIONS.muPluginChange with an alert and a webhook event. Create and refresh answer the
// booleans as existing_sites/future_sites; list and get as existingSites/futureSites.
import { isIP } from '../../platform.js';
import { defineArea } from '../area.js';
import { badRequest, notFound } from '../errors.js';
import { DEFAULT_PER_PAGE, paginate } from '../pagination.js';
import { DURATIONS, type SandboxRuntime } from '../runtime.js';
import { type MuPluginRecord, nextId, type SandboxState } from '../state.js';
import type { Schema } from '../types.js';

export const muPluginView = (m: MuPluginRecord): Schema<'MuPlugin'> => ({
  id: m.id,
  created: m.created,
  existingSites: m.existingSites,
  futureSites: m.futureSites,
  path: m.path,
  slug: m.slug,
});

export const muPluginWriteView = (m: MuPluginRecord): Schema<'MuPluginWriteResult'> => ({
  id: m.id,
  created: m.created,
  existing_sites: m.existingSites,
  future_sites: m.futureSites,
  path: m.path,
  slug: m.slug,
});

/** Hosts that are not public: loopback, private, link-local and unspecified addresses, local names. */
function isPrivateAddress(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h.endsWith('.internal')) return true;
  const family = isIP(h);
  if (family === 4) {
    const [a = 0, b = 0] = h.split('.').map(Number);
    return (
      a === 10 ||
      a === 127 ||
      a === 0 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168)
    );
  }
  if (family === 6)
    return h === '::1' || h === '::' || h.startsWith('fc') || h.startsWith('fd') || h.startsWith('fe80');
  return !h.includes('.'); // a bare host name only resolves on a private network
}

/** Part 4: a public URL of a single .php file; the slug is its last path segment. */
function checkPath(path: string): { path: string; slug: string } {
  const refuse = (why: string) => badRequest(`body.path: ${why}`);
  let url: URL;
  try {
    url = new URL(path.trim());
  } catch {
    throw refuse('must be the public URL of a single .php file');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('must be an http or https URL');
  if (url.username || url.password) throw refuse('must not carry credentials');
  if (isPrivateAddress(url.hostname)) throw refuse('must be a public URL (not a local or private address)');
  const slug = decodeURIComponent(url.pathname.split('/').pop() ?? '');
  if (!/^[^/\\]+\.php$/i.test(slug) || url.search || url.hash) {
    throw refuse('must point to a single .php file (one PHP file per must-use plugin)');
  }
  return { path: url.href, slug };
}

/** The sites a must-use plugin belongs on: existing ones at its creation and/or later ones. */
function targetSites(state: SandboxState, m: MuPluginRecord): number[] {
  const created = Date.parse(m.created);
  return state.sites
    .filter((s) => (Date.parse(s.created) <= created ? m.existingSites : m.futureSites))
    .map((s) => s.id);
}

type MuOp = 'create' | 'refresh' | 'delete';
const DONE: Record<MuOp, { type: string; title: string; verb: string }> = {
  create: { type: 'account.mu_plugin_installed', title: 'Must-use plugin installed', verb: 'installed on' },
  refresh: { type: 'account.mu_plugin_refreshed', title: 'Must-use plugin refreshed', verb: 'refreshed on' },
  delete: { type: 'account.mu_plugin_removed', title: 'Must-use plugin removed', verb: 'removed from' },
};

/**
 * The queued work on the sites. Create and refresh re-find the record when they complete (a
 * deletion in between wins: nothing is reported); deletion reports the sites it was removed from.
 */
function queue(rt: SandboxRuntime, op: MuOp, record: MuPluginRecord) {
  const snapshot = { ...record };
  const sitesBefore = op === 'delete' ? targetSites(rt.state, snapshot) : [];
  rt.later(DURATIONS.muPluginChange, `mu-plugin ${record.id} ${op}`, () => {
    let sites = sitesBefore;
    if (op !== 'delete') {
      const current = rt.state.muPlugins.find((m) => m.id === snapshot.id);
      if (!current) return;
      sites = targetSites(rt.state, current);
    }
    const { type, title, verb } = DONE[op];
    rt.publishAlert({
      type,
      category: 'completed',
      title,
      message: `${snapshot.slug} was ${verb} ${sites.length} site${sites.length === 1 ? '' : 's'}.`,
      icon: 'plugin',
    });
    rt.emitWebhook(`mu_plugin_${op}_completed`, {
      mu_plugin: muPluginWriteView(snapshot),
      action: op,
      site_ids: sites,
      completed_at: rt.clock.nowIso(),
    });
  });
}

export default defineArea({
  listMuPlugins: ({ state, query }) => {
    const all = [...state.muPlugins].sort((a, b) => b.created.localeCompare(a.created) || b.id - a.id);
    const { items, page } = paginate(all, query.page ?? 1, query.per_page ?? DEFAULT_PER_PAGE);
    return { data: items.map(muPluginView), page };
  },

  getMuPlugin: ({ state, params }) => {
    const m = state.muPlugins.find((x) => x.id === params.mu_plugin_id);
    if (!m) throw notFound();
    return { data: muPluginView(m) };
  },

  createMuPlugin: (ctx) => {
    const { state, body, rt } = ctx;
    const { path, slug } = checkPath(body.path);
    // One file per slug in the must-use plugin directory: a second one would overwrite it.
    if (state.muPlugins.some((m) => m.slug.toLowerCase() === slug.toLowerCase())) {
      throw badRequest(`body.path: a must-use plugin named ${slug} already exists; delete it first or refresh it`);
    }
    const record: MuPluginRecord = {
      id: nextId(state, 'muPlugin', 401),
      created: rt.clock.nowIso(),
      existingSites: body.existing_sites,
      futureSites: body.future_sites,
      path,
      slug,
    };
    state.muPlugins.push(record);
    ctx.activity('mu_plugin.created', 'Must-use plugin created', `Must-use plugin ${slug} was created from ${path}.`);
    queue(rt, 'create', record);
    return { data: muPluginWriteView(record) };
  },

  refreshMuPlugin: (ctx) => {
    const { state, params, rt } = ctx;
    const m = state.muPlugins.find((x) => x.id === params.mu_plugin_id);
    if (!m) throw notFound();
    ctx.activity(
      'mu_plugin.refreshed',
      'Must-use plugin refreshed',
      `Must-use plugin ${m.slug} was refreshed from ${m.path}.`,
    );
    queue(rt, 'refresh', m);
    return { data: muPluginWriteView(m) };
  },

  deleteMuPlugin: (ctx) => {
    const { state, params, rt } = ctx;
    const m = state.muPlugins.find((x) => x.id === params.mu_plugin_id);
    if (!m) throw notFound();
    state.muPlugins = state.muPlugins.filter((x) => x !== m);
    ctx.activity('mu_plugin.deleted', 'Must-use plugin deleted', `Must-use plugin ${m.slug} was deleted.`);
    queue(rt, 'delete', m);
    return { data: null };
  },
});
