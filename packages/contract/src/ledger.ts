// What a live run made and changed, and undoing it: the resources it created (deleted at the end,
// children first) and the settings it changed (put back after the transaction that changed them).
import type { Api } from './api';
import { fill, idOf, itemsOf, type Lister, matches, type Params, paramNames } from './live-lists';
import { isRead } from './safety';
import type { Json, Operation } from './types';
import type { Waits } from './waits';

export function createLedger({
  ops,
  api,
  lister,
  waits,
  fixtures,
  snapshotLists,
}: {
  ops: Operation[];
  api: Api;
  lister: Lister;
  waits: Waits;
  fixtures: Params;
  snapshotLists: Record<string, Set<Json>>;
}) {
  const { getPaths, list } = lister;
  const { waitFor } = waits;
  const created = { sites: [] as Json[], items: [] as { path: string; parent: string }[] }; // items: {path} to DELETE at the end

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

  return { created, before, after, cleanup };
}
