// Plugins of a site: list; install (and activate), update, activate, deactivate. The four writes
// are queued (part 6): they answer `data: null` at once, and the change lands after
// DURATIONS.pluginChange of virtual time, with a completion alert and a webhook event.
import { type Ctx, defineArea } from '../area.js';
import { badRequest } from '../errors.js';
import { DURATIONS, type SandboxRuntime } from '../runtime.js';
import type { PluginRecord, SiteRecord } from '../state.js';
import type { OperationId, Schema } from '../types.js';

/** The plugin repository as far as the sandbox knows it: the latest version of known slugs. */
export const PLUGIN_CATALOG: Record<string, { title: string; description: string; latest: string }> = {
  'hello-dolly': {
    title: 'Hello Dolly',
    description: 'A plugin that shows a line from a song in the admin screens.',
    latest: '1.7.3',
  },
  'contact-form': { title: 'Contact Form', description: 'Simple contact forms.', latest: '5.9.1' },
  'seo-tools': { title: 'SEO Tools', description: 'Search engine helpers.', latest: '2.2.0' },
  'classic-editor': { title: 'Classic Editor', description: 'Restores the previous post editor.', latest: '1.6.7' },
  'query-monitor': { title: 'Query Monitor', description: 'The developer tools panel for the CMS.', latest: '3.17.0' },
};
/** Version of a repository plugin the catalog does not know, and of a zip without a version. */
const DEFAULT_VERSION = '1.0.0';

export const pluginView = ({ siteId: _s, ...plugin }: PluginRecord): Schema<'Plugin'> => ({ ...plugin });

const SLUG = /^[a-z0-9]+(?:[-_.][a-z0-9]+)*$/;
const VERSION = /^\d+(?:\.\d+){0,3}(?:-[0-9A-Za-z.]+)?$/;

/** Compares dotted versions numerically (1.10 > 1.9); a pre-release sorts before its release. */
export function compareVersions(a: string, b: string): number {
  const [ca = '', pa] = a.split('-', 2);
  const [cb = '', pb] = b.split('-', 2);
  const xs = ca.split('.').map(Number);
  const ys = cb.split('.').map(Number);
  for (let i = 0; i < Math.max(xs.length, ys.length); i++) {
    const d = (xs[i] ?? 0) - (ys[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (pa === pb) return 0;
  if (pa === undefined) return 1;
  if (pb === undefined) return -1;
  return pa < pb ? -1 : 1;
}

/** `update` and `update_version` of an installed version against the latest one. */
function updateFields(version: string, latest: string): Pick<Schema<'Plugin'>, 'update' | 'update_version'> {
  const c = compareVersions(version, latest);
  if (c < 0) return { update: 'available', update_version: latest };
  if (c > 0) return { update: 'version higher than expected', update_version: null };
  return { update: 'none', update_version: null };
}

/** The latest version of a slug: the catalog's, else what the installed record knows. */
function latestOf(slug: string, record?: PluginRecord): string {
  return PLUGIN_CATALOG[slug]?.latest ?? record?.update_version ?? record?.version ?? DEFAULT_VERSION;
}

function checkVersion(version: string | undefined, field: string): string | undefined {
  if (version === undefined) return undefined;
  if (!VERSION.test(version.trim())) throw badRequest(`${field}: must be a version such as 1.7.2`);
  return version.trim();
}

const titleOf = (slug: string) =>
  slug
    .split(/[-_.]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');

interface InstallTarget {
  slug: string;
  /** Explicit version, or undefined for the latest. */
  version?: string;
  /** Installed from a zip URL: not in the repository, so no updates are known. */
  zip: boolean;
}

/** A repository slug or an HTTPS URL of a plugin zip (the slug is the zip's file name). */
function installTarget(path: string, version: string | undefined, field: string): InstallTarget {
  const p = path.trim();
  const refuse = () => badRequest(`${field}: must be a plugin slug (e.g. hello-dolly) or an HTTPS URL of a plugin zip`);
  if (/^[a-z][a-z0-9+.-]*:/i.test(p)) {
    let url: URL;
    try {
      url = new URL(p);
    } catch {
      throw refuse();
    }
    if (url.protocol !== 'https:' || !url.hostname) throw refuse();
    let file: string;
    try {
      file = decodeURIComponent(url.pathname.split('/').pop() ?? '');
    } catch {
      // Broken percent-encoding (`%E0%A4%A.zip`): no file name can be read from it.
      throw refuse();
    }
    if (!/\.zip$/i.test(file)) throw refuse();
    const slug = file.replace(/\.zip$/i, '').toLowerCase();
    if (!SLUG.test(slug)) throw refuse();
    return { slug, version, zip: true };
  }
  if (!SLUG.test(p)) throw refuse();
  return { slug: p, version, zip: false };
}

type PluginOp = 'install' | 'update' | 'activate' | 'deactivate';
const PAST = {
  install: 'installed',
  update: 'updated',
  activate: 'activated',
  deactivate: 'deactivated',
} as const satisfies Record<PluginOp, string>;
const NOUN: Record<PluginOp, string> = {
  install: 'Installation',
  update: 'Update',
  activate: 'Activation',
  deactivate: 'Deactivation',
};

/** Finds the installed plugin named by each selection entry; refuses unknown or repeated slugs. */
function installedPlugins(
  ctx: Ctx<OperationId>,
  site: SiteRecord,
  paths: { path: string }[],
  op: PluginOp,
): PluginRecord[] {
  const seen = new Set<string>();
  return paths.map(({ path }, i) => {
    const field = `body.plugins.${i}.path`;
    const slug = path.trim();
    if (seen.has(slug)) throw badRequest(`${field}: ${slug} is listed more than once`);
    seen.add(slug);
    const plugin = ctx.state.plugins.find((p) => p.siteId === site.id && p.name === slug);
    if (!plugin) throw badRequest(`${field}: no plugin ${slug} is installed on site ${site.name}`);
    if (plugin.status === 'dropin' && (op === 'activate' || op === 'deactivate')) {
      throw badRequest(`${field}: ${slug} is a drop-in, which cannot be ${PAST[op]}`);
    }
    return plugin;
  });
}

/**
 * Queues a plugin change: the request logs its activity now, and after DURATIONS.pluginChange
 * `apply` runs against the then-current state (the site may be gone: nothing happens), followed by
 * the completion alert and webhook.
 */
function queue(
  ctx: Ctx<OperationId>,
  site: SiteRecord,
  op: PluginOp,
  slugs: string[],
  apply: (rt: SandboxRuntime, site: SiteRecord) => PluginRecord[],
) {
  const { rt } = ctx;
  const list = slugs.join(', ');
  ctx.activity(
    `plugin.${PAST[op]}`,
    `Plugins ${PAST[op]}`,
    `${NOUN[op]} of ${list} on ${site.name} was requested.`,
    site.id,
  );
  const siteId = site.id;
  rt.later(DURATIONS.pluginChange, `plugins ${op} on site ${siteId}: ${list}`, () => {
    const current = rt.state.sites.find((s) => s.id === siteId);
    if (!current) return;
    const changed = apply(rt, current);
    if (!changed.length) return;
    rt.publishAlert({
      type: `site.plugins_${PAST[op]}`,
      category: 'completed',
      title: `Plugins ${PAST[op]}`,
      message: `${changed.map((p) => p.name).join(', ')} ${changed.length === 1 ? 'was' : 'were'} ${PAST[op]} on ${current.name}.`,
      icon: 'plugin',
      siteId,
    });
    rt.emitWebhook(`plugin_${op}_completed`, {
      site: { id: current.id, name: current.name },
      action: op,
      plugins: changed.map((p) => ({ name: p.name, status: p.status, version: p.version })),
      completed_at: rt.clock.nowIso(),
    });
  });
  return { data: null };
}

/** Queues activation or deactivation of the selected plugins (drop-ins stay as they are). */
function setPluginStatus(
  ctx: Ctx<'activateSitePlugins' | 'deactivateSitePlugins'>,
  op: 'activate' | 'deactivate',
  status: 'active' | 'inactive',
) {
  const site = ctx.site(ctx.params.site_id);
  const plugins = installedPlugins(ctx, site, ctx.body.plugins, op);
  return queue(
    ctx,
    site,
    op,
    plugins.map((p) => p.name),
    (rt, current) =>
      plugins.flatMap((p) => {
        const record = rt.state.plugins.find((x) => x.siteId === current.id && x.name === p.name);
        if (!record || record.status === 'dropin') return [];
        record.status = status;
        return [record];
      }),
  );
}

export default defineArea({
  listSitePlugins: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    return { data: ctx.state.plugins.filter((p) => p.siteId === site.id).map(pluginView) };
  },

  installSitePlugins: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    const seen = new Set<string>();
    const targets = ctx.body.plugins.map((p, i) => {
      const t = installTarget(p.path, checkVersion(p.version, `body.plugins.${i}.version`), `body.plugins.${i}.path`);
      if (seen.has(t.slug)) throw badRequest(`body.plugins.${i}.path: ${t.slug} is listed more than once`);
      seen.add(t.slug);
      return t;
    });
    return queue(
      ctx,
      site,
      'install',
      targets.map((t) => t.slug),
      (rt, current) =>
        targets.map((t) => {
          const known = PLUGIN_CATALOG[t.slug];
          let record = rt.state.plugins.find((p) => p.siteId === current.id && p.name === t.slug);
          const latest = t.zip ? (t.version ?? DEFAULT_VERSION) : latestOf(t.slug, record);
          const version = t.version ?? latest;
          if (!record) {
            record = {
              siteId: current.id,
              name: t.slug,
              title: known?.title ?? titleOf(t.slug),
              description: known?.description ?? '',
              status: 'active',
              update: 'none',
              version,
              update_version: null,
            };
            rt.state.plugins.push(record);
          }
          // Installing installs and activates (part 4), also over an installed copy.
          Object.assign(record, { status: 'active', version }, updateFields(version, latest));
          return record;
        }),
    );
  },

  updateSitePlugins: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    const plugins = installedPlugins(ctx, site, ctx.body.plugins, 'update');
    const versions = ctx.body.plugins.map((p, i) => checkVersion(p.version, `body.plugins.${i}.version`));
    return queue(
      ctx,
      site,
      'update',
      plugins.map((p) => p.name),
      (rt, current) =>
        plugins.flatMap((p, i) => {
          const record = rt.state.plugins.find((x) => x.siteId === current.id && x.name === p.name);
          if (!record) return [];
          const latest = latestOf(record.name, record);
          const version = versions[i] ?? latest;
          Object.assign(record, { version }, updateFields(version, latest));
          return [record];
        }),
    );
  },

  activateSitePlugins: (ctx) => setPluginStatus(ctx, 'activate', 'active'),

  deactivateSitePlugins: (ctx) => setPluginStatus(ctx, 'deactivate', 'inactive'),
});
