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
// The parts: live-lists.ts (ids from the lists), plan-setup.ts (what the run creates first),
// ledger.ts (what it made and changed, undone), snapshot.ts (the state diff), waits.ts (state waits).
import type { Api } from './api';
import { cannotPutBack, cleanUp, type Ledger, rememberSetting } from './ledger';
import { createLister, fill, itemsOf, type Params, paramNames } from './live-lists';
import { createSetup, example, RECORD_ADDRESS } from './plan-setup';
import { isRead } from './safety';
import { createSnapshot } from './snapshot';
import type { Json, Operation, SpecModel } from './types';
import { createWaits } from './waits';

/** Where a transaction goes (resolve): its path parameters and body, or why it is skipped. */
export interface Resolution {
  params?: Params;
  body?: Json;
  skip?: string;
}

/** Writes that must come before others on the same resource (a git connection needs its token). */
const FIRST = new Set(['storeSiteGitToken']);
/** Writes that change every item of a collection at once: run only when no pre-existing item would change. */
const ALL_ITEMS: Record<string, { list: string; unchanged: (a: Json) => boolean }> = {
  markAllAlertsRead: { list: '/alerts?show_dismissed=true', unchanged: (a: Json) => a.read === true },
  dismissAllAlerts: { list: '/alerts?show_dismissed=true', unchanged: (a: Json) => a.dismissed === true },
};
const DELETE_RE = /^(delete|destroy|batchDestroy|remove)/;

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
  moveClock,
  ledger,
  inScope = () => true,
}: {
  model: SpecModel;
  /** Requests with the run's token; its answers go through the ledger's observer (what the run created, deleted). */
  api: Api;
  ledger: Ledger;
  writes: boolean;
  /** --only / --exclude: the state diff reads only the operations in scope. */
  inScope?: (o: Operation) => boolean;
  run: string;
  budgetMs?: number;
  advance?: (() => Promise<unknown>) | undefined;
  /** A target with control routes: moves its clock as far as a run does (the state diff's second read before the run). */
  moveClock?: (() => Promise<unknown>) | undefined;
}) {
  const ops = model.operations.filter((o) => !o.outsideV1);
  const lister = createLister(ops, api);
  const { getPaths, lists, list, unanswered, tuples } = lister;
  const waits = createWaits({ budgetMs, advance });
  const own = new Map<string, Json>(); // operationId → site id of its own
  const fixtures: Params = {}; // param → id of a run-created resource (writes)
  const notes: string[] = []; // what the plan could not set up, and why
  const snapshot = createSnapshot(ops, api, lister, { moveClock, inScope });
  const { beforeAlerts } = snapshot;
  const created = { sites: [] as Json[] };
  const setup = createSetup({ ops, api, run, lister, waits, created, fixtures, own, notes });

  // ---- per transaction ------------------------------------------------------------------------------
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
    // A write's refusal (a git write's 422): sent where the read at its path, or the one before it
    // with the same parameters, answers that status; a target that complies changes nothing.
    const probe =
      o.method === 'get'
        ? o
        : ops
            .filter(
              (g) =>
                g.method === 'get' &&
                (o.path === g.path || o.path.startsWith(`${g.path}/`)) &&
                paramNames(g.path).join() === paramNames(o.path).join() &&
                g.responses[status],
            )
            .sort((a, b) => b.path.length - a.path.length)[0];
    if (!probe) return { skip: `live: no read tells which resource answers ${o.operationId} with ${status}` };
    const candidates = paramNames(o.path).length ? await tuples(probe.path, mediaType) : [];
    for (const params of candidates) {
      const r = await api('GET', fill(probe.path, params), undefined, mediaType).catch(() => undefined);
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
    // The batch writes' bodies name the run's site only (bodyFor); other writes that nothing undoes are not sent.
    const why = /^batch/.test(o.operationId) ? undefined : cannotPutBack(o);
    if (why) return { skip: `live: not sent to what existed before the run: ${why}` };
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
      case 'cloneSite':
        return { ...b, name: setup.siteName() };
      case 'createZoneRecord': {
        const zone = (await list('/zones')).find((z) => z.id === params.zone_id);
        return { ...b, ...(b.type === 'A' ? { value: RECORD_ADDRESS } : {}), name: `contract-${run}-2.${zone?.name}` };
      }
      case 'createMuPlugin':
        return { ...b, path: `https://downloads.example.com/mu/contract-${run}-2.php` };
      case 'batchCreateCollaborators':
        return { ...b, email: `contract-${run}-2@example.com`, siteIds: [params.site_id] };
      case 'batchDestroyCollaborators':
        return { ...b, email: setup.runEmail, siteIds: [params.site_id] };
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

  /**
   * Before a write's transaction: the list a create may answer `data: null` for (queued work), and
   * the setting it changes (ledger.ts rememberSetting). After it: a queued create is waited for
   * until it shows in its list, and the setting is put back; answers a problem if it could not be.
   */
  const queued: Record<string, { path: string; keys: Set<string> }> = {};
  const putBacks: Record<string, () => Promise<string | undefined>> = {};
  const keyOf = (i: Json) => JSON.stringify(i?.id ?? i?.slug ?? i?.name ?? i);
  async function before(o: Operation, params: Params = {}) {
    if (o.method === 'post' && getPaths.has(o.path) && !isRead(o)) {
      const path = fill(o.path, { ...fixtures, ...params });
      queued[o.operationId] = { path, keys: new Set(itemsOf((await api('GET', path)).json).map(keyOf)) };
    }
    const putBack = await rememberSetting(o, api, ledger, 'examples');
    if (putBack) putBacks[o.operationId] = putBack;
  }
  async function after(o: Operation, real: { statusCode: number; body: string }) {
    let json: Json;
    try {
      json = JSON.parse(real.body);
    } catch {}
    const pending = queued[o.operationId];
    delete queued[o.operationId];
    if (pending && real.statusCode < 300 && json && json.data === null)
      await waits.waitFor(`the queued ${o.operationId} to show in ${pending.path}`, async () =>
        itemsOf((await api('GET', pending.path)).json).some((i) => !pending.keys.has(keyOf(i))),
      );
    const putBack = putBacks[o.operationId];
    delete putBacks[o.operationId];
    return putBack?.();
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
    isStateless: () => waits.target.stateless,
    prepare: setup.prepare,
    resolve,
    resolveRefusal,
    before,
    after,
    order,
    /** Deletes what the ledger says the run created and did not delete (ledger.ts cleanUp). */
    cleanup: (scope?: string) => cleanUp(ledger, api, waits.waitFor, scope),
    /** The state diff's readings (snapshot.ts). */
    snapshot,
    existingParams,
    waits: waits.waits,
    notes,
    created,
    fixtures,
  };
}

/** Whether an operation changes every item of a list (those that existed before the run too). */
const changesEveryItem = (operationId: string) => operationId in ALL_ITEMS;

export { changesEveryItem, createPlan, itemsOf };
