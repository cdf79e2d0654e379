// The generator's surgery on orval's output (generators/schemas: prepare.mjs markers, generate.mjs finishing),
// each rewrite checked on a small fixture spec run through the whole pipeline, and on bare text.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadModel } from '@hosting-api/openapi/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
// @ts-expect-error plain .mjs generator without types
import { applyMarkers, generateSchemas } from '../../../generators/schemas/generate.mjs';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const fixture = {
  openapi: '3.1.0',
  info: { title: 'fixture', version: '1' },
  servers: [{ url: 'https://{host}/v1', variables: { host: { default: 'api.example' } } }],
  paths: {
    '/things/{thing_id}': {
      parameters: [{ name: 'thing_id', in: 'path', required: true, schema: { type: 'integer' } }],
      post: {
        operationId: 'createThing',
        parameters: [{ name: 'dry_run', in: 'query', schema: { type: 'boolean', default: false } }],
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': {
              schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
            },
          },
        },
        responses: {
          '201': {
            description: 'created',
            ...json({
              type: 'object',
              additionalProperties: false,
              required: ['data'],
              properties: { data: ref('Thing') },
            }),
          },
          '404': { description: 'missing', ...json(ref('Problem')) },
        },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        required: ['id', 'kind'],
        properties: {
          id: { type: 'integer' },
          kind: { type: 'boolean', enum: [true] },
          size: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
          extra: { type: 'object', properties: { at: { type: 'integer' } }, additionalProperties: { type: 'number' } },
        },
      },
      Problem: { type: 'object', additionalProperties: false, properties: { message: { type: 'string' } } },
    },
  },
};

let dir: string;
let endpoints: Record<string, ZodType>;
let components: Record<string, ZodType>;
let lookup: Record<string, Record<string, unknown>>;
beforeAll(async () => {
  dir = mkdtempSync(join(import.meta.dirname, '../.generator-test-'));
  await generateSchemas(await loadModel(fixture), dir, join(import.meta.dirname, '..'));
  // One module: the operations' schemas and the component schemas, named apart for readability.
  endpoints = components = await import(join(dir, 'schemas.ts'));
  lookup = (await import(join(dir, 'operations.ts'))).operations;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ok = (schema: ZodType | undefined, value: unknown) => schema!.safeParse(value).success;

describe('the schemas generator on a fixture spec', () => {
  it('makes integers integers, on parameters, properties and multi-type fields', () => {
    expect(ok(endpoints.createThingParams, { thing_id: '7' })).toBe(true);
    expect(ok(endpoints.createThingParams, { thing_id: '7.5' })).toBe(false);
    expect(ok(components.Thing, { id: 1.5, kind: true })).toBe(false);
    expect(ok(components.Thing, { id: 1, kind: true, size: 'L' })).toBe(true);
    expect(ok(components.Thing, { id: 1, kind: true, size: 2.5 })).toBe(false);
  });

  it('closes objects with additionalProperties: false and keeps the others open', () => {
    expect(ok(components.Problem, { message: 'x', other: 1 })).toBe(false);
    expect(components.Thing!.parse({ id: 1, kind: true, other: 'kept' })).toEqual({ id: 1, kind: true, other: 'kept' });
  });

  it('enforces additionalProperties with a schema next to properties (catchall)', () => {
    expect(ok(components.Thing, { id: 1, kind: true, extra: { at: 1, height: 2.5 } })).toBe(true);
    expect(ok(components.Thing, { id: 1, kind: true, extra: { at: 1, height: 'tall' } })).toBe(false);
  });

  it('renders a boolean enum, and drops defaults so parsing never adds data', () => {
    expect(ok(components.Thing, { id: 1, kind: false })).toBe(false);
    expect(endpoints.createThingQueryParams!.parse({})).toEqual({});
  });

  it('takes booleans in the query as a boolean or the strings "true"/"false"', () => {
    expect(endpoints.createThingQueryParams!.parse({ dry_run: 'false' })).toEqual({ dry_run: false });
    expect(endpoints.createThingQueryParams!.parse({ dry_run: true })).toEqual({ dry_run: true });
    expect(ok(endpoints.createThingQueryParams, { dry_run: 'yes' })).toBe(false);
  });

  it('reads form bodies, path-item parameters and a 201 success, and looks them up by operationId', () => {
    expect(ok(endpoints.createThingBody, { name: 'n' })).toBe(true);
    expect(ok(endpoints.createThingBody, {})).toBe(false);
    expect(ok(endpoints.createThingResponse, { data: { id: 1, kind: true } })).toBe(true);
    expect(lookup.createThing).toMatchObject({
      method: 'post',
      path: '/things/{thing_id}',
      status: 201,
      requestContentType: 'application/x-www-form-urlencoded',
      bodyRequired: true,
      params: endpoints.createThingParams,
      query: endpoints.createThingQueryParams,
      headers: undefined,
      response: endpoints.createThingResponse,
      responses: { 201: endpoints.createThingResponse, 404: components.Problem },
    });
    expect(readFileSync(join(dir, 'schemas.ts'), 'utf8')).toContain('export type Thing = zod.infer<typeof Thing>;');
  });
});

describe('what orval would get wrong stops generation, saying what to write instead', () => {
  const withSchema = (schema: object) => ({
    ...fixture,
    components: { schemas: { ...fixture.components.schemas, X: schema } },
  });
  it.each([
    [{ type: 'object', properties: { a: { const: true } } }, /a non-string const: orval drops it; write enum/],
    [{ type: ['integer', 'string'] }, /type \["integer","string"\]: orval keeps only the first type; write anyOf/],
    [{ allOf: [{ type: 'object' }] }, /allOf: orval renders it as \.and\(\) and loses required/],
  ])('%j', async (schema, message) => {
    const out = mkdtempSync(join(import.meta.dirname, '../.generator-test-'));
    try {
      await expect(
        generateSchemas(await loadModel(withSchema(schema)), out, join(import.meta.dirname, '..')),
      ).rejects.toThrow(message);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('applyMarkers on bare text', () => {
  it('refuses output with a marker it could not place', () => {
    const text =
      "export const aRegExp = new RegExp('__int__');\nexport const a = zod.object({}).optional();\nconst b = '__int__';\n";
    expect(() => applyMarkers(text)).toThrow('marker __int__ left in orval output');
  });

  it('unexports orval constants and keeps the schemas exported', () => {
    const text = 'export const aMax = 5;\nexport const a = zod.string().max(aMax);\n';
    expect(applyMarkers(text)).toMatch(
      /^\/\/ Generated .*\nconst aMax = 5;\nexport const a = zod\.string\(\)\.max\(aMax\);\n$/,
    );
  });
});
