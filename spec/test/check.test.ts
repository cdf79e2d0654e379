// The shared check of an answer against the spec (model/check.js), on a fixture and on the spec.
import { describe, expect, it } from 'vitest';
import { createCheck } from '../model/check.js';
import { loadModel } from '../model/index.js';

const json = (schema: unknown) => ({ 'application/json': { schema } });
const fixture = () => ({
  openapi: '3.1.0',
  info: { title: 'fixture', version: '1' },
  servers: [{ url: 'https://api.example/v1' }],
  paths: {
    '/things/{id}': {
      get: {
        operationId: 'getThing',
        responses: {
          '200': {
            description: 'ok',
            headers: {
              'X-Total': { required: true, schema: { type: 'integer' } },
              'X-Opt': { schema: { type: 'string' } },
            },
            content: {
              ...json({ $ref: '#/components/schemas/Thing' }),
              'text/csv': { schema: { type: 'string' } },
            },
          },
          '204': { description: 'nothing' },
          '404': { $ref: '#/components/responses/NotFound' },
        },
      },
    },
  },
  webhooks: {
    thing_done: {
      post: {
        requestBody: {
          content: json({ type: 'object', required: ['state'], properties: { state: { enum: ['ok', 'failed'] } } }),
        },
        responses: { '200': { description: 'ok' } },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        required: ['id', 'at'],
        additionalProperties: false,
        properties: { id: { type: 'integer' }, at: { type: 'string', format: 'date-time' } },
      },
    },
    responses: {
      NotFound: {
        description: 'gone',
        content: json({ type: 'object', required: ['message'], properties: { message: { type: 'string' } } }),
      },
    },
  },
});
const ok = { 'X-Total': '1', 'Content-Type': 'application/json; charset=utf-8' };

describe('createCheck on a fixture', async () => {
  const check = createCheck(await loadModel(fixture()), { allErrors: true });

  it('passes an answer the spec documents', () => {
    expect(check.response('getThing', 200, ok, JSON.stringify({ id: 1, at: '2024-01-01T00:00:00Z' }))).toEqual([]);
    expect(check.response('getThing', 200, { 'x-total': 1, 'content-type': 'text/csv' }, 'a,b')).toEqual([]);
    expect(check.response('getThing', 204, {}, undefined)).toEqual([]);
    expect(check.response('getThing', 404, { 'content-type': 'application/json' }, '{"message":"gone"}')).toEqual([]);
  });

  it('names what is wrong with an answer it does not document', () => {
    const where = 'getThing (GET /things/{id})';
    expect(check.response('nope', 200, ok, '{}')).toEqual(['nope is not an operation of the spec']);
    expect(check.response('getThing', 500, ok, '{}')).toEqual([
      `${where} 500: status not documented (documented: 200, 204, 404)`,
    ]);
    expect(check.response('getThing', 200, { 'content-type': 'text/csv' }, 'a')).toEqual([
      `${where} 200: required header X-Total missing`,
    ]);
    expect(check.response('getThing', 200, { 'X-Total': 1, 'content-type': 'text/html' }, 'a')).toEqual([
      `${where} 200: Content-Type text/html not documented (application/json, text/csv)`,
    ]);
    expect(check.response('getThing', 204, {}, 'x')).toEqual([
      `${where} 204: a body (1 bytes) where the spec documents none`,
    ]);
    expect(check.response('getThing', 200, ok, '{oops')).toEqual([`${where} 200: the body is not JSON: {oops`]);
    // The schema is reached through the operation's $ref, formats are checked, extras are named.
    expect(check.response('getThing', 200, ok, JSON.stringify({ id: 'x', at: 'yesterday', more: 1 }))).toEqual([
      `${where} 200: body must NOT have additional properties: more`,
      `${where} 200: body/id must be integer`,
      `${where} 200: body/at must match format "date-time"`,
    ]);
    // A response reached through components/responses validates against that component's schema.
    expect(check.response('getThing', 404, { 'content-type': 'application/json' }, '{}')).toEqual([
      `${where} 404: body must have required property 'message'`,
    ]);
  });

  it('checks a webhook delivery against webhooks:', () => {
    expect(check.webhook('thing_done', 'application/json', '{"state":"ok"}')).toEqual({
      documented: true,
      errors: [],
      payload: { state: 'ok' },
    });
    expect(check.webhook('other', 'application/json', '{}')).toEqual({
      documented: false,
      errors: ['"other" is not in the spec\'s webhooks (thing_done)'],
    });
    expect(check.webhook('thing_done', 'text/plain', '{}').errors).toEqual([
      'webhook thing_done: Content-Type text/plain not documented (application/json)',
    ]);
    expect(check.webhook('thing_done', 'application/json', '{"state":"late"}')).toEqual({
      documented: true,
      errors: ['webhook thing_done: payload/state must be equal to one of the allowed values: ["ok","failed"]'],
      payload: { state: 'late' },
    });
    expect(check.webhook('thing_done', 'application/json', 'nope').errors).toEqual([
      'webhook thing_done: the payload is not JSON: nope',
    ]);
  });
});

describe('createCheck on the spec', async () => {
  const model = await loadModel();
  const check = createCheck(model);

  it('stops at the first error of a wrong answer: a 60 KB list of {} is one problem, not thousands', () => {
    const body = JSON.stringify({ message: 'Success', data: Array(30_000).fill({}), errors: null });
    expect(body.length).toBeGreaterThan(60_000);
    const problems = check.response('listSites', 200, { 'content-type': 'application/json' }, body);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^listSites \(GET \/sites\) 200: body\/data\/0 must have required property/);
  });

  it('documents the shared error examples and checks the $ref-ed webhook', () => {
    const op = model.operations.find((o) => o.responses['404'])!;
    const text = JSON.stringify({ message: model.messages.NotFound, data: null, errors: null });
    expect(check.response(op.operationId, 404, { 'content-type': 'application/json' }, text)).toEqual([]);
    expect(
      check.response(op.operationId, 404, { 'content-type': 'application/json' }, '{"message":1}').length,
    ).toBeGreaterThan(0);
    for (const event of Object.keys(model.document.webhooks ?? {})) {
      const media = model.dereferenced.webhooks[event].post.requestBody.content['application/json'];
      const example = media.example ?? Object.values<any>(media.examples ?? {})[0]?.value;
      expect(check.webhook(event, 'application/json', JSON.stringify(example)).errors, event).toEqual([]);
      expect(check.webhook(event, 'application/json', '[]').errors.length, event).toBeGreaterThan(0);
    }
  });
});
