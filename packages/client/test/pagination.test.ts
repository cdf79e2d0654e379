import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient, paginate } from '../src/index';
import { json, ok, startServer, type TestServer } from './helpers/server';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.close());

/** 7 notes served 3 per page: pages 1, 2, 3. */
function serveNotes() {
  const all = Array.from({ length: 7 }, (_, i) => ({ id: i + 1, subject: `note ${i + 1}` }));
  server.api((req, res) => {
    const page = Number(req.query.get('page') ?? 1);
    const perPage = Number(req.query.get('per_page') ?? 3);
    const lastPage = Math.ceil(all.length / perPage);
    json(
      res,
      200,
      ok(all.slice((page - 1) * perPage, page * perPage), {
        page: {
          currentPage: page,
          nextPage: page < lastPage ? page + 1 : null,
          lastPage,
          perPage,
          totalItems: all.length,
        },
      }),
    );
  });
}

describe('pagination', () => {
  it('a paginated method returns { data, page }', async () => {
    serveNotes();
    const client = createClient({ baseUrl: server.baseUrl, accessToken: 't' });
    const first = await client.sites.notes.list(123456, { page: 1, per_page: 3 });
    expect(first.data.map((n) => n.id)).toEqual([1, 2, 3]);
    expect(first.page).toEqual({ currentPage: 1, nextPage: 2, lastPage: 3, perPage: 3, totalItems: 7 });
  });

  it('client.paginate follows page.nextPage across 3 pages until null', async () => {
    serveNotes();
    const client = createClient({ baseUrl: server.baseUrl, accessToken: 't' });
    const ids: number[] = [];
    for await (const note of client.paginate(client.sites.notes.list, 123456, { per_page: 3 })) ids.push(note.id);
    expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(server.apiRequests().map((r) => `${r.path}?${r.query}`)).toEqual([
      '/v1/sites/123456/notes?per_page=3&page=1',
      '/v1/sites/123456/notes?per_page=3&page=2',
      '/v1/sites/123456/notes?per_page=3&page=3',
    ]);
  });

  it('stops at maxItems without fetching further pages', async () => {
    serveNotes();
    const client = createClient({ baseUrl: server.baseUrl, accessToken: 't' });
    const ids: number[] = [];
    for await (const note of paginate(client.sites.notes.list, 123456, { per_page: 3 }, { maxItems: 4 }))
      ids.push(note.id);
    expect(ids).toEqual([1, 2, 3, 4]);
    expect(server.apiRequests()).toHaveLength(2);
  });

  it('asks GET /sites for pagination (paginate=true), which pages only on request', async () => {
    server.api((req, res) => {
      if (req.query.get('paginate') !== 'true') return json(res, 200, ok([{ id: 1 }, { id: 2 }])); // full list, no page block
      const page = Number(req.query.get('page'));
      json(
        res,
        200,
        ok([{ id: page }], {
          page: { currentPage: page, nextPage: page < 2 ? page + 1 : null, lastPage: 2, perPage: 1, totalItems: 2 },
        }),
      );
    });
    const client = createClient({ baseUrl: server.baseUrl, accessToken: 't' });
    const ids: number[] = [];
    for await (const site of client.paginate(client.sites.list, { per_page: 1 })) ids.push(site.id);
    expect(ids).toEqual([1, 2]);
    expect(server.apiRequests().every((r) => r.query.get('paginate') === 'true')).toBe(true);
  });

  it('ends after one page when the answer has no page block, and refuses unpaginated methods', async () => {
    server.api((_req, res) => json(res, 200, ok([{ id: 1 }])));
    const client = createClient({ baseUrl: server.baseUrl, accessToken: 't' });
    const items = [];
    for await (const alert of client.paginate(client.alerts.list, { category: 'failure' })) items.push(alert);
    expect(items).toHaveLength(1);
    expect(server.apiRequests()[0]?.query.get('category')).toBe('failure');
    // @ts-expect-error sites.get is not paginated
    await expect(client.paginate(client.sites.get, 1).next()).rejects.toThrow(/not a paginated operation/);
  });
});
