// The spec model (model/index.js): what it reads from a document, on small fixtures and on the spec.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dereferenceLocal, redoclyDereference } from '../model/dereference.js';
import { loadModel, serverUrl, specPath } from '../model/index.js';

const fixture = () => ({
  openapi: '3.1.0',
  info: { title: 'fixture', version: '1' },
  servers: [{ url: 'https://{host}/v1/', variables: { host: { default: 'api.example' } } }],
  security: [{ bearer: [] }],
  paths: {
    '/things/{id}': {
      parameters: [{ $ref: '#/components/parameters/Id' }, { name: 'q', in: 'query', schema: { type: 'string' } }],
      put: {
        operationId: 'updateThing',
        tags: ['Things'],
        'x-client-method': 'things.update',
        security: [{ oauth2: ['authorized', 'owner'] }],
        parameters: [{ name: 'q', in: 'query', schema: { type: 'integer' } }],
        requestBody: { $ref: '#/components/requestBodies/Thing' },
        responses: {
          '202': { description: 'queued', content: { 'application/json': { schema: { type: 'object' } } } },
          '404': { $ref: '#/components/responses/NotFound' },
        },
      },
    },
    '/token': {
      servers: [{ url: 'https://auth.example' }],
      post: { operationId: 'getToken', security: [], responses: { '200': { description: 'ok' } } },
    },
  },
  components: {
    parameters: { Id: { name: 'id', in: 'path', required: true, schema: { type: 'integer' } } },
    requestBodies: {
      Thing: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } } },
    },
    responses: {
      NotFound: {
        description: 'not found',
        content: { 'application/json': { examples: { NotFound: { value: { message: 'Gone away.' } } } } },
      },
    },
  },
});

describe('the spec model on a fixture', () => {
  it('lists each operation with what the spec says about it, $refs followed', async () => {
    const m = await loadModel(fixture());
    expect(m.operations.map((o) => `${o.method} ${o.path} ${o.operationId}`)).toEqual([
      'put /things/{id} updateThing',
      'post /token getToken',
    ]);
    const put = m.operation('updateThing');
    expect(put).toMatchObject({
      tags: ['Things'],
      clientMethod: 'things.update',
      requiresToken: true,
      scopes: ['authorized', 'owner'],
      successStatus: 202,
      requestBodyRequired: true,
      requestMediaTypes: ['application/x-www-form-urlencoded'],
      responseMediaTypes: { '202': ['application/json'], '404': ['application/json'] },
      baseUrl: 'https://api.example/v1',
      outsideV1: false,
    });
    // Path-item parameters are inherited; the operation's own `q` replaces the path item's.
    expect(put.parameters.map((p) => `${p.in}:${p.name}:${p.schema.type}`)).toEqual([
      'path:id:integer',
      'query:q:integer',
    ]);
    expect(put.bundled.requestBody).toEqual({ $ref: '#/components/requestBodies/Thing' });
    // The bundled nodes keep their $refs; `follow` and `refName` read them.
    expect(m.refName(put.bundled.requestBody)).toBe('Thing');
    expect(m.follow(put.bundled.requestBody)).toBe(m.document.components.requestBodies.Thing);
    expect(m.follow({ $ref: '#/paths/~1things~1{id}/put/operationId' })).toBe('updateThing');
    expect(() => m.follow({ $ref: '#/components/schemas/Missing' })).toThrow('names nothing');
    expect(m.follow(put.bundled.responses['202'])).toBe(put.bundled.responses['202']);
    expect(() => m.operation('nope')).toThrow('no operation nope');
  });

  it('finds the token operations by their own servers, and the auth root', async () => {
    const m = await loadModel(fixture());
    expect(m.operation('getToken')).toMatchObject({ requiresToken: false, outsideV1: true, successStatus: 200 });
    expect(m.tokenOperations.map((o) => o.operationId)).toEqual(['getToken']);
    expect(m.authPaths).toEqual(['/token']);
    expect(m.apiUrl).toBe('https://api.example/v1');
    expect(m.authUrl).toBe('https://auth.example');
  });

  it('tells the token operation that issues tokens from the one that revokes, by their form bodies', async () => {
    const form = (required: string[], properties: object) => ({
      required: true,
      content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', required, properties } } },
    });
    /** The fixture with a revoke operation, and a token operation that offers `grant`. */
    const withAuth = (grant: string) => {
      const doc = fixture();
      Object.assign(doc.paths['/token'].post, {
        requestBody: form(['grant_type'], { grant_type: { type: 'string', enum: [grant] } }),
      });
      Object.assign(doc.paths, {
        '/revoke': {
          servers: [{ url: 'https://auth.example' }],
          post: {
            operationId: 'dropToken',
            security: [],
            requestBody: form(['token', 'client_id'], { token: { type: 'string' }, client_id: { type: 'string' } }),
            responses: { '200': { description: 'ok' } },
          },
        },
      });
      return doc;
    };
    const m = await loadModel(withAuth('client_credentials'));
    expect(m.issueTokenOperation?.operationId).toBe('getToken');
    expect(m.revokeTokenOperation?.operationId).toBe('dropToken');
    // Without the client-credentials grant nothing issues tokens; without a `token` nothing revokes.
    expect((await loadModel(withAuth('password'))).issueTokenOperation).toBeUndefined();
    expect((await loadModel(fixture())).revokeTokenOperation).toBeUndefined();
  });

  it('reads message texts from the shared responses, and leaves the document as it was', async () => {
    const doc = fixture();
    const m = await loadModel(doc);
    expect(m.messages).toEqual({ NotFound: 'Gone away.' });
    expect(doc).toEqual(fixture());
    expect(m.document).toBe(doc);
  });

  it('says what to fix when the document cannot be read or dereferenced', async () => {
    await expect(loadModel('/nowhere/openapi.json')).rejects.toThrow(
      'cannot read the spec /nowhere/openapi.json (ENOENT): give a bundled OpenAPI document, JSON or YAML',
    );
    // A user's file that does not parse is named as theirs, with no advice to bundle this package.
    const bad = join(mkdtempSync(join(tmpdir(), 'model-')), 'bad.json');
    writeFileSync(bad, '{bad');
    await expect(loadModel(bad)).rejects.toThrow(
      /^cannot read the spec .*bad\.json \(Expected property name.*: give a bundled OpenAPI document, JSON or YAML$/,
    );
    const broken = fixture();
    broken.paths['/token'].post.responses['200'] = { $ref: '#/components/responses/Missing' } as never;
    await expect(loadModel(broken)).rejects.toThrow("Can't resolve $ref");
  });

  it('sets server variables to their defaults', () => {
    expect(serverUrl({ url: 'https://{a}.{b}/x/', variables: { a: { default: 'one' }, b: { default: 'two' } } })).toBe(
      'https://one.two/x',
    );
    expect(serverUrl(undefined)).toBe('');
  });
});

describe('the spec model on the bundled spec', () => {
  it('has the two token operations at the auth root, outside /v1, and every other under /v1 with a token', async () => {
    const m = await loadModel();
    expect(m.tokenOperations.map((o) => `${o.method.toUpperCase()} ${o.path}`)).toEqual([
      'POST /auth/token',
      'POST /auth/revoke',
    ]);
    expect(m.tokenOperations.every((o) => !o.requiresToken)).toBe(true);
    const rest = m.operations.filter((o) => !o.outsideV1);
    expect(rest).toHaveLength(m.operations.length - 2);
    expect(rest.every((o) => o.requiresToken && o.baseUrl.endsWith('/v1'))).toBe(true);
    expect(m.authUrl).not.toMatch(/\/v1$/);
    expect(`${m.issueTokenOperation?.method} ${m.issueTokenOperation?.path}`).toBe('post /auth/token');
    expect(`${m.revokeTokenOperation?.method} ${m.revokeTokenOperation?.path}`).toBe('post /auth/revoke');
  });

  it('reads the YAML bundle to the same model', async () => {
    const [json, yaml] = await Promise.all([loadModel(), loadModel(specPath().replace(/json$/, 'yaml'))]);
    expect(yaml.operations.map((o) => o.operationId)).toEqual(json.operations.map((o) => o.operationId));
    expect(yaml.dereferenced).toEqual(json.dereferenced);
  });

  it('reads the message texts of the API documentation', async () => {
    const m = await loadModel();
    expect(m.messages.BadRequest).toBe('There was a problem processing your request.');
    expect(m.messages.NotFound).toBe('We could not locate the requested resources.');
    expect(m.successMessage).toBe('Success');
  });

  it('reads the behaviour statements, each with the spec file and line it is written on', async () => {
    const m = await loadModel();
    const lineOf = (source: string) => {
      const [, file, line] = source.match(/^spec\/(.+):(\d+)$/)!;
      return readFileSync(join(import.meta.dirname, '..', file!), 'utf8').split('\n')[Number(line) - 1];
    };
    const alerts = m.operation('listAlerts').list!;
    expect(alerts.order).toEqual([expect.objectContaining({ kind: 'order', field: 'created_at', direction: 'desc' })]);
    const order = (alerts.order as { source: string }[])[0]!;
    expect(lineOf(order.source)).toContain('newest first');
    expect(alerts.paging).toMatchObject({ kind: 'paging', default: 500, maximum: 500, overMaximum: 'clamp' });
    expect(lineOf(alerts.paging!.source)).toContain('overMaximum: clamp');
    // Every list states its order, every write its effect (or says the documentation is silent).
    for (const o of m.operations.filter((x) => /^(list|search)[A-Z]/.test(x.operationId)))
      expect(o.list?.order, o.operationId).toBeDefined();
    for (const o of m.operations.filter(
      (x) => x.method !== 'get' && !/^(search|validate|query)[A-Z]/.test(x.operationId),
    ))
      expect(o.effects?.length, o.operationId).toBeGreaterThan(0);
    const created = m.operation('createSiteNote');
    expect(created.effects).toEqual([
      expect.objectContaining({ kind: 'created', read: 'getSiteNote', list: 'listSiteNotes' }),
    ]);
    expect(created.links.map((l) => l.operationId)).toEqual([
      'getSiteNote',
      'updateSiteNote',
      'deleteSiteNote',
      'listSiteNotes',
    ]);
    expect(created.links[0]!.parameters).toEqual({
      site_id: '$request.path.site_id',
      note_id: '$response.body#/data/id',
    });
    // States (x-state): a clone starts cloning with its source's id, settles live.
    const clone = m.operation('cloneSite').state!;
    expect(clone).toMatchObject({
      kind: 'state',
      read: 'getSite',
      after: { state: 'cloning', clonedFromId: '$request.path.site_id' },
      settles: { state: 'live', clonedFromId: '$request.path.site_id' },
    });
    expect(lineOf(clone.source)).toContain('x-state:');
    expect(m.operation('updateSite').state).toMatchObject({ kind: 'state', silent: true });
    const requested = m.statementAt('/components/schemas/OndemandBackup/properties/requested/x-unit')!;
    expect(requested).toMatchObject({
      kind: 'unit',
      unit: 'epoch-seconds',
      schema: 'OndemandBackup',
      field: 'requested',
    });
    expect(lineOf(requested.source)).toContain('x-unit: epoch-seconds');
    expect(m.unitOfFormat('date-time')).toMatchObject({
      unit: 'utc-milliseconds',
      source: expect.stringMatching(/^spec\/openapi\.yaml:\d+$/),
    });
  });

  it('cites a statement by its JSON pointer when the bundle comes without its sources', async () => {
    const doc = JSON.parse(readFileSync(specPath(), 'utf8'));
    const m = await loadModel(doc);
    expect(m.operation('listSites').list!.order).toEqual([
      expect.objectContaining({ field: 'favorite', source: 'openapi.json#/paths/~1sites/get/x-list/order/0' }),
    ]);
  });
});

describe('field rules (CONVENTIONS.md, "Field rules")', () => {
  it('reads each rule of a request field, cited where it is written, and each listing a rule names exists', async () => {
    const m = await loadModel(specPath());
    const rules = m.operations.flatMap((o) => o.rules);
    const of = (id: string, field: string) => rules.filter((r) => r.operationId === id && r.field === field);
    expect(of('createSite', 'name').map((r) => r.rule)).toEqual(['pattern', 'minLength']);
    expect(of('createSite', 'name')[0]!.source).toMatch(/^spec\/components\/schemas\/SiteCreateInput\.yaml:\d+$/);
    expect(of('updateSiteNote', 'subject')[0]).toMatchObject({
      rule: 'free-text',
      source: expect.stringMatching(/NoteInput\.yaml:\d+$/),
    });
    expect(of('batchCreateCollaborators', 'siteIds')[0]).toMatchObject({ rule: 'special', value: [-1] });
    for (const r of rules.filter((x) => x.rule === 'values-from'))
      expect(m.operation(r.listing).method, `${r.operationId} ${r.field}`).toBe('get');
  });
});

describe('dereferencing without Redocly (model/dereference.js)', () => {
  /** Redocly's bundler with dereference, as loadModel used it for every document before. */
  const redocly = (document: object) => redoclyDereference(document, '/in-memory/openapi.json');
  /** The object graph's shape: each object in walk order is new, or the same as the n-th one seen. */
  const sharing = (root: unknown) => {
    const seen = new Map<object, number>();
    const out: number[] = [];
    const walk = (node: unknown) => {
      if (typeof node !== 'object' || node === null) return;
      const at = seen.get(node);
      out.push(at ?? -1);
      if (at !== undefined) return;
      seen.set(node, seen.size);
      for (const value of Object.values(node)) walk(value);
    };
    walk(root);
    return out;
  };

  it("builds on the spec what Redocly's bundler builds: values, key order and shared objects", async () => {
    const document = JSON.parse(readFileSync(specPath(), 'utf8'));
    const before = JSON.stringify(document);
    const ours = dereferenceLocal(document);
    expect(ours, 'the spec takes the fast path').toBeDefined();
    const theirs = await redocly(document);
    expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));
    expect(sharing(ours)).toEqual(sharing(theirs));
    expect(JSON.stringify(document), 'the document itself is left as it was').toBe(before);
  });

  it('resolves a $ref to a $ref, and lets a sibling of $ref win, as Redocly does', async () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {},
      components: {
        schemas: {
          A: { $ref: '#/components/schemas/B', description: 'from A' },
          B: { $ref: '#/components/schemas/C' },
          C: { type: 'object', description: 'from C', properties: { n: { type: 'integer' } } },
        },
      },
    };
    const ours = dereferenceLocal(document);
    expect(ours.components.schemas.A).toEqual({
      description: 'from A',
      type: 'object',
      properties: { n: { type: 'integer' } },
    });
    expect(JSON.stringify(ours)).toBe(JSON.stringify(await redocly(document)));
    expect(sharing(ours)).toEqual(sharing(await redocly(document)));
  });

  it('leaves to Redocly a $ref that is not local, names nothing, loops, or sits in a literal', () => {
    const doc = (schema: object, extra: object = {}) => ({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {},
      components: { schemas: { A: schema, B: { type: 'string' }, ...extra } },
    });
    expect(dereferenceLocal(doc({ $ref: 'other.yaml#/B' }))).toBeUndefined();
    expect(dereferenceLocal(doc({ $ref: '#/components/schemas/Nothing' }))).toBeUndefined();
    expect(
      dereferenceLocal(doc({ $ref: '#/components/schemas/C' }, { C: { $ref: '#/components/schemas/A' } })),
    ).toBeUndefined();
    for (const literal of ['example', 'default', 'const', 'x-note'])
      expect(
        dereferenceLocal(doc({ type: 'object', [literal]: { $ref: '#/components/schemas/B' } })),
        literal,
      ).toBeUndefined();
    expect(dereferenceLocal(doc({ enum: [{ $ref: '#/components/schemas/B' }] }))).toBeUndefined();
    // A recursive schema, through plain objects: a tree whose children are trees.
    const tree = {
      type: 'object',
      properties: { children: { type: 'array', items: { $ref: '#/components/schemas/A' } } },
    };
    expect(dereferenceLocal(doc(tree))).toBeUndefined();
    // Without a $ref in them, literals are kept as they are.
    expect(dereferenceLocal(doc({ type: 'object', example: { ref: '#/x' } }))?.components.schemas.A).toEqual({
      type: 'object',
      example: { ref: '#/x' },
    });
  });

  it('gives the same model either way: loadModel of the spec, and of a document Redocly must dereference', async () => {
    const document = JSON.parse(readFileSync(specPath(), 'utf8'));
    const fast = await loadModel(document);
    expect(JSON.stringify(fast.dereferenced)).toBe(JSON.stringify(await redocly(document)));
    // An extension holding a $ref sends the document to Redocly, which resolves it there.
    const slow = await loadModel({ ...document, 'x-probe': { $ref: '#/info' } });
    expect(slow.dereferenced['x-probe']).toEqual(document.info);
    expect(slow.operations.length).toBe(fast.operations.length);
  });
});
