// How the CLI generator (commands.mjs) reads a field's type, how `--wait` follows a write, and what a
// destructive command's confirmation reads first: rules over the spec model, naming no operation.
const SCALARS = new Set(['string', 'integer', 'number', 'boolean']);

/** How a value of this schema is read from the command line. */
export function fieldType(schema = {}) {
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
    const alternatives = (schema.anyOf ?? schema.oneOf).map((s) => fieldType(s));
    if (alternatives.every((a) => a.kind === 'scalar'))
      return { kind: 'union', types: alternatives.map((a) => a.type), nullable: alternatives.some((a) => a.nullable) };
    return { kind: 'json' };
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  const nullable = types.includes('null') || (Array.isArray(schema.enum) && schema.enum.includes(null));
  const base = types.filter((t) => t !== 'null');
  if (base.length === 1 && SCALARS.has(base[0])) {
    const out = { kind: 'scalar', type: base[0] };
    if (nullable) out.nullable = true;
    if (Array.isArray(schema.enum)) out.enum = schema.enum.filter((v) => v !== null);
    if (typeof schema.minimum === 'number') out.minimum = schema.minimum;
    if (typeof schema.maximum === 'number') out.maximum = schema.maximum;
    return out;
  }
  if (base.length === 1 && base[0] === 'array') {
    const items = fieldType(schema.items);
    return items.kind === 'scalar' ? { kind: 'array', items } : { kind: 'json' };
  }
  return { kind: 'json' };
}

export const dataSchema = (o) =>
  o.responses[String(o.successStatus)]?.content?.['application/json']?.schema?.properties?.data;
const stateField = (schema) =>
  ['state', 'status'].find((f) => schema?.properties?.[f] && fieldType(schema.properties[f]).type === 'string');
export const pathParams = (path) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);

/**
 * How `--wait` follows a write that answers a resource with a `state` or `status` the spec can read back:
 * a POST answering a new resource with a non-null `id`, through the GET at a prefix of its path plus one
 * parameter (`POST /sites` → `GET /sites/{site_id}`); a DELETE, through the GET at its path. It is followed
 * until the field leaves the value the write answered (or the read answers 404 after a DELETE). PUTs answer
 * the state they set.
 */
export function waitRule(o, gets) {
  const data = dataSchema(o);
  const field = stateField(data);
  if (!field) return undefined;
  const sameField = (g) => stateField(dataSchema(g)) === field;
  if (o.method === 'delete') {
    const read = gets.find((g) => g.path === o.path && sameField(g));
    return read && { read: read.operationId, field, idParam: undefined, gone: true };
  }
  if (o.method !== 'post') return undefined;
  const id = fieldType(data.properties.id);
  if (id.kind !== 'scalar' || id.nullable) return undefined;
  const segments = o.path.split('/');
  for (let n = segments.length; n > 1; n--) {
    const prefix = segments.slice(0, n).join('/');
    const read = gets.find(
      (g) => g.path.startsWith(`${prefix}/{`) && /^\{[^}/]+\}$/.test(g.path.slice(prefix.length + 1)) && sameField(g),
    );
    const params = read ? pathParams(read.path) : [];
    if (read && params.slice(0, -1).every((p) => prefix.includes(`{${p}}`)))
      return { read: read.operationId, field, idParam: params.at(-1), gone: false };
  }
  return undefined;
}

/**
 * What a destructive operation's confirmation shows: the GET of the thing it acts on, read first. The
 * GET at the longest prefix of its path that ends in a parameter and needs no parameter the operation
 * lacks (`DELETE /sites/{site_id}/notes/{note_id}` → that note; `POST /sites/{site_id}/restores` → the site).
 */
export function previewRead(o, gets) {
  const params = new Set(pathParams(o.path));
  const candidates = gets.filter(
    (g) =>
      /\}$/.test(g.path) &&
      (o.path === g.path || o.path.startsWith(`${g.path}/`)) &&
      pathParams(g.path).every((p) => params.has(p)) &&
      g.clientMethod,
  );
  return candidates.sort((a, b) => b.path.length - a.path.length)[0]?.operationId;
}
