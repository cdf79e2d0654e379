import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient, ResponseValidationError, type SchemaLike } from '../src/index';
import { json, ok, startServer, type TestServer } from './helpers/server';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.close());

/** A stand-in with zod's safeParse shape: `data.name` must be a string. */
const fakeSiteSchema: SchemaLike = {
  safeParse: (value) => {
    const name = (value as { data?: { name?: unknown } }).data?.name;
    return typeof name === 'string'
      ? { success: true }
      : { success: false, error: { issues: [{ path: ['data', 'name'], message: 'Expected string' }] } };
  },
};

describe('validate: true', () => {
  it('checks responses against the schema of their operation, through an injected schema map', async () => {
    const client = createClient({
      baseUrl: server.baseUrl,
      accessToken: 't',
      validate: true,
      schemas: { getSite: { response: fakeSiteSchema } },
    });
    server.api((_req, res) => json(res, 200, ok({ id: 1, name: 'shop' })));
    expect(await client.sites.get(1)).toEqual({ id: 1, name: 'shop' });

    server.api((_req, res) => json(res, 200, ok({ id: 1, name: 5 })));
    const error = (await client.sites.get(1).catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toBe('getSite: response does not match the spec at data.name: Expected string');
    expect(error.issues).toEqual([{ path: 'data.name', message: 'Expected string' }]);
    expect(error.operationId).toBe('getSite');
    // Per call it can be switched off.
    expect(await client.sites.get(1, { validate: false })).toEqual({ id: 1, name: 5 });
  });

  it('uses @hosting-api/schemas by default and names the failing path', async () => {
    const client = createClient({ baseUrl: server.baseUrl, accessToken: 't' });
    const note = {
      id: 42,
      author: 'Ada Lovelace',
      editor: 'Ada Lovelace',
      subject: 'Launch',
      body: 'text',
      created: '2026-11-02T09:14:03.512Z',
      updated: '2026-11-02T09:14:03.512Z',
    };
    server.api((_req, res) => json(res, 200, ok(note)));
    expect(await client.sites.notes.get(123456, 42, { validate: true })).toEqual(note);

    server.api((_req, res) => json(res, 200, ok({ ...note, id: 'forty-two' })));
    const error = (await client.sites.notes
      .get(123456, 42, { validate: true })
      .catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toMatch(/^getSiteNote: response does not match the spec at data\.id: /);
  });
});
