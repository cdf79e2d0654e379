// The client generator on small fixture specs: names come from x-client-method, the runtime table
// says how to send each operation, every method gets JSDoc from the spec with a link to the
// portal's section, and a spec that would give an ambiguous client is refused with a message that
// names the operation (problems the spec's lint reports, such as a malformed or duplicate
// x-client-method, are tested in spec/test/lint.test.ts).
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM module without types
import { buildModel, renderClient, renderDoc, tagSlug } from '../../../generators/client/generate.mjs';

type Op = Record<string, unknown>;
type Model = { operationId: string; [key: string]: unknown }[];
const build = buildModel as (spec: unknown) => Promise<Model>;
const render = renderClient as (ops: Model) => string;
const cfg = {
  docsUrl: 'https://docs.example/',
  reserved: ['paginate'],
  idempotentVerbs: ['get', 'delete'],
  spec: 'spec.json',
  typesModule: 'types',
};

const spec = (paths: Record<string, Record<string, unknown>>) => ({
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  security: [{ bearerAuth: [] }],
  paths,
});
const op = (id: string, method: string, extra: Op = {}): Op => ({
  operationId: id,
  'x-client-method': method,
  tags: ['T'],
  responses: { 200: { description: 'ok' } },
  ...extra,
});
const siteParam = { name: 'site_id', in: 'path', required: true, schema: { type: 'integer' } };
const jsonBody = (schema: Op) => ({ content: { 'application/json': { schema } } });
const envelope = (extra: Op = {}) => ({
  description: 'ok',
  content: { 'application/json': { schema: { type: 'object', properties: { data: {}, ...extra } } } },
});

const fixture = spec({
  '/sites/{site_id}/logs/php': {
    parameters: [siteParam],
    get: op('listPhp', 'sites.logs.php', {
      requestBody: jsonBody({ type: 'object', properties: { status: { type: 'string' } } }),
      responses: { 200: envelope() },
    }),
  },
  '/sites/{site_id}/toggle': { parameters: [siteParam], put: op('toggleThing', 'sites.thing.toggle') },
  '/sites/{site_id}/notes': {
    parameters: [{ $ref: '#/components/parameters/Site' }],
    get: op('listNotes', 'sites.notes.list', {
      parameters: [{ name: 'page', in: 'query', schema: { type: 'integer' } }],
      responses: { 200: envelope({ page: {} }) },
    }),
  },
  '/sites': {
    get: op('listSites', 'sites.list', {
      parameters: [{ name: 'paginate', in: 'query', schema: { type: 'boolean' } }],
    }),
    post: op('createSite', 'sites.create', {
      summary: 'Create a site',
      description: 'Starts the creation.\nThe site is ready when the operation */ completes.',
      tags: ['Logs, reports, metrics'],
      requestBody: {
        required: true,
        ...jsonBody({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }),
      },
      responses: { 202: envelope() },
    }),
  },
  '/collaborators/{email}': {
    get: op('getCollaborator', 'collaborators.get', {
      parameters: [{ name: 'email', in: 'path', required: true, schema: { type: 'string' } }],
    }),
  },
  '/auth/token': {
    servers: [{ url: 'https://auth' }],
    post: op('createToken', 'auth.createToken', {
      security: [],
      requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } } },
    }),
  },
});
(fixture as Record<string, unknown>).components = { parameters: { Site: siteParam } };

const model = await build(fixture);

describe('client generator', () => {
  const byId = Object.fromEntries(model.map((o) => [o.operationId, o]));
  const source = render(model);
  const metaOf = (id: string) => JSON.parse(source.match(new RegExp(`^  ${id}: (\\{.*\\}),$`, 'm'))![1]!);

  it('reads what the runtime needs into the `meta` table', () => {
    expect(byId.listPhp).toMatchObject({ segments: ['sites', 'logs', 'php'], idempotent: true });
    expect(byId.toggleThing).toMatchObject({ idempotent: false });
    expect(byId.createToken).toMatchObject({ idempotent: false });
    expect(metaOf('listPhp')).toEqual({
      name: 'sites.logs.php',
      method: 'GET',
      path: '/sites/{site_id}/logs/php',
      integers: ['site_id'],
      body: 'json',
      bodyOnGet: true,
      base: 'api',
      auth: true,
      idempotent: true,
      paginated: false,
    });
    expect(metaOf('listNotes')).toMatchObject({
      path: '/sites/{site_id}/notes',
      integers: ['site_id'],
      query: ['page'],
      paginated: true,
    });
    expect(metaOf('listSites')).toMatchObject({ query: ['paginate'], paginateParam: 'paginate' });
    expect(metaOf('getCollaborator')).toMatchObject({ path: '/collaborators/{email}' });
    expect(metaOf('getCollaborator').integers).toBeUndefined();
    expect(metaOf('createToken')).toMatchObject({ body: 'form', bodyRequired: true, base: 'auth', auth: false });
    expect(metaOf('toggleThing')).toMatchObject({ method: 'PUT', idempotent: false });
    // An operation whose success answers no JSON envelope (a download, a revocation) is marked: the
    // runtime refuses a non-envelope answer from every other one.
    expect(metaOf('toggleThing')).toMatchObject({ noEnvelope: true });
    expect(metaOf('listNotes').noEnvelope).toBeUndefined();
  });

  it("types each method over openapi-typescript's operations and nests the groups", () => {
    expect(source).toContain(`import type { operations } from '@hosting-api/openapi/types';`);
    expect(source).toContain('php: Operation<[siteId: number, input?: ListPhpInput], ListPhpResult, ListPhpEnvelope>;');
    expect(source).toMatch(/sites: \{\n\s+logs: \{/);
    expect(source).toContain('export type ListNotesResult = Paged<ListNotesEnvelope>;');
    expect(source).toContain(
      "export type CreateSiteEnvelope = operations[\"createSite\"]['responses'][202]['content']['application/json'];",
    );
    expect(source).toContain('create: Operation<[input: CreateSiteInput]'); // a required body with required fields
    expect(source).toContain('export type ToggleThingResult = void;');
    expect(source).toContain('export type OperationId = "listPhp" | "toggleThing"');
  });

  it('gives every method JSDoc from the spec: summary, description, method and path, link to the portal section', () => {
    const doc = (renderDoc as (o: unknown, c: unknown) => string)(byId.createSite, cfg);
    expect(doc).toBe(
      [
        '/**',
        ' * Create a site',
        ' *',
        ' * Starts the creation.',
        ' * The site is ready when the operation *\\/ completes.',
        ' *',
        ' * `POST /sites`',
        ' * @see {@link https://docs.example/#/logs-reports-metrics/createsite | createSite in the API reference}',
        ' */',
      ].join('\n'),
    );
    expect(source).toMatch(
      / \* `GET \/sites\/\{site_id\}\/notes` \(paginated\)\n {7}\* @see \{@link \S+#\/t\/listnotes /,
    );
    expect((tagSlug as (t: string) => string)('Backups and restores')).toBe('backups-and-restores');
    expect((tagSlug as (t: string) => string)('Logs, reports, metrics')).toBe('logs-reports-metrics');
  });

  it('refuses a reserved x-client-method, a name that is both method and group, and an ambiguous input', async () => {
    await expect(
      build(spec({ '/a': { get: op('getA', 'things.list') }, '/b': { get: op('getB', 'things.list.all') } })),
    ).rejects.toThrow(/`things.list` is both a method and a group/);
    await expect(build(spec({ '/a': { get: op('getA', 'paginate.x') } }))).rejects.toThrow(
      /GET \/a: x-client-method may not start with `paginate` \(reserved\)/,
    );
    const q = { name: 'name', in: 'query', schema: { type: 'string' } };
    const body = jsonBody({ type: 'object', properties: { name: { type: 'string' } } });
    await expect(
      build(spec({ '/a': { post: op('createA', 'a.create', { parameters: [q], requestBody: body }) } })),
    ).rejects.toThrow(/POST \/a: query parameter and body property share a name/);
    const text = { content: { 'text/plain': { schema: { type: 'string' } } } };
    await expect(
      build(spec({ '/a': { post: op('createA', 'a.create', { parameters: [q], requestBody: text }) } })),
    ).rejects.toThrow(/POST \/a: a non-object body cannot be merged with query parameters/);
  });
});
