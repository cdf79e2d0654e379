// The grouped client's generator: names come from x-client-method, and a spec that would give an
// ambiguous client is refused with a message that names the operation.
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM module without types
import { buildModel, renderClient } from '../../../generators/client/model.mjs';

type Op = Record<string, unknown>;
const spec = (paths: Record<string, Record<string, unknown>>) => ({ openapi: '3.1.0', info: { title: 't', version: '1' }, security: [{ bearerAuth: [] }], paths });
const op = (id: string, method: string, extra: Op = {}): Op => ({ operationId: id, 'x-client-method': method, tags: ['T'], responses: { 200: { description: 'ok' } }, ...extra });
const siteParam = { name: 'site_id', in: 'path', required: true, schema: { type: 'integer' } };

describe('client generator', () => {
  it('groups methods by x-client-method and reads what the runtime needs', () => {
    const model = buildModel(
      spec({
        '/sites/{site_id}/logs/php': { parameters: [siteParam], get: op('listPhp', 'sites.logs.php', { requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { status: { type: 'string' } } } } } } }) },
        '/sites/{site_id}/toggle': { parameters: [siteParam], put: op('toggleThing', 'sites.thing.toggle') },
        '/auth/token': { servers: [{ url: 'https://auth' }], post: op('createToken', 'auth.createToken', { security: [] }) },
      }),
    );
    const byId = Object.fromEntries(model.operations.map((o: { id: string }) => [o.id, o]));
    expect(byId.listPhp).toMatchObject({ segments: ['sites', 'logs', 'php'], bodyOnGet: true, idempotent: true, auth: true, base: 'api' });
    expect(byId.toggleThing).toMatchObject({ idempotent: false });
    expect(byId.createToken).toMatchObject({ base: 'auth', auth: false, idempotent: false });
    const source = renderClient(model);
    expect(source).toContain('php: operation<[siteId: operations["listPhp"]');
    expect(source).toMatch(/sites: \{\n\s+logs: \{/);
  });

  it('refuses duplicate x-client-method names, a missing one, and a name that is both method and group', () => {
    expect(() => buildModel(spec({ '/a': { get: op('getA', 'things.get') }, '/b': { get: op('getB', 'things.get') } }))).toThrow(
      /GET \/b: x-client-method `things.get` is already used by GET \/a/,
    );
    expect(() => buildModel(spec({ '/a': { get: op('getA', 'get') } }))).toThrow(/dotted name/);
    expect(() => buildModel(spec({ '/a': { get: op('getA', 'things.list') }, '/b': { get: op('getB', 'things.list.all') } }))).toThrow(
      /`things.list` is both a method and a group/,
    );
    expect(() => buildModel(spec({ '/a': { get: op('getA', 'paginate.x') } }))).toThrow(/reserved/);
  });
});
