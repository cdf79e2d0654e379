// The state diff of a live run. Before the first phase and after the last, it reads every resource
// and singleton the spec makes readable without side effects (safety.ts isSafe: every GET with no
// stated effect that answers JSON), every list with all its pages, and every item those lists name
// (their ids fill the item reads' path parameters), within a budget of requests the run reports.
// What it compares: every resource that existed before the run. A difference is the run's doing
// (a failure) unless the ledger says otherwise: an item others created or deleted during the run is
// concurrent activity (another client's, or the target's own: log lines, alerts), reported, not
// failed; fields that change by themselves (they differed between two reads before the run) and
// counts (a resource of numbers only, fields named for counts or usage) are not compared.
import type { Api } from './api';
import type { Entry } from './ledger';
import { fill, idOf, itemsOf, type Lister, type Params, paramNames } from './live-lists';
import { isSafe } from './safety';
import type { Json, Operation } from './types';

/** A resource as the state diff reads it: the operation and its `data` (a list: every page's items). */
export interface Snapshot {
  op: string;
  data: Json;
  isList: boolean;
}
/** One reading of the state: the resources by path, and what the budget left unread. */
export interface State {
  resources: Record<string, Snapshot>;
  requests: number;
  unread: string[];
  /** Fields (`path field`) that differed between two reads before the run: they change by themselves. */
  volatile: string[];
}
/** What the diff found: the run's changes (failures), others' activity, and what it did not compare. */
export interface Difference {
  changed: string[];
  concurrent: string[];
}

/** Aggregates over the account (counts, usage, recent activity) move with what anyone creates. */
const AGGREGATE = /count|Count|recent|usage|Usage|pageViews|capacity/;
const show = (v: unknown) => JSON.stringify(v)?.slice(0, 160);
/** A resource of numbers only (the alert counts): counts over lists, which move with what anyone adds. */
const isCounts = (data: Json) =>
  data && typeof data === 'object' && !Array.isArray(data) && Object.values(data).every((v) => typeof v === 'number');
/** The key of a list item: its id, else another identifying field. */
const keyOf = (item: Json) => JSON.stringify(item?.id ?? item?.slug ?? item?.email ?? item?.name ?? item);

export function createSnapshot(
  ops: Operation[],
  api: Api,
  lister: Lister,
  {
    budget = Number(process.env.CONTRACT_SNAPSHOT_BUDGET) || 3000,
    moveClock,
    inScope = () => true,
  }: {
    budget?: number;
    moveClock?: (() => Promise<unknown>) | undefined;
    /** --only / --exclude: only the operations in scope are read. */
    inScope?: (o: Operation) => boolean;
  } = {},
) {
  const { lists, list } = lister;
  const beforeAlerts = new Set<Json>();
  const readable = ops.filter(
    (o) =>
      isSafe(o) &&
      inScope(o) &&
      Object.keys(o.operation.responses?.['200']?.content ?? {}).includes('application/json'),
  );

  /** Reads `path`, and every further page of a paged list (page.nextPage); undefined when not 200. */
  async function readAll(path: string, spend: () => boolean) {
    if (!spend()) return undefined;
    const r = await api('GET', path).catch(() => undefined);
    if (r?.statusCode !== 200 || !r.json) return undefined;
    let data = r.json.data;
    let page = r.json.page;
    for (let n = 0; page?.nextPage && Array.isArray(data) && n < 100; n++) {
      if (!spend()) break;
      const sep = path.includes('?') ? '&' : '?';
      const next = await api('GET', `${path}${sep}page=${page.nextPage}`).catch(() => undefined);
      if (next?.statusCode !== 200 || !Array.isArray(next.json?.data)) break;
      data = [...data, ...next.json.data];
      page = next.json.page;
    }
    return data;
  }

  /** Every reading of the state: the same paths again when `paths` is given (the second time). */
  async function take(paths?: Record<string, Snapshot>): Promise<State> {
    lists.clear();
    let requests = 0;
    const unread: string[] = [];
    const spend = () => requests++ < budget;
    const resources: Record<string, Snapshot> = {};
    const read = async (path: string, op: Operation) => {
      const data = await readAll(path, spend);
      if (data === undefined) return undefined;
      const isList = Array.isArray(data) || /^list/.test(op.operationId);
      resources[path] = { op: op.operationId, data, isList };
      return resources[path];
    };
    if (paths) {
      const byId = new Map(ops.map((o) => [o.operationId, o]));
      for (const [path, s] of Object.entries(paths))
        if (!(await read(path, byId.get(s.op) as Operation)) && requests > budget) unread.push(path);
    } else {
      // The ids that fill each path parameter, from the lists read (the collection of a parameter is
      // the GET of the path before it), breadth first: /sites, then /sites/{site_id}/notes, …
      const ids = new Map<string, Params[]>(); // a list's template → the parameters of each of its items
      const sorted = [...readable].sort((a, b) => paramNames(a.path).length - paramNames(b.path).length);
      for (const o of sorted) {
        const names = paramNames(o.path);
        let fills: Params[] = [{}];
        for (const name of names) {
          const collection = o.path.slice(0, o.path.indexOf(`/{${name}}`));
          const known = ids.get(collection);
          const next: Params[] = [];
          for (const f of fills)
            for (const p of known ?? []) if (Object.entries(f).every(([k, v]) => p[k] === v)) next.push({ ...f, ...p });
          fills = known ? next : [];
          if (!known) unread.push(`${o.path} (no list names its ${name})`);
        }
        for (const f of fills) {
          const path = fill(o.path, f);
          if (requests >= budget) {
            unread.push(path);
            continue;
          }
          const s = await read(path, o);
          // A list feeds the ids of the paths under it (`/sites/1/notes` → `/sites/1/notes/{note_id}`;
          // `/zones` → `/zones/{zone_id}/records`), an object with one list of items too.
          const param = paramOf(o.path);
          const items = s ? itemsOf({ data: s.data }) : [];
          if (param && items.length) {
            const found = items
              .map((i) => idOf(i, param))
              .filter((x) => x !== undefined && x !== null)
              .map((id) => ({ ...f, [param]: id }));
            ids.set(o.path, [...(ids.get(o.path) ?? []), ...found]);
          }
        }
      }
      for (const a of await list('/alerts?show_dismissed=true')) beforeAlerts.add(a.id);
    }
    lists.clear();
    return { resources, requests: Math.min(requests, budget), unread, volatile: [] };
  }

  /** The parameter an item of the list at `path` fills: the one right after it in a readable path. */
  function paramOf(path: string) {
    const under = readable.find((o) => o.path.startsWith(`${path}/{`));
    return under?.path.slice(path.length + 2).split('}')[0];
  }

  /**
   * The state before the run: read twice; the fields that differ change by themselves (`volatile`).
   * A target whose clock the run moves (CONTRACT_CONTROL_URL) has its clock moved between the two
   * reads as the run will move it, so fields that follow the clock (`removedIn: "27 days"`) are
   * told from the run's doing.
   */
  async function before() {
    const first = await take();
    await moveClock?.();
    const second = await take(first.resources);
    const volatile = fieldChanges(first.resources, second.resources).map((c) => c.at);
    return { ...first, requests: first.requests + second.requests, volatile };
  }

  const clock = clockFields(readable);
  return {
    take,
    before,
    after: (state: State) => take(state.resources),
    diff: (b: State, a: State, entries: Entry[]) => diff(b, a, entries, clock),
    beforeAlerts,
  };
}

/** The fields the spec says follow the clock (`x-moves-with-clock`: `removedIn`): they change with no write. */
function clockFields(ops: Operation[]) {
  const names = new Set<string>();
  const walk = (node: Json, depth: number) => {
    if (!node || typeof node !== 'object' || depth > 12) return;
    for (const [name, prop] of Object.entries<Json>(node.properties ?? {})) {
      if (prop?.['x-moves-with-clock'] === true) names.add(name);
      walk(prop, depth + 1);
    }
    walk(node.items, depth + 1);
    for (const key of ['allOf', 'anyOf', 'oneOf']) for (const sub of node[key] ?? []) walk(sub, depth + 1);
  };
  for (const o of ops) walk(o.operation.responses?.['200']?.content?.['application/json']?.schema, 0);
  return names;
}

/** Every field that differs between two readings of the same resources: where, and the line. */
function fieldChanges(before: Record<string, Snapshot>, after: Record<string, Snapshot>) {
  const out: { at: string; line: string }[] = [];
  for (const [path, b] of Object.entries(before)) {
    const a = after[path];
    if (!a) continue;
    const pairs: [string, Json, Json][] = b.isList
      ? itemsOf({ data: b.data }).flatMap((item): [string, Json, Json][] => {
          const now = itemsOf({ data: a.data }).find((i) => keyOf(i) === keyOf(item));
          return now ? [[`item ${keyOf(item)} `, item, now]] : [];
        })
      : [['', b.data, a.data]];
    for (const [where, x, y] of pairs) {
      if (!x || typeof x !== 'object') {
        if (show(x) !== show(y))
          out.push({ at: `${path} ${where}`, line: `${path} (${b.op}): was ${show(x)}, now ${show(y)}` });
        continue;
      }
      for (const field of new Set([...Object.keys(x), ...Object.keys(y ?? {})]))
        if (show(x[field]) !== show(y?.[field]))
          out.push({
            at: `${path} ${where}${field}`,
            line: `${path} (${b.op}): ${where}field ${field} was ${show(x[field])}, now ${show(y?.[field])}`,
          });
    }
  }
  return out;
}

/**
 * What changed in resources that existed before the run. The ledger tells the run's doing from
 * others': an item or resource gone that the run did not delete, or new and not created by the
 * run, is concurrent activity; one the run deleted, or created and left, is a change.
 */
function diff(before: State, after: State, entries: Entry[], clock: Set<string>): Difference {
  const changed: string[] = [];
  const concurrent: string[] = [];
  const deletedByRun = new Set(entries.filter((e) => e.kind === 'deleted').map((e) => e.path));
  const createdByRun = new Set(entries.filter((e) => e.kind === 'created').map((e) => e.path));
  // A list the run wrote to (POST /sites/1/restores): a new item there that the ledger cannot name is the run's too.
  const sentTo = new Set(entries.filter((e) => e.kind === 'sent').map((e) => e.path.replace(/\/create$/, '')));
  const volatile = new Set(before.volatile);
  for (const [path, b] of Object.entries(before.resources)) {
    const a = after.resources[path];
    if (!a) {
      if (after.unread.includes(path)) continue;
      if (deletedByRun.has(path)) changed.push(`${path} (${b.op}): existed before the run, and the run deleted it`);
      else concurrent.push(`${path} (${b.op}): readable before the run, not after; the run did not delete it`);
      continue;
    }
    if (!b.isList) continue;
    const was = new Map(itemsOf({ data: b.data }).map((i) => [keyOf(i), i]));
    const now = new Map(itemsOf({ data: a.data }).map((i) => [keyOf(i), i]));
    const at = (key: string, item: Json) => `${path}/${encodeURIComponent(String(item?.id ?? JSON.parse(key)))}`;
    for (const [key, item] of was)
      if (!now.has(key)) {
        if (deletedByRun.has(at(key, item)))
          changed.push(`${path} (${b.op}): item ${key} existed before the run, and the run deleted it`);
        else concurrent.push(`${path} (${b.op}): item ${key} went during the run; the run did not delete it`);
      }
    for (const [key, item] of now)
      if (!was.has(key)) {
        if (createdByRun.has(at(key, item)) || sentTo.has(path.split('?')[0] as string))
          changed.push(`${path} (${b.op}): item ${key} was created by the run and is still there`);
        else concurrent.push(`${path} (${b.op}): item ${key} appeared during the run; the run did not create it`);
      }
  }
  for (const change of fieldChanges(before.resources, after.resources)) {
    const field = change.at.split(' ').at(-1) ?? '';
    const path = change.at.split(' ')[0] as string;
    if (volatile.has(change.at) || clock.has(field) || AGGREGATE.test(field) || isCounts(before.resources[path]?.data))
      continue;
    changed.push(change.line);
  }
  return { changed, concurrent };
}
