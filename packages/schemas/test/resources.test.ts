// For each resource (a component that is the `data` of a response envelope), a valid sample from
// the spec's examples is broken three ways (a wrong type, a missing required field, an
// out-of-range value) and the response schema must reject it at the path of the change.
import { describe, expect, it } from 'vitest';
import { type ZodType, z } from 'zod';
import { type OperationSchemas, operations } from '../src/index';
import { deref, type Json, responseExamples, spec } from './spec';

const lookup = operations as Record<string, OperationSchemas>;
type Path = (string | number)[];

/** The resource component an envelope's `data` holds (directly or as array items). */
function resourceOf(envelope: Json): string | undefined {
  const data = deref(envelope)?.properties?.data;
  const ref: string | undefined = data?.$ref ?? data?.items?.$ref;
  return ref?.startsWith('#/components/schemas/') ? ref.split('/').pop() : undefined;
}

interface Sample {
  resource: string;
  label: string;
  schema: ZodType;
  value: Json;
  /** Where the resource object sits in `value`. */
  at: Path;
}

// The first example (success response) of each resource whose data holds a resource object.
const samples = new Map<string, Sample>();
for (const e of responseExamples) {
  const resource = resourceOf(e.schema);
  if (!resource || samples.has(resource) || !/^2/.test(e.status)) continue;
  const data = e.value?.data;
  const at: Path = Array.isArray(data) ? ['data', 0] : ['data'];
  if (Array.isArray(data) ? typeof data[0] !== 'object' : typeof data !== 'object' || data === null) continue;
  const schema = lookup[e.operation.id]!.responses[Number(e.status)]!;
  samples.set(resource, { resource, label: `${e.operation.id} ${e.status} ${e.name}`, schema, value: e.value, at });
}

const get = (value: Json, path: Path) => path.reduce((v, k) => v?.[k], value);
const single = (s: Json) => {
  const t = deref(s);
  return typeof t?.type === 'string' && !t.anyOf && !t.oneOf ? t.type : undefined;
};

/** A value of another JSON type than `type`. */
const wrongFor = (type: string) => (type === 'string' ? 12345 : type === 'object' ? [] : `not-a-${type}`);

/**
 * A value beyond a bound of `schema`, or undefined when it has none. Levels, tried in turn over
 * the whole sample: 0 numeric, length and item bounds; 1 enums; 2 a fraction for an integer;
 * 3 a value outside a string format.
 */
function outOfRange(schema: Json, current: Json, level: number): Json {
  const s = deref(schema);
  if (level === 0) {
    if (typeof s.maximum === 'number') return s.maximum + 1;
    if (typeof s.minimum === 'number') return s.minimum - 1;
    if (typeof s.maxItems === 'number' && Array.isArray(current) && current.length)
      return Array(s.maxItems + 1).fill(current[0]);
    if (typeof s.minItems === 'number' && s.minItems > 0) return [];
    if (typeof s.minLength === 'number' && s.minLength > 0) return '';
  }
  if (level === 1 && Array.isArray(s.enum)) return 'not-in-the-enum';
  if (level === 2 && [s.type].flat().includes('integer') && typeof current === 'number') return current + 0.5;
  if (level === 3 && FORMATS.includes(s.format) && typeof current === 'string') return `not valid: ${s.format}`;
  return undefined;
}

const FORMATS = ['date-time', 'uri', 'email'];

/** Whether any field under `schema` has something `outOfRange` can break. */
function hasBound(schema: Json, seen = new Set<Json>()): boolean {
  const s = deref(schema);
  if (!s || typeof s !== 'object' || seen.has(s)) return false;
  seen.add(s);
  const own =
    ['minimum', 'maximum', 'minItems', 'maxItems', 'minLength', 'enum'].some((k) => k in s) ||
    [s.type].flat().includes('integer') ||
    FORMATS.includes(s.format);
  const subs = [...Object.values(s.properties ?? {}), s.items, ...(s.anyOf ?? []), ...(s.oneOf ?? [])];
  return own || subs.some((sub) => hasBound(sub, seen));
}

type Found = { path: Path; bad: Json } | undefined;

/** Depth-first: the first place under (schema, value) where a bound can be broken. */
function search(schema: Json, value: Json, path: Path, level: number): Found {
  const s = deref(schema);
  if (!s || value === null || value === undefined) return undefined;
  const bad = outOfRange(s, value, level);
  if (bad !== undefined) return { path, bad };
  if (Array.isArray(value) && s.items && value.length) return search(s.items, value[0], [...path, 0], level);
  if (typeof value === 'object' && s.properties)
    for (const [key, sub] of Object.entries(s.properties)) {
      const found = key in value ? search(sub, value[key], [...path, key], level) : undefined;
      if (found) return found;
    }
  return undefined;
}

const findBound = (schema: Json, value: Json, path: Path): Found =>
  search(schema, value, path, 0) ??
  search(schema, value, path, 1) ??
  search(schema, value, path, 2) ??
  search(schema, value, path, 3);

const withChange = (value: Json, path: Path, change: (parent: Json, key: string | number) => void) => {
  const copy = structuredClone(value);
  change(get(copy, path.slice(0, -1)), path[path.length - 1]!);
  return copy;
};

/** The schema rejects `value` with an issue at `path`, shown as `→ at <path>` by zod. */
function expectRejectedAt(schema: ZodType, value: Json, path: Path) {
  const result = schema.safeParse(value);
  expect(result.success).toBe(false);
  const paths = result.error!.issues.map((i) => i.path);
  expect(paths).toContainEqual(path);
  const shown = path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i ? `.${k}` : k)).join('');
  expect(z.prettifyError(result.error!)).toContain(`→ at ${shown}`);
}

const resources = [...samples.values()];
const withRequired = resources.filter((r) => (deref(spec.components.schemas[r.resource]).required ?? []).length);

describe('resources', () => {
  it('finds a sample for every resource with documented fields', () => {
    const all = new Set(
      Object.values(spec.components.schemas)
        .map(resourceOf)
        .filter((r): r is string => r !== undefined && Boolean(deref(spec.components.schemas[r]).properties)),
    );
    const missing = [...all].filter((r) => !samples.has(r));
    expect(missing).toEqual([]);
    expect(withRequired.length).toBeGreaterThan(20);
  });

  it.each(resources.map((s) => [s.resource, s] as const))('%s: the unchanged sample parses', (_, s) => {
    expect(s.schema.safeParse(s.value).error?.issues ?? []).toEqual([]);
  });

  it.each(withRequired.map((s) => [s.resource, s] as const))('%s: a wrong type is rejected', (_, s) => {
    const def = deref(spec.components.schemas[s.resource]);
    const key = (def.required as string[]).find(
      (k) => single(def.properties[k]) && get(s.value, [...s.at, k]) !== null,
    );
    expect(key, 'a required field with one type').toBeDefined();
    const path = [...s.at, key!];
    const bad = withChange(s.value, path, (p, k) => (p[k] = wrongFor(single(def.properties[key!])!)));
    expectRejectedAt(s.schema, bad, path);
  });

  it.each(withRequired.map((s) => [s.resource, s] as const))('%s: a missing required field is rejected', (_, s) => {
    const key = deref(spec.components.schemas[s.resource]).required[0] as string;
    const path = [...s.at, key];
    expectRejectedAt(
      s.schema,
      withChange(s.value, path, (p, k) => delete p[k]),
      path,
    );
  });

  // Resources whose sample reaches a bound: minimum, maximum, item or length limits, else an enum,
  // else the integer range (a fraction), else a string format.
  const bounded = resources
    .map((s) => ({ s, found: findBound(spec.components.schemas[s.resource], get(s.value, s.at), s.at) }))
    .filter((b) => b.found);
  it('finds a bound to break in every resource whose schema has one', () => {
    const names = new Set(bounded.map((b) => b.s.resource));
    const missed = resources.filter((s) => !names.has(s.resource));
    expect(missed.filter((s) => hasBound(spec.components.schemas[s.resource])).map((s) => s.resource)).toEqual([]);
    expect(bounded.length).toBeGreaterThan(missed.length);
  });
  it.each(bounded.map((b) => [b.s.resource, b.found!.path.join('.'), b] as const))(
    '%s: an out-of-range %s is rejected',
    (_, __, { s, found }) => {
      const bad = withChange(s.value, found!.path, (p, k) => (p[k] = found!.bad));
      expectRejectedAt(s.schema, bad, found!.path);
    },
  );
});
