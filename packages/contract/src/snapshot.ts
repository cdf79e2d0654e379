// The state diff of a live run: every readable resource, by concrete path, read before the first
// phase and again after the last, and what changed in those that existed before.
import type { Api } from './api';
import { fill, itemsOf, type Lister } from './live-lists';
import { snapshotReadable } from './safety';
import type { Json, Operation } from './types';

/** A resource as the state diff reads it: the operation, its `data`, whether a list, whether paged. */
export interface Snapshot {
  op: string;
  data: Json;
  isList: boolean;
  paged: boolean;
}

export function createSnapshot(ops: Operation[], api: Api, lister: Lister) {
  const { lists, list, tuples } = lister;
  const snapshotLists: Record<string, Set<Json>> = {}; // concrete list path → ids before the run
  const beforeAlerts = new Set<Json>();
  /**
   * Every readable resource, by concrete path: the answers of every GET of a resource or a list
   * with existing ids (safety.ts snapshotReadable). `paths` (the second time): read exactly those again.
   */
  async function snapshot(paths?: Record<string, Snapshot>) {
    lists.clear();
    const out: Record<string, Snapshot> = {};
    const wanted: [string, string][] = paths
      ? Object.entries(paths).map(([path, v]) => [path, v.op])
      : (
          await Promise.all(
            ops
              .filter(snapshotReadable)
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

  return { snapshot, diff, snapshotLists, beforeAlerts };
}
