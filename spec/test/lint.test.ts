// The spec's lint (redocly.yaml) on a small fixture: the problems the client generator leaves to lint
// (a missing or malformed x-client-method, one used twice, a missing operationId, an undeclared path
// parameter, no 2xx response) are each reported with a message saying what to fix.
import { fileURLToPath } from 'node:url';
import { lintFromString, loadConfig } from '@redocly/openapi-core';
import { expect, it } from 'vitest';

type Op = Record<string, unknown>;
const op = (extra: Op): Op => ({
  summary: 's',
  description: 'd',
  tags: ['T'],
  responses: { 200: { description: 'ok' }, 401: { description: 'no token' } },
  ...extra,
});
const stateful = {
  description: 'ok',
  content: {
    'application/json': {
      schema: { type: 'object', properties: { data: { type: 'object', properties: { state: { type: 'string' } } } } },
    },
  },
};
const fixture = {
  openapi: '3.1.0',
  info: { title: 't', version: '1', description: 'd', license: { name: 'MIT', url: 'https://mit.license' } },
  servers: [{ url: 'https://api.hosting.test/v1' }],
  security: [{ bearer: [] }],
  tags: [{ name: 'T', description: 'd' }],
  components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  paths: {
    '/a': { get: op({ operationId: 'getA', 'x-client-method': 'things.get' }) },
    '/b': { get: op({ operationId: 'getB', 'x-client-method': 'things.get' }) },
    '/c': { get: op({ operationId: 'getC', 'x-client-method': 'get' }) },
    '/d': { get: op({ operationId: 'getD' }) },
    '/e': { get: op({ 'x-client-method': 'e.get' }) },
    '/g': {
      get: op({ operationId: 'listG', 'x-client-method': 'g.list' }),
      post: op({ operationId: 'createG', 'x-client-method': 'g.create', 'x-list': { order: 'silent' } }),
      put: op({
        operationId: 'updateG',
        'x-client-method': 'g.update',
        'x-effects': [{ kind: 'flipped' }],
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  code: { type: 'string', 'x-values-from': { field: 'code' } },
                  ids: { type: 'array', 'x-special-values': [-1] },
                  note: { type: 'string', 'x-free-text': 'yes' },
                },
              },
            },
          },
        },
      }),
    },
    // Writes of a resource with a state field: the create answers it, the delete's path reads it.
    '/s': {
      post: op({
        operationId: 'createS',
        'x-client-method': 's.create',
        'x-effects': 'silent',
        responses: { 200: stateful, 401: { description: 'no token' } },
      }),
    },
    '/s/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' }, example: 1 }],
      get: op({ operationId: 'getS', 'x-client-method': 's.get', responses: { 200: stateful } }),
      delete: op({ operationId: 'deleteS', 'x-client-method': 's.delete', 'x-effects': 'silent' }),
      put: op({
        operationId: 'updateS',
        'x-client-method': 's.update',
        'x-effects': 'silent',
        'x-state': { after: {} },
      }),
    },
    '/h': {
      get: op({
        operationId: 'getH',
        'x-client-method': 'h.get',
        description: 'Terminates all SSH connections to the site.',
      }),
    },
    '/i': {
      get: op({
        operationId: 'getI',
        'x-client-method': 'i.get',
        description: 'A time-limited URL: request it only when about to use it.',
        'x-effects': [{ kind: 'issued', what: 'a URL' }],
      }),
    },
    '/f/{id}': {
      get: op({
        operationId: 'getF',
        'x-client-method': 'f.get',
        responses: { 401: { description: 'no token' }, 404: { description: 'none' } },
      }),
    },
  },
};

it('reports every spec problem the client generator leaves to lint, with what to fix', async () => {
  const config = await loadConfig({ configPath: fileURLToPath(new URL('../../redocly.yaml', import.meta.url)) });
  const problems = await lintFromString({ source: JSON.stringify(fixture), absoluteRef: '/fixture.json', config });
  const found = problems.map((p) => `${p.location[0]?.pointer} ${p.ruleId}: ${p.message}`);
  expect(found).toEqual(
    expect.arrayContaining([
      '#/paths/~1b/get/x-client-method hosting-api/unique-client-method: x-client-method "things.get" is already used by getA; each operation needs its own client method.',
      '#/paths/~1c/get/x-client-method rule/client-method: Every operation has an x-client-method like sites.notes.list.',
      '#/paths/~1d/get/x-client-method rule/client-method: Every operation has an x-client-method like sites.notes.list.',
      expect.stringMatching(/^#\/paths\/~1e\/get\/operationId operation-operationId: /),
      expect.stringMatching(/^#\/paths\/~1f~1\{id\}\/get\/parameters path-parameters-defined: .*`\{id\}`/),
      expect.stringMatching(/^#\/paths\/~1f~1\{id\}\/get\/responses operation-2xx-response: .*2XX/),
      '#/paths/~1g/get hosting-api/behaviour-statements: listG is a list: state its documented order in x-list.order (or order: silent where the documentation states none; see spec/CONVENTIONS.md).',
      '#/paths/~1g/post hosting-api/behaviour-statements: createG is a write: state its effect on the reads in x-effects (or x-effects: silent where the documentation states none; see spec/CONVENTIONS.md).',
      "#/paths/~1s/post hosting-api/state-transitions: createS writes a resource with a state field (state): state its transition in x-state (or x-state: silent where the documentation's states table states none; see spec/CONVENTIONS.md).",
      expect.stringMatching(
        /^#\/paths\/~1s~1\{id\}\/delete hosting-api\/state-transitions: deleteS writes a resource with a state field/,
      ),
      expect.stringMatching(
        /^#\/paths\/~1s~1\{id\}\/put\/x-state hosting-api\/state-transitions: x-state is silent or \{read, /,
      ),
      expect.stringMatching(
        /^#\/paths\/~1g\/put\/x-effects\/0 hosting-api\/behaviour-statements: An effect's kind is one of created, /,
      ),
      expect.stringMatching(
        /properties\/code\/x-values-from hosting-api\/behaviour-statements: x-values-from is \{operation: /,
      ),
      expect.stringMatching(
        /properties\/ids\/x-special-values hosting-api\/behaviour-statements: x-special-values is a list /,
      ),
      expect.stringMatching(/properties\/note\/x-free-text hosting-api\/behaviour-statements: x-free-text is true/),
    ]),
  );
  expect(problems.every((p) => p.severity === 'error')).toBe(true);
  // A GET that states its effect in x-effects passes.
  expect(found.filter((f) => f.startsWith('#/paths/~1i/'))).toEqual([]);
});

it('fails a GET whose description names an effect without x-effects', async () => {
  const config = await loadConfig({ configPath: fileURLToPath(new URL('../../redocly.yaml', import.meta.url)) });
  const problems = await lintFromString({ source: JSON.stringify(fixture), absoluteRef: '/fixture.json', config });
  expect(problems.map((p) => `${p.location[0]?.pointer} ${p.message}`)).toContain(
    '#/paths/~1h/get getH is a GET whose description names an effect ("Terminat"): state it in x-effects, so that read-only tools leave it out (see spec/CONVENTIONS.md, "Safe").',
  );
});
