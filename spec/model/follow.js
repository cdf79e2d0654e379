// How an operation relates to the reads of the spec, by rule over paths and schemas (naming no
// operation): the read of the thing it acts on, and how the state a write answers is followed.

const SCALARS = ['string', 'integer', 'number', 'boolean'];
const types = (schema) => [schema?.type ?? []].flat();
export const pathParams = (path) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
export const dataSchema = (o) =>
  o.responses[String(o.successStatus)]?.content?.['application/json']?.schema?.properties?.data;
const stateField = (schema) =>
  ['state', 'status'].find(
    (f) =>
      types(schema?.properties?.[f])
        .filter((t) => t !== 'null')
        .join() === 'string',
  );

/**
 * The read of the thing an operation acts on: the GET at the longest prefix of its path that ends in
 * a parameter and needs no parameter the operation lacks (`DELETE /sites/{site_id}/notes/{note_id}` →
 * that note; `POST /sites/{site_id}/restores` → the site). A destructive command shows it first.
 */
export function subjectRead(o, operations) {
  const own = new Set(pathParams(o.path));
  const reads = operations.filter(
    (g) =>
      g.method === 'get' &&
      g.path.endsWith('}') &&
      (o.path === g.path || o.path.startsWith(`${g.path}/`)) &&
      pathParams(g.path).every((p) => own.has(p)),
  );
  return reads.sort((a, b) => b.path.length - a.path.length)[0]?.operationId;
}

/**
 * How the state a write answers is followed (the CLI's `--wait`): a write that answers a resource with
 * a `state` or `status` string. A POST answering a new resource with a non-null scalar `id`, through
 * the GET at a prefix of its path plus one parameter (`POST /sites` → `GET /sites/{site_id}`); a
 * DELETE, through the GET at its path. It is followed until the field leaves the value the write
 * answered (or the read answers 404 after a DELETE). PUTs answer the state they set.
 */
export function stateFollow(o, operations) {
  const data = dataSchema(o);
  const field = stateField(data);
  if (!field) return undefined;
  const gets = operations.filter((g) => g.method === 'get' && stateField(dataSchema(g)) === field);
  if (o.method === 'delete') {
    const read = gets.find((g) => g.path === o.path);
    return read && { read: read.operationId, field, idParam: undefined, gone: true };
  }
  const id = types(data.properties.id);
  if (o.method !== 'post' || id.length !== 1 || !SCALARS.includes(id[0])) return undefined;
  const segments = o.path.split('/');
  for (let n = segments.length; n > 1; n--) {
    const prefix = segments.slice(0, n).join('/');
    const read = gets.find(
      (g) => g.path.startsWith(`${prefix}/{`) && /^\{[^}/]+\}$/.test(g.path.slice(prefix.length + 1)),
    );
    const params = read ? pathParams(read.path) : [];
    if (read && params.slice(0, -1).every((p) => prefix.includes(`{${p}}`)))
      return { read: read.operationId, field, idParam: params.at(-1), gone: false };
  }
  return undefined;
}
