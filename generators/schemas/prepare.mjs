// orval's input transformers (see orval.config.mjs): the spec model's dereferenced operations and
// component schemas, rewritten into what orval 7's zod client renders correctly.
// Each rewrite below is a place where orval 7.13 gets the spec wrong (read in
// @orval/zod/dist/index.js and checked on this spec's output):
//
// Schemas
// - `type: integer` becomes `zod.number()` with no `.int()`            → marker `int`
// - `additionalProperties: false` is ignored (`zod.object` strips)     → marker `strict`
// - open objects (no `additionalProperties`) are `zod.object`, which drops unknown fields on
//   parse; the spec says resources stay open                          → marker `loose`
// - `additionalProperties: {schema}` next to `properties` is dropped   → `__catchall__` property
// - `type: [a, b]` keeps only `a` (`[integer, string]` → number)      → `anyOf` of each type
// - `const` is rendered for strings only (`const: true` → boolean)    → `enum: [value]`
// - `default: false` / `0` is dropped while truthy defaults become `.default(x)`; so that parsing
//   never changes data, every `default` is dropped: the schemas validate, the server defaults
// - boolean path/query parameters are `zod.boolean()`, which rejects the "true"/"false" a server
//   receives (numbers get `coerce`; `z.coerce.boolean()` would read "false" as true) → marker `bool`
// - `allOf` becomes `.and()` and loses `required`: the spec uses none, and generation stops if
//   one appears
// orval's own `override.zod.strict` is no fix for `additionalProperties`: it makes every object of
// a body or response strict, the open resources too.
// Markers ride on `pattern`, which orval turns into `.regex(<const>)` for any type;
// postprocess.mjs replaces those calls with `.int()`, `.strict()`, `.loose()` or, for `bool`, a
// union of `zod.boolean()` and `zod.stringbool()`.
//
// Operations (orval reads everything dereferenced for zod, so it gets the dereferenced spec)
// - path-item-level `parameters` are ignored (only the operation's own are read) → the model's
// - only `application/json` and `multipart/form-data` bodies are read; the token operations take
//   `application/x-www-form-urlencoded`                                → schema moved to JSON
// - only `responses['200']` is read; 201/202 successes are lost        → moved to '200'
// The documents keep no `webhooks` (orval ignores them) and no `servers` (zod needs none; orval's
// validator wrongly rejects 3.1 server variables, so orval.config.mjs turns it off).

export const MARK = { int: '__int__', strict: '__strict__', loose: '__loose__', bool: '__bool__' };
export const CATCHALL = '__catchall__';
const fixed = new WeakSet(); // a schema object reached twice is rewritten once

export function fixSchema(s) {
  if (!s || typeof s !== 'object' || fixed.has(s)) return;
  fixed.add(s);
  if (s.allOf) throw new Error('allOf in the spec: orval renders it as .and() and loses required');
  delete s.default;
  if ('const' in s) {
    s.enum = [s.const];
    delete s.const;
  }
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  const nonNull = types.filter((t) => t !== 'null');
  if (nonNull.length > 1) {
    const { type, description, ...rest } = s;
    for (const key of Object.keys(s)) delete s[key];
    if (description !== undefined) s.description = description;
    s.anyOf = type.map((t) => (t === 'null' ? { type: 'null' } : { ...rest, type: t }));
  }
  const { properties = {}, anyOf = [], oneOf = [], prefixItems = [] } = s;
  for (const sub of [...Object.values(properties), ...anyOf, ...oneOf, ...prefixItems, s.items, s.additionalProperties])
    fixSchema(sub);

  if (nonNull.length > 1) return;
  if (nonNull[0] === 'integer') s.pattern = MARK.int;
  if (nonNull[0] === 'object' || (nonNull.length === 0 && s.properties)) {
    const extra = s.additionalProperties;
    if (extra === false) s.pattern = MARK.strict;
    else if (extra && typeof extra === 'object' && s.properties) {
      // Carried as a last, required property; postprocess.mjs turns it into `.catchall(...)`.
      s.properties[CATCHALL] = extra;
      s.required = [...(s.required ?? []), CATCHALL];
      delete s.additionalProperties;
      // orval renders a bare map (also `additionalProperties: true` without properties) as
      // zod.record(zod.string(), ...): right as it is, and a record has no `.loose()`.
    } else if (!(typeof extra === 'object' || (extra === true && !s.properties))) s.pattern = MARK.loose;
  }
}

/** The schema of a body or response: the JSON one, else the form one. */
export const bodySchema = (content) =>
  (content?.['application/json'] ?? content?.['application/x-www-form-urlencoded'])?.schema;

/** The component name orval's synthetic operation for schema `name` gets. */
export const componentOperationId = (name) => `component${name}`;

const documentOf = (model, paths) => ({ openapi: model.document.openapi, info: model.document.info, paths });

/** The operations of the spec model (`@hosting-api/openapi/model`), rewritten for orval. */
export function operationsDocument(model) {
  const paths = {};
  for (const o of model.operations) {
    const { operationId, summary, description, parameters, requestBody, responses } = { ...o.operation, ...o };
    const op = structuredClone({ operationId, summary, description, parameters, requestBody, responses });
    for (const p of op.parameters) {
      fixSchema(p.schema);
      if (p.in !== 'cookie' && [p.schema?.type].flat().includes('boolean')) p.schema.pattern = MARK.bool;
    }
    const body = bodySchema(op.requestBody?.content);
    if (body) op.requestBody = { required: op.requestBody.required, content: { 'application/json': { schema: body } } };
    const media = [op.requestBody, ...Object.values(op.responses)].flatMap((r) => Object.values(r?.content ?? {}));
    for (const { schema } of media) fixSchema(schema);
    const ok = String(o.successStatus);
    if (o.successStatus !== undefined && ok !== '200') {
      op.responses['200'] = op.responses[ok];
      delete op.responses[ok];
    }
    paths[o.path] = { ...paths[o.path], [o.method]: op };
  }
  return documentOf(model, paths);
}

/** One GET operation per component schema, whose 200 response is that schema. */
export function componentsDocument(model) {
  const paths = {};
  for (const [name, component] of Object.entries(model.dereferenced.components?.schemas ?? {})) {
    const schema = structuredClone(component);
    fixSchema(schema);
    const content = { 'application/json': { schema } };
    paths[`/__components/${name}`] = {
      get: { operationId: componentOperationId(name), responses: { 200: { description: name, content } } },
    };
  }
  return documentOf(model, paths);
}
