// The OpenAPI 3.1 features orval 7 renders wrong (see generators/schemas/prepare.mjs), each checked
// on a schema of this spec that uses it.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  AlertReadState,
  createAccessTokenBody,
  createAccessTokenResponse,
  ErrorResponse,
  getSiteParams,
  listAlertsQueryParams,
  listSiteNotesQueryParams,
  MetricsPeriod,
  Note,
  NoteResponse,
  type OperationId,
  type OperationSchemas,
  operations,
  Site,
  SiteEdgeCache,
} from '../src/index';
import { deref, responseExamples } from './spec';

const example = (operationId: string) => {
  const found = responseExamples.find((e) => e.operation.id === operationId && /^2/.test(e.status));
  if (!found) throw new Error(`no example for ${operationId}`);
  return structuredClone(found.value);
};
const note = () => example('getSiteNote').data;
const site = () => example('getSite').data;
const fails = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error?.issues ?? [];

describe('3.1 keywords', () => {
  it('type [x, "null"] is nullable, and the non-null type still holds', () => {
    expect(fails(Site, { ...site(), clonedFromId: null })).toEqual([]);
    expect(fails(Site, { ...site(), clonedFromId: 7 })).toEqual([]);
    expect(fails(Site, { ...site(), clonedFromId: 'seven' })).toMatchObject([{ path: ['clonedFromId'] }]);
    expect(fails(Note, { ...note(), id: null })).toMatchObject([{ path: ['id'] }]);
  });

  it('a string enum is z.enum', () => {
    expect(SiteEdgeCache).toBeInstanceOf(z.ZodEnum);
    expect(SiteEdgeCache.options).toEqual(['enabled', 'disabled']);
    expect(fails(SiteEdgeCache, 'sometimes')).toMatchObject([{ code: 'invalid_value' }]);
  });

  it('integers are integers (orval: no .int())', () => {
    expect(fails(Note, { ...note(), id: 4.5 })).toMatchObject([{ path: ['id'], expected: 'int' }]);
  });

  it('maximum and minimum are kept', () => {
    const token = example('createAccessToken');
    expect(fails(createAccessTokenResponse, token)).toEqual([]);
    token.data.expires_in = 3600;
    expect(fails(createAccessTokenResponse, token)).toMatchObject([{ path: ['data', 'expires_in'], code: 'too_big' }]);
    expect(fails(listSiteNotesQueryParams, { page: 0 })).toMatchObject([{ path: ['page'], code: 'too_small' }]);
  });

  it('additionalProperties: false rejects unknown keys (orval: ignored)', () => {
    const response = example('getSiteNote');
    expect(fails(NoteResponse, { ...response, extra: true })).toMatchObject([
      { code: 'unrecognized_keys', keys: ['extra'] },
    ]);
    expect(fails(ErrorResponse, { message: 'x', data: null, errors: null, code: 1 })).toHaveLength(1);
  });

  it('open resources accept and keep unknown keys (orval: zod.object strips them)', () => {
    expect(Note.parse({ ...note(), pinned: true })).toMatchObject({ pinned: true });
    const parsed = NoteResponse.parse({ ...example('getSiteNote'), data: { ...note(), pinned: true } });
    expect(parsed.data).toMatchObject({ pinned: true });
  });

  it('additionalProperties with a schema next to properties is enforced (orval: dropped)', () => {
    const period = { timestamp: 1793610843, country: { requests: { US: 10, DE: 2 } } };
    expect(fails(MetricsPeriod, period)).toEqual([]);
    expect(fails(MetricsPeriod, { ...period, country: { requests: { US: 'ten' } } })).toMatchObject([
      { path: ['country', 'requests', 'US'] },
    ]);
  });

  it('type [integer, string] accepts both (orval: only the first)', () => {
    expect(fails(MetricsPeriod, { timestamp: '2026-11-02T09:14:03.512Z' })).toEqual([]);
    expect(fails(MetricsPeriod, { timestamp: 1793610843 })).toEqual([]);
    expect(fails(MetricsPeriod, { timestamp: true })).toHaveLength(1);
  });

  it('const is a literal (orval: only string consts)', () => {
    expect(fails(AlertReadState, { id: 1, read: true })).toEqual([]);
    expect(fails(AlertReadState, { id: 1, read: false })).toMatchObject([{ path: ['read'] }]);
  });

  it('date-time takes Z and offsets, not other text', () => {
    expect(fails(Note, { ...note(), created: '2026-11-02T10:14:03+01:00' })).toEqual([]);
    expect(fails(Note, { ...note(), created: '2 Nov 2026' })).toMatchObject([{ path: ['created'] }]);
  });

  it('defaults are not filled in: parsing never adds fields', () => {
    expect(listAlertsQueryParams.parse({})).toEqual({});
  });
});

describe('operations as orval misses them', () => {
  it('path-item-level parameters give the operation its params (orval: ignored)', () => {
    expect(getSiteParams.parse({ site_id: '123456' })).toEqual({ site_id: 123456 });
    expect(fails(getSiteParams, { site_id: 'abc' })).toMatchObject([{ path: ['site_id'] }]);
    expect(fails(getSiteParams, { site_id: '1.5' })).toMatchObject([{ path: ['site_id'] }]);
  });

  it('query numbers are coerced, booleans read "true"/"false" only', () => {
    expect(listAlertsQueryParams.parse({ per_page: '20', show_dismissed: 'false' })).toEqual({
      per_page: 20,
      show_dismissed: false,
    });
    expect(listAlertsQueryParams.parse({ show_dismissed: true })).toEqual({ show_dismissed: true });
    expect(fails(listAlertsQueryParams, { show_dismissed: 'maybe' })).toMatchObject([{ path: ['show_dismissed'] }]);
    expect(fails(listAlertsQueryParams, { per_page: '0' })).toMatchObject([{ path: ['per_page'] }]);
  });

  it('a form-encoded body gets a schema (orval: JSON and multipart only)', () => {
    expect(operations.createAccessToken.requestContentType).toBe('application/x-www-form-urlencoded');
    expect(operations.createAccessToken.body).toBe(createAccessTokenBody);
    expect(fails(createAccessTokenBody, { grant_type: 'password', client_id: 'a', client_secret: 'b' })).toMatchObject([
      { path: ['grant_type'] },
    ]);
  });

  it('201 and 202 successes get a response schema (orval: 200 only)', () => {
    const entries = Object.values(operations as Record<string, OperationSchemas>);
    const others = entries.filter((o) => o.status === 201 || o.status === 202);
    expect(others.length).toBeGreaterThan(0);
    for (const o of others) {
      expect(o.response).toBeDefined();
      expect(o.responses[o.status!]).toBe(o.response);
    }
  });

  it('a body the spec marks optional says so', () => {
    for (const [id, o] of Object.entries(operations as Record<string, OperationSchemas>))
      if (o.body) expect(typeof o.bodyRequired, id).toBe('boolean');
    expect(operations.createSiteNote.bodyRequired).toBe(true);
  });
});

describe('types', () => {
  it('the lookup keeps each schema type, and component types match their schema', () => {
    expectTypeOf(operations.getSite.response).toEqualTypeOf<typeof import('../src/index').getSiteResponse>();
    expectTypeOf<OperationId>().toExtend<string>();
    expectTypeOf<'getSite'>().toExtend<OperationId>();
    expectTypeOf<z.infer<typeof Note>['id']>().toEqualTypeOf<number>();
    expectTypeOf<import('../src/index').Note>().toEqualTypeOf<z.infer<typeof Note>>();
    // Looked up by a runtime id, every entry is an OperationSchemas.
    const byId = (id: OperationId): OperationSchemas => operations[id];
    expect(byId('getSite').path).toBe('/sites/{site_id}');
    expect(deref({ $ref: '#/components/schemas/Note' }).type).toBe('object');
  });
});
