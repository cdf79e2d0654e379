// orval's input (see orval.config.mjs): the spec model's dereferenced operations and component schemas,
// rewritten where orval 7.13's zod client gets them wrong. README.md lists each fix and why.
export const MARK = Object.fromEntries(['int', 'strict', 'loose', 'bool', 'catchall'].map((m) => [m, `__${m}__`]));
const fixed = new WeakSet(); // a schema object reached twice is rewritten once

/** Rewrites a schema in place; markers ride on `pattern`, which orval renders as `.regex()` on any type. */
export function fixSchema(s) {
  if (!s || typeof s !== 'object' || fixed.has(s)) return;
  fixed.add(s);
  const types = [s.type ?? []].flat().filter((t) => t !== 'null');
  const unsupported = [
    s.allOf && 'allOf: orval renders it as .and() and loses required',
    types.length > 1 && `type ${JSON.stringify(s.type)}: orval keeps only the first type; write anyOf`,
    'const' in s && typeof s.const !== 'string' && 'a non-string const: orval drops it; write enum: [value]',
  ].filter(Boolean);
  if (unsupported.length) throw new Error(`the spec has ${unsupported.join('; ')}`);
  delete s.default;
  const { properties = {}, anyOf = [], oneOf = [], prefixItems = [], items, additionalProperties: extra } = s;
  for (const sub of [...Object.values(properties), ...anyOf, ...oneOf, ...prefixItems, items, extra]) fixSchema(sub);
  if (types[0] === 'integer') s.pattern = MARK.int;
  if (types[0] !== 'object' && !(types.length === 0 && s.properties)) return;
  if (extra === false) s.pattern = MARK.strict;
  else if (extra && typeof extra === 'object' && s.properties) {
    s.properties[MARK.catchall] = extra; // a last, required property that becomes `.catchall(...)`
    s.required = [...(s.required ?? []), MARK.catchall];
    delete s.additionalProperties;
  } else if (!(typeof extra === 'object' || (extra === true && !s.properties))) s.pattern = MARK.loose;
}

/** The document orval reads: the spec's operations and a synthetic GET per component schema, fixed. */
export function orvalDocument(model) {
  const paths = {};
  for (const o of model.operations) {
    const { operationId, summary, description, parameters, requestBody, responses } = { ...o.operation, ...o };
    const op = structuredClone({ operationId, summary, description, parameters, requestBody, responses });
    for (const p of op.parameters) {
      fixSchema(p.schema);
      if (p.in !== 'cookie' && [p.schema?.type].flat().includes('boolean')) p.schema.pattern = MARK.bool;
    }
    const body = op.requestBody?.content[o.requestMediaTypes[0]]?.schema; // a form body is read as JSON
    if (body) op.requestBody = { required: op.requestBody.required, content: { 'application/json': { schema: body } } };
    const media = [op.requestBody, ...Object.values(op.responses)].flatMap((r) => Object.values(r?.content ?? {}));
    for (const { schema } of media) fixSchema(schema);
    if (o.successStatus !== undefined && o.successStatus !== 200) {
      op.responses['200'] = op.responses[o.successStatus]; // orval reads only the 200 response
      delete op.responses[o.successStatus];
    }
    paths[o.path] = { ...paths[o.path], [o.method]: op };
  }
  for (const [name, component] of Object.entries(model.dereferenced.components?.schemas ?? {})) {
    const schema = structuredClone(component);
    fixSchema(schema);
    const responses = { 200: { description: name, content: { 'application/json': { schema } } } };
    paths[`/__components/${name}`] = { get: { operationId: `component${name}`, responses } };
  }
  return { openapi: model.document.openapi, info: model.document.info, paths };
}
