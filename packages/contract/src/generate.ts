// Inputs for the fuzz phase, as fast-check arbitraries over the spec's (dereferenced) schemas:
// valid values of a schema (positive_data_acceptance), and mutations that break exactly one thing
// a schema declares (negative_data_rejection). fast-check shrinks a failing input towards the
// simplest one of its arbitrary: the smallest value above a maximum, the empty string, …
import fc from 'fast-check';
import type { Breaking, Json, Mutation } from './types';

const types = (schema: Json) => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []);

const FORMATS: Record<string, () => fc.Arbitrary<string>> = {
  email: () => fc.emailAddress(),
  uri: () => fc.webUrl(),
  url: () => fc.webUrl(),
  'date-time': () =>
    fc
      .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString()),
  date: () =>
    fc
      .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
  ipv4: () => fc.ipV4(),
  hostname: () => fc.domain(),
  uuid: () => fc.uuid(),
};

/** Valid values of `schema`; strings and arrays kept short (a request is not a load test). */
export function valid(schema: Json = {}): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.oneOf || schema.anyOf) return fc.oneof(...(schema.oneOf ?? schema.anyOf).map(valid));
  if (schema.allOf) return valid(Object.assign({}, ...schema.allOf));
  if (schema.examples?.length && schema.pattern) return fc.constantFrom(...schema.examples);
  const [type = schema.properties ? 'object' : 'string'] = types(schema).filter((t: string) => t !== 'null');
  switch (type) {
    case 'integer':
    case 'number':
      return fc.integer({
        min: schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0),
        max: schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 1_000_000),
      });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valid(schema.items ?? {}), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, Math.max(3, schema.minItems ?? 0)),
      });
    case 'object': {
      const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, valid(s)]));
      return fc.record(properties, { requiredKeys: (schema.required ?? []).filter((k: string) => k in properties) });
    }
    default: {
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern), { maxLength: schema.maxLength ?? 40 });
      const format = FORMATS[schema.format];
      if (format) return format();
      return fc.string({ minLength: schema.minLength ?? 1, maxLength: Math.min(schema.maxLength ?? 20, 20) });
    }
  }
}

/** Arbitrary values of another JSON type than any `schema` allows. */
function wrongType(schema: Json): fc.Arbitrary<unknown> | undefined {
  const allowed = types(schema);
  if (allowed.length === 0 && !schema.properties) return undefined;
  const kinds = [
    ['string', fc.string({ maxLength: 8 }).map((s) => `x${s}`)],
    ['integer', fc.integer()],
    ['boolean', fc.boolean()],
    ['array', fc.array(fc.integer(), { maxLength: 2 })],
    ['object', fc.dictionary(fc.constantFrom('a', 'b'), fc.integer(), { maxKeys: 1 })],
    ['null', fc.constant(null)],
  ].filter(
    ([t]) =>
      !allowed.includes(t) &&
      !(t === 'integer' && allowed.includes('number')) &&
      !(t === 'object' && schema.properties && !allowed.length),
  );
  return kinds.length ? fc.oneof(...kinds.map(([, a]) => a as fc.Arbitrary<unknown>)) : undefined;
}

/**
 * Every way to break one value the schema declares, as arbitraries of `{what, value}`:
 * `what` says which rule the value breaks.
 */
export function breaking(schema: Json = {}, name = 'value') {
  const out: fc.Arbitrary<Breaking>[] = [];
  const wrong = wrongType(schema);
  if (wrong) out.push(wrong.map((value) => ({ what: `${name} of the wrong type`, value })));
  if (schema.enum?.every((v: unknown) => typeof v === 'string'))
    out.push(
      fc
        .string({ maxLength: 10 })
        .filter((s) => !schema.enum.includes(s))
        .map((value) => ({ what: `${name} outside its enum`, value })),
    );
  if (typeof schema.maximum === 'number')
    out.push(
      fc
        .integer({ min: schema.maximum + 1, max: schema.maximum + 1_000_000 })
        .map((value) => ({ what: `${name} above its maximum ${schema.maximum}`, value })),
    );
  if (typeof schema.minimum === 'number')
    out.push(
      fc
        .integer({ min: schema.minimum - 1_000_000, max: schema.minimum - 1 })
        .map((value) => ({ what: `${name} below its minimum ${schema.minimum}`, value })),
    );
  if (typeof schema.maxLength === 'number')
    out.push(
      fc
        .string({ minLength: schema.maxLength + 1, maxLength: schema.maxLength + 20 })
        .map((value) => ({ what: `${name} longer than ${schema.maxLength}`, value })),
    );
  if (schema.minLength > 0)
    out.push(
      fc
        .string({ maxLength: schema.minLength - 1 })
        .map((value) => ({ what: `${name} shorter than ${schema.minLength}`, value })),
    );
  return out;
}

/**
 * Mutations of a JSON body (an object built from the request's example): one property broken,
 * a required one left out, an unknown one added where the schema closes the object, or a body of
 * the wrong type. Each is `{what, apply(body) → new body}`.
 */
export function bodyMutations(schema: Json) {
  const out: fc.Arbitrary<Mutation>[] = [];
  const props = schema.properties ?? {};
  for (const [key, propSchema] of Object.entries(props)) {
    for (const arb of breaking(propSchema, `body field ${key}`))
      out.push(arb.map(({ what, value }) => ({ what, apply: (body: Json) => ({ ...body, [key]: value }) })));
  }
  for (const key of schema.required ?? [])
    out.push(fc.constant({ what: `body without its required field ${key}`, apply: (body: Json) => omit(body, key) }));
  if (schema.additionalProperties === false || schema.unevaluatedProperties === false)
    out.push(
      fc
        .string({ minLength: 1, maxLength: 8 })
        .filter((k) => !(k in props) && !k.startsWith('__'))
        .map((key) => ({ what: `body with the unknown field ${key}`, apply: (body: Json) => ({ ...body, [key]: 1 }) })),
    );
  if (types(schema).includes('object') || schema.properties)
    out.push(
      fc
        .constantFrom([], 'x', 1)
        .map((value) => ({ what: `a body of the wrong type (${JSON.stringify(value)})`, apply: () => value })),
    );
  return out;
}

function omit(object: Json, key: string) {
  const { [key]: _dropped, ...rest } = object ?? {};
  return rest;
}
