// The live plan's set-up (writes allowed): the run's own site (deployed, waited for), a site of its
// own for each operation that needs another state, and in them, or in an existing zone, the
// children the write operations name; the git integration for the fuzz phase.
import type { Api } from './api';
import { fill, idOf, itemsOf, type Lister, type Params, paramNames } from './live-lists';
import type { Json, Operation } from './types';
import type { Waits } from './waits';

/**
 * The address of the A records the run creates. An A record holding a site's address is attached
 * to that site, and a live site with a record attached refuses its conversions: the spec's example
 * (192.0.2.10) can be a site's own address (the sandbox gives its sites 192.0.2.x), so a record of
 * the run's could block the run's own conversion. 198.51.100.10 (RFC 5737 documentation space,
 * a block the sandbox gives no site, nor a real server) names no site.
 */
export const RECORD_ADDRESS = '198.51.100.10';

/** Sites of their own for the writes that need a site in a given state (the state table, part 3). */
const OWN_SITE: Record<string, { first?: string; create?: Json }> = {
  disableSite: {},
  enableSite: { first: 'disable' },
  deleteSite: {},
  convertSite: { create: { staging: true } },
  convertSiteToKit: { create: { sandbox: true } },
  convertSiteToSandbox: {},
  convertSiteToLive: { create: { staging: true } },
  convertSiteToStaging: {},
};

/** The first example of an operation's request body (a copy). */
export const example = (o: Operation | undefined): Json => {
  const media = Object.values<Json>(o!.operation.requestBody?.content ?? {})[0];
  return structuredClone(media?.example ?? Object.values<Json>(media?.examples ?? {})[0]?.value ?? {});
};

export function createSetup({
  ops,
  api,
  run,
  lister,
  waits,
  created,
  fixtures,
  own,
  notes,
}: {
  ops: Operation[];
  api: Api;
  run: string;
  lister: Lister;
  waits: Waits;
  /** The sites it made (two creates answered with one id: a stand-in that keeps no state). */
  created: { sites: Json[] };
  fixtures: Params;
  own: Map<string, Json>;
  notes: string[];
}) {
  const { list } = lister;
  const { waitFor } = waits;
  const runEmail = `contract-${run}@example.com`;
  const siteIn = (id: string, states: string[]) =>
    waitFor(`site ${id} ${states.join('/')}`, async () => {
      const r = await api('GET', `/sites/${id}`);
      return r.statusCode === 200 && states.includes(r.json?.data?.state);
    });

  const opAt = (method: string, path: string) => ops.find((o) => o.method === method && o.path === path);
  let siteCount = 0;
  /** A new name for a site of the run's. */
  const siteName = () => {
    siteCount += 1;
    return `contract-${run}-${siteCount}`;
  };
  async function createSite(extra: Json = {}) {
    const createOp = opAt('post', '/sites');
    const body = { ...example(createOp), ...extra, name: siteName() };
    const r = await api('POST', '/sites', body);
    const id = r.json?.data?.id;
    if (r.statusCode !== 200 || id == null)
      throw new Error(`POST /sites answered ${r.statusCode}: ${r.body.slice(0, 200)}`);
    // The same id for two creates: a stand-in that keeps no state (a mock); states never change there.
    if (created.sites.includes(id)) waits.target.stateless = true;
    created.sites.push(id);
    return id;
  }

  /** Creates one item in `collection` (POST on it, or on its /create) and finds its id in the list. */
  async function createIn(collection: string, param: string, body: Json) {
    const path = ops.find(
      (o) => o.method === 'post' && (o.path === collection || o.path === `${collection}/create`),
    )?.path;
    if (!path) return undefined;
    const concrete = fill(path, fixtures);
    const listPath = fill(collection, fixtures);
    const before = new Set(itemsOf((await api('GET', listPath)).json).map((i) => idOf(i, param)));
    const sent = body ?? example(opAt('post', path));
    const r = await api('POST', concrete, sent);
    if (r.statusCode >= 300) throw new Error(`POST ${concrete} answered ${r.statusCode}: ${r.body.slice(0, 200)}`);
    // The new item in the answer: `data` itself, or the item of a list in it with the fields sent.
    const nested = itemsOf(r.json);
    const inAnswer = nested.length
      ? nested.find((i) => Object.entries(sent ?? {}).every(([k, v]) => typeof v !== 'string' || i[k] === v))
      : r.json?.data;
    let id = inAnswer ? (idOf(inAnswer, param) ?? undefined) : undefined;
    if (id !== undefined && before.has(id)) id = undefined;
    if (id === undefined)
      await waitFor(`a new item in ${listPath}`, async () => {
        const items = itemsOf((await api('GET', listPath)).json);
        id = items.map((i) => idOf(i, param)).find((x) => x != null && !before.has(x));
        return id !== undefined;
      });
    return id;
  }

  /**
   * The git integration on the run's site, for the fuzz phase's statements (the seed's transitions):
   * a token stored, a repository connected (its initial deploy) and one deploy more, waited for
   * until the deploy history lists two; then disconnected (which clears the token) and a token
   * stored again, so that the connect and the configuration's update are checked on the site as a
   * team would first connect it. A site the target has not enrolled (422) is left as it is.
   */
  async function prepareGit(site: Json) {
    const path = (id: string) => fill(ops.find((o) => o.operationId === id)?.path ?? '', { site_id: site });
    const send = (id: string, method: string) =>
      api(method, path(id), method === 'DELETE' ? undefined : example(ops.find((o) => o.operationId === id)));
    const token = await send('storeSiteGitToken', 'POST');
    if (token.statusCode >= 300) return notes.push(`git on site ${site}: storing a token answered ${token.statusCode}`);
    const connect = await send('connectSiteGitRepository', 'POST');
    if (connect.statusCode < 300) {
      const history = async () => itemsOf((await api('GET', path('listSiteGitDeployHistory'))).json);
      const idle = async () => !(await history()).some((d) => /ing$/.test(d.state ?? d.status ?? ''));
      await waitFor(`the first git deploy of site ${site}`, async () => (await history()).length > 0 && idle());
      const deploy = await send('deploySiteGit', 'POST');
      if (deploy.statusCode < 300)
        await waitFor(`a second git deploy of site ${site}`, async () => (await history()).length >= 2);
      await send('deleteSiteGitConnection', 'DELETE');
    }
    await send('storeSiteGitToken', 'POST');
  }

  /** Writes allowed: the run's own site and children (see live-plan.ts). */
  async function prepare({ ownSites = true, git = false } = {}) {
    const shared = await createSite();
    const kinds = ownSites ? Object.entries(OWN_SITE).filter(([id]) => ops.some((o) => o.operationId === id)) : [];
    const mine: Json[] = [];
    for (const [, k] of kinds) mine.push(await createSite(k.create));
    for (const [i, [id]] of kinds.entries()) own.set(id, mine[i]);
    await Promise.all([shared, ...mine].map((id) => siteIn(id, ['live'])));
    for (const [id, k] of kinds)
      if (k.first === 'disable') {
        await api('PUT', `/sites/${own.get(id)}/disable`);
        await siteIn(own.get(id), ['disabled']);
      }
    fixtures.site_id = shared;
    const zone = (await list('/zones'))[0];
    if (zone) fixtures.zone_id = zone.id;
    const steps: [string, string, ((b: Json) => Json)?][] = [
      ['note_id', '/sites/{site_id}/notes'],
      // Another port than the example's: the createSiteFirewallRule transaction sends that one.
      [
        'firewall_rule_id',
        '/sites/{site_id}/firewall_rules',
        (b: Json) => ({ ...b, port: String(Number(b.port) + 1) }),
      ],
      [
        'mu_plugin_id',
        '/mu-plugins',
        (b: Json) => ({ ...b, path: `https://downloads.example.com/mu/contract-${run}.php` }),
      ],
      [
        'record_id',
        '/zones/{zone_id}/records',
        (b: Json) => ({ ...b, type: 'A', value: RECORD_ADDRESS, name: `contract-${run}.${zone?.name}` }),
      ],
      ['ondemand_backup_id', '/sites/{site_id}/ondemand-backups'],
    ];
    for (const [param, collection, body] of steps) {
      if (paramNames(collection).some((n) => fixtures[n] === undefined)) continue;
      const createOp = ops.find(
        (o) => o.method === 'post' && (o.path === collection || o.path === `${collection}/create`),
      );
      if (!createOp) continue;
      try {
        const id = await createIn(collection, param, body ? body(example(createOp)) : undefined);
        if (id !== undefined) fixtures[param] = id;
        else notes.push(`no ${param} found in ${collection} after creating one`);
      } catch (error) {
        notes.push(`could not create a ${param}: ${(error as Error).message}`);
      }
    }
    if (git && ['storeSiteGitToken', 'connectSiteGitRepository'].every((id) => ops.some((o) => o.operationId === id)))
      await prepareGit(shared);
    // A collaborator of the run's site, for the writes that name one by e-mail.
    const batch = opAt('post', '/collaborators/batch_create');
    if (batch) {
      const r = await api('POST', '/collaborators/batch_create', {
        ...example(batch),
        email: runEmail,
        siteIds: [shared],
      });
      if (r.statusCode < 300) {
        const ok = await waitFor(
          `collaborator ${runEmail} on site ${shared}`,
          async () => (await api('GET', `/collaborators/${encodeURIComponent(runEmail)}/sites`)).statusCode === 200,
        );
        if (ok) fixtures.email_address = runEmail;
      } else notes.push(`could not add a collaborator to the run's site: ${r.statusCode}`);
    }
  }

  return { prepare, siteName, runEmail };
}
