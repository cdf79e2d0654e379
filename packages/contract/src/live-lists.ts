// Finding what exists on a live target through its lists: the collection (list path) of a path
// parameter is the GET of the path before it (/sites for site_id, /sites/{site_id}/notes for
// note_id), and the ids of its items fill the parameter. Used by the live plan and the snapshot.
import type { Api } from './api';
import type { Json, Operation } from './types';

/** Path parameters by name (ids found in lists or made by the run). */
export type Params = Record<string, Json>;

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

export const fill = (path: string, params: Params) =>
  path.replace(/\{([^}]+)\}/g, (_, n: string) => encodeURIComponent(String(params[n])));
export const paramNames = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);

/** The items of a list answer: `data` when it is a list, else the first list of objects inside `data`. */
export function itemsOf(json: Json): Json[] {
  const data = json?.data;
  if (Array.isArray(data)) return data;
  if (data && typeof data === 'object')
    for (const value of Object.values(data))
      if (Array.isArray(value) && value.every((v) => v && typeof v === 'object')) return value;
  return [];
}

export function idOf(item: Json, param: string, mediaType?: string) {
  const field = mediaType === undefined ? undefined : ID_FIELDS[param]?.[mediaType];
  if (field) return item[field] ?? undefined;
  if (param.endsWith('_id')) return item.id ?? undefined;
  const word = param.split('_')[0] as string;
  return item[param] ?? item[word] ?? undefined;
}

/** Whether the concrete `path` is an instance of `template`. */
export function matches(template: string, path: string) {
  const re = new RegExp(
    `^${template
      .split(/\{[^}]+\}/)
      .map((x) => x.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
      .join('[^/]+')}$`,
  );
  return re.test(path);
}

/** The lists of a target, read once each (until `lists.clear()`), and the ids that fill a path. */
export function createLister(ops: Operation[], api: Api) {
  const getPaths = new Set(ops.filter((o) => o.method === 'get').map((o) => o.path));

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

  return { getPaths, lists, unanswered, list, tuples };
}

export type Lister = ReturnType<typeof createLister>;
