// Rewrites a copy of the bundled spec into input that orval 7's zod client renders correctly.
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
// Operations
// - path-item-level `parameters` are ignored (only the operation's own are read) → copied down
// - only `application/json` and `multipart/form-data` bodies are read; the token operations take
//   `application/x-www-form-urlencoded`                                → schema moved to JSON
// - only `responses['200']` is read; 201/202 successes are lost        → moved to '200'
// `webhooks` are dropped (orval ignores them), and so are `servers`: orval's validator wrongly
// rejects 3.1 server variables (`must NOT have unevaluated properties`) and zod needs none.

export const MARK = { int: '__int__', strict: '__strict__', loose: '__loose__', bool: '__bool__' };
export const CATCHALL = '__catchall__';
const VERBS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

const refName = (ref) => ref.split('/').pop();
const resolve = (doc, obj, kind) =>
  obj && obj.$ref ? doc.components[kind][refName(obj.$ref)] : obj;

const fixed = new WeakSet(); // a schema object reached twice is rewritten once

export function fixSchema(s) {
  if (!s || typeof s !== 'object' || s.$ref || fixed.has(s)) return;
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
  for (const sub of [
    ...Object.values(s.properties ?? {}),
    ...(s.anyOf ?? []),
    ...(s.oneOf ?? []),
    ...(s.allOf ?? []),
    ...(s.prefixItems ?? []),
    s.items,
    s.additionalProperties,
  ])
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
    } else if ((extra && typeof extra === 'object') || (extra === true && !s.properties)) {
      // orval renders a bare map (also `additionalProperties: true` without properties) as
      // zod.record(zod.string(), ...): right as it is, and a record has no `.loose()`.
    } else s.pattern = MARK.loose;
  }
}

function fixContent(content) {
  for (const media of Object.values(content ?? {})) fixSchema(media.schema);
}

function fixComponents(doc) {
  const c = doc.components ?? {};
  for (const schema of Object.values(c.schemas ?? {})) fixSchema(schema);
  for (const p of Object.values(c.parameters ?? {})) fixSchema(p.schema);
  for (const b of Object.values(c.requestBodies ?? {})) fixContent(b.content);
  for (const r of Object.values(c.responses ?? {})) fixContent(r.content);
}

function withoutServers(doc) {
  delete doc.webhooks;
  delete doc.servers;
  for (const item of Object.values(doc.paths ?? {})) {
    delete item.servers;
    for (const verb of VERBS) if (item[verb]) delete item[verb].servers;
  }
  return doc;
}

/** The first 2xx status of an operation, or undefined. */
export function successStatus(op) {
  return Object.keys(op.responses ?? {}).find((code) => /^2\d\d$/.test(code));
}

/** The schema of a body or response: the JSON one, else the form one. */
export function bodySchema(content) {
  return (content?.['application/json'] ?? content?.['application/x-www-form-urlencoded'])?.schema;
}

/** The operations, rewritten for orval (see the header). */
export function operationsDocument(spec) {
  const doc = withoutServers(structuredClone(spec));
  fixComponents(doc);
  for (const item of Object.values(doc.paths ?? {})) {
    const shared = item.parameters ?? [];
    delete item.parameters;
    for (const verb of VERBS) {
      const op = item[verb];
      if (!op) continue;
      const own = op.parameters ?? [];
      const key = (p) => {
        const r = resolve(doc, p, 'parameters');
        return `${r.in}:${r.name}`;
      };
      const ownKeys = new Set(own.map(key));
      op.parameters = [...shared.filter((p) => !ownKeys.has(key(p))), ...own];
      for (const p of op.parameters.map((p) => resolve(doc, p, 'parameters'))) {
        fixSchema(p.schema);
        if (p.in !== 'cookie' && [p.schema?.type].flat().includes('boolean')) p.schema.pattern = MARK.bool;
      }

      if (op.requestBody) {
        const body = resolve(doc, op.requestBody, 'requestBodies');
        const schema = bodySchema(body.content);
        if (schema) {
          fixSchema(schema);
          op.requestBody = { required: body.required, content: { 'application/json': { schema } } };
        }
      }
      for (const r of Object.values(op.responses ?? {})) fixContent(resolve(doc, r, 'responses').content);
      const ok = successStatus(op);
      if (ok && ok !== '200') {
        op.responses['200'] = op.responses[ok];
        delete op.responses[ok];
      }
    }
  }
  return doc;
}

/** The component name orval's synthetic operation for schema `name` gets. */
export const componentOperationId = (name) => `component${name}`;

/** One GET operation per component schema, whose 200 response is that schema. */
export function componentsDocument(spec) {
  const doc = withoutServers(structuredClone(spec));
  fixComponents(doc);
  doc.paths = {};
  for (const name of Object.keys(doc.components?.schemas ?? {})) {
    doc.paths[`/__components/${name}`] = {
      get: {
        operationId: componentOperationId(name),
        responses: {
          200: {
            description: name,
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
          },
        },
      },
    };
  }
  return doc;
}
