// How the CLI generator (commands.mjs) reads a field's type from the command line: a rule over the
// spec's schemas, naming no operation.
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
