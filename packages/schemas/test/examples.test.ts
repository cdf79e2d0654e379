// Every example in the spec parses with the schema generated for it, and the lookup and exports
// cover the whole spec.
import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import * as pkg from '../src/index';
import { type OperationSchemas, operations } from '../src/index';
import { bodyExamples, deref, type Json, media, operationsInSpec, responseExamples, spec } from './spec';

const lookup = operations as Record<string, OperationSchemas>;
const exported = pkg as unknown as Record<string, ZodType | undefined>;

/** The issues of a failed parse, so that a failure shows them; [] on success. */
const issues = (schema: ZodType | undefined, value: unknown) => {
  if (!schema) throw new Error('no schema');
  return schema.safeParse(value).error?.issues ?? [];
};

describe('coverage', () => {
  it('has a lookup entry for every operation of the spec and no other', () => {
    expect(Object.keys(operations).sort()).toEqual(operationsInSpec.map((o) => o.id).sort());
    expect(operationsInSpec.length).toBeGreaterThan(0);
  });

  it('records method, path and success status as the spec has them', () => {
    for (const { id, method, path, op } of operationsInSpec) {
      const entry = lookup[id]!;
      const ok = Object.keys(op.responses).find((c) => /^2/.test(c));
      expect([entry.method, entry.path, entry.status], id).toEqual([method, path, Number(ok)]);
    }
  });

  it('has params, query, body and response exactly where the spec does', () => {
    for (const { id, op, parameters } of operationsInSpec) {
      const entry = lookup[id]!;
      const ok = Object.keys(op.responses).find((c) => /^2/.test(c))!;
      const expected = {
        params: parameters.some((p) => p.in === 'path'),
        query: parameters.some((p) => p.in === 'query'),
        body: Boolean(media(deref(op.requestBody)?.content)?.schema),
        response: Boolean(media(deref(op.responses[ok]).content)?.schema),
      };
      const actual = {
        params: entry.params !== undefined,
        query: entry.query !== undefined,
        body: entry.body !== undefined,
        response: entry.response !== undefined,
      };
      expect(actual, id).toEqual(expected);
      if (entry.params) expect(exported[`${id}Params`]).toBe(entry.params);
      if (entry.query) expect(exported[`${id}QueryParams`]).toBe(entry.query);
      if (entry.body) expect(exported[`${id}Body`]).toBe(entry.body);
      if (entry.response) expect(exported[`${id}Response`]).toBe(entry.response);
    }
  });

  it('exports a schema under the name of every component schema', () => {
    const names = Object.keys(spec.components.schemas);
    expect(names.filter((n) => typeof exported[n]?.safeParse !== 'function')).toEqual([]);
  });

  it('maps every documented error status to ErrorResponse', () => {
    for (const { id, op } of operationsInSpec)
      for (const status of Object.keys(op.responses).filter((c) => /^[45]/.test(c)))
        expect(lookup[id]!.responses[Number(status)], `${id} ${status}`).toBe(pkg.ErrorResponse);
  });
});

describe('every response example parses with its schema', () => {
  it('finds response examples', () => expect(responseExamples.length).toBeGreaterThan(100));
  it.each(responseExamples.map((e) => [`${e.operation.id} ${e.status} ${e.name}`, e] as const))('%s', (_, e) => {
    expect(issues(lookup[e.operation.id]!.responses[Number(e.status)], e.value)).toEqual([]);
  });
});

describe('every request-body example parses with its schema', () => {
  it('finds request-body examples', () => expect(bodyExamples.length).toBeGreaterThan(10));
  it.each(bodyExamples.map((e) => [`${e.operation.id} ${e.name}`, e] as const))('%s', (_, e) => {
    expect(issues(lookup[e.operation.id]!.body, e.value)).toEqual([]);
  });
});

describe('every parameter example parses, typed and as URL text', () => {
  const cases = operationsInSpec.flatMap((o) =>
    (['path', 'query'] as const)
      .filter((where) => o.parameters.some((p: Json) => p.in === where))
      .map((where) => [`${o.id} ${where}`, o, where] as const),
  );
  it.each(cases)('%s', (_, o, where) => {
    const schema = where === 'path' ? lookup[o.id]!.params : lookup[o.id]!.query;
    const params = o.parameters.filter((p: Json) => p.in === where);
    const typed = Object.fromEntries(params.map((p: Json) => [p.name, p.example]));
    const text = Object.fromEntries(params.map((p: Json) => [p.name, String(p.example)]));
    expect(params.every((p: Json) => 'example' in p)).toBe(true);
    expect(schema!.parse(typed)).toEqual(typed);
    expect(schema!.parse(text)).toEqual(typed); // strings from a URL come back typed
  });
});

describe('envelopes are closed, resources open', () => {
  const closed = responseExamples.filter((e) => deref(e.schema).additionalProperties === false);
  it('finds closed envelopes among the examples', () => expect(closed.length).toBeGreaterThan(100));
  it.each(closed.map((e) => [`${e.operation.id} ${e.status} ${e.name}`, e] as const))(
    '%s rejects an unknown envelope key',
    (_, e) => {
      const found = issues(lookup[e.operation.id]!.responses[Number(e.status)], { ...e.value, extra: 1 });
      expect(found).toMatchObject([{ code: 'unrecognized_keys', keys: ['extra'], path: [] }]);
    },
  );
});
