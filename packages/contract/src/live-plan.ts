// The examples phase against a live target with no target data: what each transaction is sent to.
//
//   - Reads go to resources that exist: their ids are found through the list operations (the
//     collection of a path parameter is the GET of the path before it: /sites for site_id,
//     /sites/{site_id}/notes for note_id, /collaborators/{email_address}/sites for the site of a
//     collaborator), tried in turn until one answers 2xx (a target where none does fails with the first).
//   - Writes go only to what the run created itself (with --allow-writes): a site (deployed, waited
//     for), and in it or in an existing zone the children the write operations name (a note, a DNS
//     record, a firewall rule, an on-demand backup, a must-use plugin, a collaborator); an operation
//     that needs a site in another state (enable, the conversions, delete) gets a site of its own.
//   - Transactions run creates first, then reads, then other writes, then deletes (children before
//     parents); everything the run created is deleted at the end; a setting that exists once (the
//     account's defaults, an add-on's quantity) is put back after the transaction that changes it.
//   - Resources that existed before are snapshotted through every GET before and after the run and
//     compared (the state diff): any change is a failure that says what changed.
// State waits poll with backoff within one budget (CONTRACT_WAIT_BUDGET ms, default 180000), reported;
// with CONTRACT_CONTROL_URL (the sandbox's control routes) the clock is moved on between polls.
import type { Json, Operation, SpecModel } from './types';

/** Path parameters by name (ids found in lists or made by the run). */
type Params = Record<string, Json>;
/** An answer of the plan's requests: status, text and (when it parsed) JSON. */
interface ApiAnswer {
  statusCode: number;
  body: string;
  json?: Json;
}
/** A request with the run's token (hooks.ts planApi, main.ts stateDiff): method, path under the base URL, JSON body, Accept. */
type Api = (method: string, path: string, body?: unknown, accept?: string) => Promise<ApiAnswer>;
/** Where a transaction goes (resolve): its path parameters and body, or why it is skipped. */
interface Resolution {
  params?: Params;
  body?: Json;
  skip?: string;
}
/** A resource as the state diff reads it (snapshot): the operation, its `data`, whether a list, whether paged. */
interface Snapshot {
  op: string;
  data: Json;
  isList: boolean;
  paged: boolean;
}

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
/** Writes that must come before others on the same resource (a git connection needs its token). */
const FIRST = new Set(['storeSiteGitToken']);
/** Writes that change every item of a collection at once: run only when no pre-existing item would change. */
const ALL_ITEMS: Record<string, { list: string; unchanged: (a: Json) => boolean }> = {
  markAllAlertsRead: { list: '/alerts?show_dismissed=true', unchanged: (a: Json) => a.read === true },
  dismissAllAlerts: { list: '/alerts?show_dismissed=true', unchanged: (a: Json) => a.dismissed === true },
};
/** Fields that hold an id where the generic rule (the item's `id`) does not: by parameter and media type. */
const ID_FIELDS: Record<string, Record<string, string>> = {
  backup_id: { 'application/gzip': 'filesystemBackupId', 'application/sql': 'databaseBackupId' },
};
/** Item filters for a download in a media type (on-demand backups of that type, completed). */
const MEDIA_ITEMS: Record<string, Record<string, (b: Json) => boolean>> = {
  ondemand_backup_id: {
    'application/gzip': (b: Json) => b.type === 'fs' && b.id != null,
    'application/sql': (b: Json) => b.type === 'db' && b.id != null,
  },
};
const DELETE_RE = /^(delete|destroy|batchDestroy|remove)/;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fill = (path: string, params: Params) =>
  path.replace(/\{([^}]+)\}/g, (_, n: string) => encodeURIComponent(String(params[n])));
const paramNames = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);

/** The items of a list answer: `data` when it is a list, else the first list of objects inside `data`. */
function itemsOf(json: Json): Json[] {
  const data = json?.data;
  if (Array.isArray(data)) return data;
  if (data && typeof data === 'object')
    for (const value of Object.values(data))
      if (Array.isArray(value) && value.every((v) => v && typeof v === 'object')) return value;
  return [];
}

function idOf(item: Json, param: string, mediaType?: string) {
  const field = mediaType === undefined ? undefined : ID_FIELDS[param]?.[mediaType];
  if (field) return item[field] ?? undefined;
  if (param.endsWith('_id')) return item.id ?? undefined;
  const word = param.split('_')[0] as string;
  return item[param] ?? item[word] ?? undefined;
}

/**
 * @param o.model the spec model; o.api(method, path, body?) → {statusCode, json, body} with the run's token
 * @param o.writes writes allowed; o.run a short unique word for names
 */
function createPlan({
  model,
  api,
  writes,
  run,
  budgetMs = Number(process.env.CONTRACT_WAIT_BUDGET) || 180_000,
  advance,
  inScope = () => true,
}: {
  model: SpecModel;
  api: Api;
  writes: boolean;
  /** --only / --exclude: the state diff reads only the operations in scope. */
  inScope?: (o: Operation) => boolean;
  run: string;
  budgetMs?: number;
  advance?: (() => Promise<unknown>) | undefined;
}) {
  const ops = model.operations.filter((o) => !o.outsideV1);
  const getPaths = new Set(ops.filter((o) => o.method === 'get').map((o) => o.path));
  const isRead = (o: Operation) => /^(get|list|search|validate|query)[A-Z]/.test(o.operationId);
  const waits = { count: 0, ms: 0, budgetMs, timedOut: [] as string[] };
  const created = { sites: [] as Json[], items: [] as { path: string; parent: string }[] }; // items: {path} to DELETE at the end
  const own = new Map<string, Json>(); // operationId → site id of its own
  const fixtures: Params = {}; // param → id of a run-created resource (writes)
  const notes: string[] = []; // what the plan could not set up, and why
  let stateless = false;
  const runEmail = `contract-${run}@example.com`;

  /** The collection (list path) of a parameter as it appears in `path`. */
  function collectionOf(path: string, param: string) {
    const at = path.indexOf(`/{${param}}`);
    const prefix = path.slice(0, at);
    if (getPaths.has(prefix)) return prefix;
    const top = [...getPaths].find((p) => getPaths.has(p) && ops.some((o) => o.path.startsWith(`${p}/{${param}}`)));
    return top;
  }

  const lists = new Map<string, Promise<Json[]>>();
  const unanswered = new Set<string>(); // lists that did not answer 200
  async function list(path: string) {
    if (!lists.has(path))
      lists.set(
        path,
        api('GET', path).then(
          (r) => {
            if (r.statusCode !== 200) unanswered.add(path);
            return r.statusCode === 200 ? itemsOf(r.json) : [];
          },
          () => {
            unanswered.add(path);
            return [];
          },
        ),
      );
    return lists.get(path) as Promise<Json[]>;
  }

  /** Every way to fill `path`'s parameters with existing ids (at most `max` per level). */
  async function tuples(path: string, mediaType: string | undefined, max = 4, prefix: Params = {}): Promise<Params[]> {
    const names = paramNames(path).filter((n) => !(n in prefix));
    if (!names.length) return [prefix];
    const name = names[0] as string;
    const collection = collectionOf(path, name);
    if (!collection) return [];
    let items = await list(fill(collection, prefix));
    const only = mediaType === undefined ? undefined : MEDIA_ITEMS[name]?.[mediaType];
    if (only) items = items.filter(only);
    const out: Params[] = [];
    for (const item of items.slice(0, 20)) {
      const id = idOf(item, name, mediaType);
      if (id === undefined || id === null) continue;
      out.push(...(await tuples(path, mediaType, max, { ...prefix, [name]: id })));
      if (out.length >= max) break;
    }
    return out.slice(0, max);
  }

  // ---- waits ------------------------------------------------------------------------------------
  /** Polls `probe` (→ true when done) with backoff until done or the run's wait budget is spent. */
  // The budget is wall-clock time during which at least one wait runs (waits run side by side).
  let active = 0;
  let activeSince = 0;
  const spent = () => waits.ms + (active ? Date.now() - activeSince : 0);
  async function waitFor(what: string, probe: () => Promise<unknown>) {
    const t0 = Date.now();
    waits.count += 1;
    if (stateless) return probe().catch(() => false);
    if (active++ === 0) activeSince = Date.now();
    let delay = 100;
    try {
      for (;;) {
        if (await probe().catch(() => false)) return true;
        // A target with control routes (CONTRACT_CONTROL_URL): its clock is moved on instead of waited for.
        if (advance) await advance().catch(() => undefined);
        // One wait takes at most a minute of the run's budget.
        if (spent() + delay > budgetMs || Date.now() - t0 + delay > 60_000) {
          waits.timedOut.push(what);
          return false;
        }
        await sleep(delay);
        delay = Math.min(delay * 1.6, 5000);
      }
    } finally {
      if (--active === 0) waits.ms += Date.now() - activeSince;
    }
  }
  const siteIn = (id: string, states: string[]) =>
    waitFor(`site ${id} ${states.join('/')}`, async () => {
      const r = await api('GET', `/sites/${id}`);
      return r.statusCode === 200 && states.includes(r.json?.data?.state);
    });

  // ---- creating -----------------------------------------------------------------------------------
  const example = (o: Operation | undefined): Json => {
    const media = Object.values<Json>(o!.operation.requestBody?.content ?? {})[0];
    return structuredClone(media?.example ?? Object.values<Json>(media?.examples ?? {})[0]?.value ?? {});
  };
  const opAt = (method: string, path: string) => ops.find((o) => o.method === method && o.path === path);
  let siteCount = 0;
  async function createSite(extra: Json = {}) {
    const createOp = opAt('post', '/sites');
    siteCount += 1;
    const body = { ...example(createOp), ...extra, name: `contract-${run}-${siteCount}` };
    const r = await api('POST', '/sites', body);
    const id = r.json?.data?.id;
    if (r.statusCode !== 200 || id == null)
      throw new Error(`POST /sites answered ${r.statusCode}: ${r.body.slice(0, 200)}`);
    // The same id for two creates: a stand-in that keeps no state (a mock); states never change there.
    if (created.sites.includes(id)) stateless = true;
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
    if (id !== undefined && ops.some((o) => o.method === 'delete' && o.path === `${collection}/{${param}}`))
      created.items.push({ path: `${listPath}/${encodeURIComponent(String(id))}`, parent: listPath });
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

  /** Writes allowed: the run's own site and children (see the top of the file). */
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
        (b: Json) => ({ ...b, type: 'A', value: '192.0.2.10', name: `contract-${run}.${zone?.name}` }),
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

  // ---- per transaction ------------------------------------------------------------------------------
  const beforeAlerts = new Set<Json>();
  const chosen = new Map<string, Promise<Resolution>>(); // read path template + media type → the parameters that answered 2xx
  /** Path parameters (and body changes) for a 2xx transaction; or {skip: reason}. */
  async function resolve(o: Operation, mediaType: string): Promise<Resolution> {
    // A GET the spec states an effect for (not safe: the SSH disconnect) goes where writes go.
    if (o.safe || (isRead(o) && o.method !== 'get')) {
      const key = `${o.path} ${mediaType}`;
      if (!chosen.has(key)) chosen.set(key, resolveRead(o, mediaType));
      return chosen.get(key) as Promise<Resolution>;
    }
    return resolveWrite(o);
  }

  async function resolveRead(o: Operation, mediaType: string): Promise<Resolution> {
    const candidates = await tuples(o.path, mediaType);
    if (!paramNames(o.path).length) return { params: {} };
    // A list that did not answer: the spec's example ids, and the transaction shows what the target does.
    if (!candidates.length && unanswered.size) return { params: {} };
    if (!candidates.length)
      return { skip: `live: no existing resource to read (the lists of ${paramNames(o.path).join(', ')} are empty)` };
    // The first that answers 2xx; none does: the first, and the transaction shows the answer.
    for (const params of candidates) {
      const r = await api('GET', fill(o.path, params), undefined, mediaType).catch(() => undefined);
      if (r && r.statusCode < 300) return { params };
    }
    return { params: candidates[0] };
  }

  /**
   * A read's documented refusal other than 400/401/404 (a git read's 422: a site not enrolled) from
   * what exists: the first existing resource whose GET answers that status, or a skip. Only reads
   * are probed, so nothing changes.
   */
  async function resolveRefusal(o: Operation, mediaType: string, status: string): Promise<Resolution> {
    const candidates = paramNames(o.path).length ? await tuples(o.path, mediaType) : [];
    for (const params of candidates) {
      const r = await api('GET', fill(o.path, params), undefined, mediaType).catch(() => undefined);
      if (String(r?.statusCode) === status) return { params };
    }
    return { skip: `live: no existing resource answers ${o.operationId} with ${status}` };
  }

  async function resolveWrite(o: Operation): Promise<Resolution> {
    if (!writes) return {};
    const all = ALL_ITEMS[o.operationId];
    if (all) {
      const items = await list(all.list);
      const changed = items.filter((a) => beforeAlerts.has(a.id) && !all.unchanged(a));
      if (changed.length)
        return {
          skip: `live: it would change ${changed.length} alert(s) that existed before the run, which cannot be put back`,
        };
      return { params: {} };
    }
    const params = { ...fixtures };
    if (own.has(o.operationId)) params.site_id = own.get(o.operationId);
    if (paramNames(o.path).includes('alert_id')) {
      lists.delete('/alerts');
      const mineAlerts = (await list('/alerts')).filter((a) => !beforeAlerts.has(a.id));
      if (!mineAlerts.length)
        return { skip: 'live: no alert that the run caused, and the pre-existing ones stay as they were' };
      params.alert_id = mineAlerts[0].id;
    }
    const missing = paramNames(o.path).filter((n) => params[n] === undefined);
    if (missing.length)
      return {
        skip: `live: nothing the run created to write to for ${missing.join(', ')}${notes.length ? ` (${notes.join('; ')})` : ''}`,
      };
    return { params, body: await bodyFor(o, params) };
  }

  async function bodyFor(o: Operation, params: Params) {
    const b = example(o);
    switch (o.operationId) {
      case 'createSite':
      case 'cloneSite': {
        siteCount += 1;
        return { ...b, name: `contract-${run}-${siteCount}` };
      }
      case 'createZoneRecord': {
        const zone = (await list('/zones')).find((z) => z.id === params.zone_id);
        return { ...b, name: `contract-${run}-2.${zone?.name}` };
      }
      case 'createMuPlugin':
        return { ...b, path: `https://downloads.example.com/mu/contract-${run}-2.php` };
      case 'batchCreateCollaborators':
        return { ...b, email: `contract-${run}-2@example.com`, siteIds: [params.site_id] };
      case 'batchDestroyCollaborators':
        return { ...b, email: runEmail, siteIds: [params.site_id] };
      case 'updateCollaboratorAccountLevelAccess':
        return { ...b, email: `contract-${run}-3@example.com` };
      case 'updateAccountAddon': {
        const addon = (await list('/account/addons'))[0];
        return addon ? { ...b, addon_id: addon.id } : b;
      }
      case 'createSiteRestore': {
        // Backups of an existing site restored onto the run's site (restore_on_site_id): only
        // that site's content is replaced.
        for (const site of await list('/sites')) {
          const items = itemsOf((await api('GET', `/sites/${site.id}/backups`)).json);
          const fs = items.find((i) => i.filesystemBackupId)?.filesystemBackupId;
          const db = items.find((i) => i.databaseBackupId)?.databaseBackupId;
          if (fs && db) {
            params.site_id = site.id;
            return { ...b, filesystem_id: fs, database_id: db, restore_on_site_id: fixtures.site_id };
          }
        }
        return b;
      }
      default:
        return undefined;
    }
  }

  /** After a transaction: remember what it created; put back a setting it changed. */
  const singletons: { account?: Json; attached?: Json[] } = {};
  const queued: Record<string, { path: string; keys: Set<string> }> = {}; // operationId → the list a create answered `data: null` for (queued work), before it
  const keyOf = (i: Json) => JSON.stringify(i?.id ?? i?.slug ?? i?.name ?? i);
  async function before(o: Operation, params: Params = {}) {
    if (o.method === 'post' && getPaths.has(o.path) && !isRead(o)) {
      const path = fill(o.path, { ...fixtures, ...params });
      queued[o.operationId] = { path, keys: new Set(itemsOf((await api('GET', path)).json).map(keyOf)) };
    }
    if (o.operationId === 'updateAccount') singletons.account = (await api('GET', '/account')).json?.data;
    if (o.operationId === 'updateAccountAddon')
      singletons.attached = itemsOf((await api('GET', '/account/addons/attached')).json);
  }
  async function after(o: Operation, real: { statusCode: number; body: string }, body: Json) {
    let json: Json;
    try {
      json = JSON.parse(real.body);
    } catch {}
    if ((o.operationId === 'createSite' || o.operationId === 'cloneSite') && json?.data?.id != null)
      created.sites.push(json.data.id);
    // A create that answered `data: null` queued its work (plugins installed later): the writes
    // after it wait until it shows in its list.
    const pending = queued[o.operationId];
    delete queued[o.operationId];
    if (pending && real.statusCode < 300 && json && json.data === null)
      await waitFor(`the queued ${o.operationId} to show in ${pending.path}`, async () =>
        itemsOf((await api('GET', pending.path)).json).some((i) => !pending.keys.has(keyOf(i))),
      );
    if (o.operationId === 'updateAccount' && singletons.account) {
      const a = singletons.account;
      await api('PUT', '/account', { php_version: a.defaultPhpVersion, datacenter_code: a.defaultDatacenter ?? null });
    }
    if (o.operationId === 'updateAccountAddon' && singletons.attached && body?.addon_id !== undefined) {
      const addon = (await list('/account/addons')).find((x) => x.id === body.addon_id);
      const was = singletons.attached.find((x) => x.name === addon?.name)?.quantity ?? 0;
      await api('PUT', '/account/addons', { addon_id: body.addon_id, quantity: was });
    }
  }

  /** Sorts Dredd's transactions in place: creates, reads, other writes, deletes (children first). */
  function order<T>(transactions: T[], opOf: (t: T) => Operation | undefined) {
    const rank = (t: T): [number, number] => {
      const o = opOf(t);
      if (!o) return [1, 0];
      const depth = o.path.split('/').length;
      if (FIRST.has(o.operationId)) return [-1, 0];
      if (DELETE_RE.test(o.operationId) || o.method === 'delete') return [3, -depth];
      if (isRead(o) || o.method === 'get' || o.outsideV1) return [1, 0];
      const creates =
        o.method === 'post' &&
        (getPaths.has(o.path) || o.path.endsWith('/create') || o.operationId.startsWith('create'));
      return [creates ? 0 : 2, 0];
    };
    const keyed = transactions.map((t, i) => ({ t, i, r: rank(t) }));
    keyed.sort((a, b) => a.r[0] - b.r[0] || a.r[1] - b.r[1] || a.i - b.i);
    transactions.splice(0, transactions.length, ...keyed.map((k) => k.t));
  }

  /** DELETE `path` once the resource is no longer busy (a state ending in -ing); a problem or undefined. */
  async function deleteWhenIdle(path: string) {
    await waitFor(`${path} idle before its delete`, async () => {
      const r = await api('GET', path);
      return r.statusCode !== 200 || !/ing$/.test(r.json?.data?.state ?? r.json?.data?.status ?? '');
    });
    const r = await api('DELETE', path).catch((e: Error) => ({ statusCode: 0, body: e.message }));
    if (r.statusCode >= 300 && r.statusCode !== 404)
      return `DELETE ${path} answered ${r.statusCode}: ${r.body.slice(0, 160)}`;
  }

  /**
   * Deletes what the run created: the plan's own resources (children first, then sites), then
   * every item that is new since the snapshot in a list of the snapshot that has a delete
   * operation (what the phases' creates left: notes on existing sites, records in an existing
   * zone, sites). Answers the problems.
   */
  async function cleanup() {
    const problems: (string | undefined)[] = [];
    for (const item of created.items.reverse()) problems.push(await deleteWhenIdle(item.path));
    const sweep: string[] = [];
    for (const [path, ids] of Object.entries(snapshotLists)) {
      const delOp = ops.find(
        (o) => o.method === 'delete' && /\}$/.test(o.path) && matches(o.path.replace(/\/\{[^}]+\}$/, ''), path),
      );
      if (!delOp) continue;
      const param = paramNames(delOp.path).at(-1) as string;
      for (const item of itemsOf((await api('GET', path)).json)) {
        const id = idOf(item, param);
        if (id != null && !ids.has(id)) sweep.push(`${path}/${encodeURIComponent(String(id))}`);
      }
    }
    // Deeper paths (children) first; sites last.
    sweep.sort((a, b) => b.split('/').length - a.split('/').length);
    for (const path of sweep)
      if (!created.sites.some((id) => path === `/sites/${id}`)) problems.push(await deleteWhenIdle(path));
    for (const id of [...new Set(created.sites)]) problems.push(await deleteWhenIdle(`/sites/${id}`));
    return problems.filter((p): p is string => Boolean(p));
  }

  /** Whether the concrete `path` is an instance of `template`. */
  function matches(template: string, path: string) {
    const re = new RegExp(
      `^${template
        .split(/\{[^}]+\}/)
        .map((x) => x.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
        .join('[^/]+')}$`,
    );
    return re.test(path);
  }

  // ---- the state diff -------------------------------------------------------------------------------
  const snapshotLists: Record<string, Set<Json>> = {}; // concrete list path → ids before the run
  /**
   * Every readable resource, by concrete path: the answers of every GET of a resource or a list
   * with existing ids (not aggregates: counts, reports, logs, usage). `paths` (the second time):
   * read exactly those again.
   */
  async function snapshot(paths?: Record<string, Snapshot>) {
    lists.clear();
    const out: Record<string, Snapshot> = {};
    const wanted: [string, string][] = paths
      ? Object.entries(paths).map(([path, v]) => [path, v.op])
      : (
          await Promise.all(
            ops
              .filter(
                (o) =>
                  o.safe &&
                  inScope(o) &&
                  !/(Counts|Report|Logs|Url|Ssh|Status)$/.test(o.operationId) &&
                  Object.keys(o.operation.responses?.['200']?.content ?? {}).includes('application/json'),
              )
              .map(async (o) =>
                (await tuples(o.path, undefined, 50)).map((p): [string, string] => [fill(o.path, p), o.operationId]),
              ),
          )
        ).flat();
    for (const [path, op] of wanted) {
      const r = await api('GET', path).catch(() => undefined);
      if (r?.statusCode !== 200 || !r.json) continue;
      const isList = Array.isArray(r.json.data) || /^list/.test(op);
      out[path] = { op, data: r.json.data, isList, paged: Boolean(r.json.page && r.json.page.lastPage > 1) };
      if (!paths && isList)
        snapshotLists[path] = new Set(
          itemsOf(r.json)
            .map((i) => i.id)
            .filter((x) => x != null),
        );
    }
    if (!paths) for (const a of await list('/alerts?show_dismissed=true')) beforeAlerts.add(a.id);
    lists.clear();
    return out;
  }

  /** What changed in resources that existed before: one line each. */
  function diff(before: Record<string, Snapshot>, after: Record<string, Snapshot>) {
    const changes: string[] = [];
    const show = (v: unknown) => JSON.stringify(v)?.slice(0, 160);
    for (const [path, b] of Object.entries(before)) {
      const a = after[path];
      if (!a) {
        changes.push(`${path} (${b.op}): readable before the run, not after`);
        continue;
      }
      const bItems = itemsOf({ data: b.data });
      if (b.isList) {
        const aItems = new Map(itemsOf({ data: a.data }).map((i) => [JSON.stringify(i.id ?? i), i]));
        for (const item of bItems) {
          const key = JSON.stringify(item.id ?? item);
          const now = aItems.get(key);
          if (!now) {
            if (!b.paged && !a.paged && item.id !== undefined)
              changes.push(`${path} (${b.op}): item ${key} listed before the run, not after`);
            continue;
          }
          for (const field of new Set([...Object.keys(item), ...Object.keys(now)]))
            if (show(item[field]) !== show(now[field]))
              changes.push(
                `${path} (${b.op}): item ${key} field ${field} was ${show(item[field])}, now ${show(now[field])}`,
              );
        }
        continue;
      }
      if (b.data && typeof b.data === 'object') {
        for (const field of new Set([...Object.keys(b.data), ...Object.keys(a.data ?? {})])) {
          // Aggregates over the account (counts, usage, recent activity) move with what the run created.
          if (/count|Count|recent|usage|Usage|pageViews|capacity/.test(field)) continue;
          if (show(b.data[field]) !== show(a.data?.[field]))
            changes.push(`${path} (${b.op}): field ${field} was ${show(b.data[field])}, now ${show(a.data?.[field])}`);
        }
      }
    }
    return changes;
  }

  /** One existing id per path parameter, consistent within the deepest paths first (for CONTRACT_FUZZ_PARAMS). */
  async function existingParams() {
    const out: Params = {};
    const gets = ops.filter((o) => o.method === 'get' && paramNames(o.path).length);
    const rank = (o: Operation) => paramNames(o.path).length * 2 + (o.path.startsWith('/sites/{site_id}/') ? 1 : 0);
    gets.sort((a, b) => rank(b) - rank(a));
    for (const o of gets) {
      if (paramNames(o.path).every((n) => n in out)) continue;
      const [first] = await tuples(
        o.path,
        undefined,
        1,
        Object.fromEntries(
          paramNames(o.path)
            .filter((n) => n in out)
            .map((n) => [n, out[n]]),
        ),
      );
      if (first) for (const [k, v] of Object.entries(first)) out[k] ??= v;
    }
    return out;
  }

  return {
    /** Whether the target answered two creates with the same id (a stand-in that keeps no state). */
    isStateless: () => stateless,
    prepare,
    resolve,
    resolveRefusal,
    before,
    after,
    order,
    cleanup,
    snapshot,
    diff,
    existingParams,
    waits,
    notes,
    created,
    fixtures,
  };
}

/** Whether an operation changes every item of a list (those that existed before the run too). */
const changesEveryItem = (operationId: string) => operationId in ALL_ITEMS;

export { changesEveryItem, createPlan, itemsOf };
