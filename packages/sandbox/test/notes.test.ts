// Notes: the CRUD flow, paging, editor tracking, 404s and validation.
import { describe, expect, it } from 'vitest';
import { status, useSandbox } from './helpers.js';
import { specProblems } from './spec-check.js';

const h = useSandbox();

describe('notes', () => {
  it('creates, reads, updates and deletes a note', async () => {
    const note = await h.api.sites.notes.create(123457, { subject: 'Go-live', body: 'Friday' });
    expect(note).toMatchObject({ subject: 'Go-live', body: 'Friday', author: 'Ada Lovelace', editor: 'Ada Lovelace' });
    expect(note.created).toBe(note.updated);
    expect(await h.api.sites.notes.get(123457, note.id)).toEqual(note);

    h.sb.advance(60_000);
    const updated = await h.api.sites.notes.update(123457, note.id, { subject: 'Go-live', body: 'Monday' });
    expect(updated.body).toBe('Monday');
    expect(Date.parse(updated.updated) - Date.parse(note.updated)).toBe(60_000);
    expect(updated.created).toBe(note.created);

    expect(await h.api.sites.notes.delete(123457, note.id)).toBeNull();
    expect(await status(h.api.sites.notes.get(123457, note.id))).toBe(404);
    const log = await h.api.account.activity.list({
      filters: [{ field: 'action', operator: 'contains', value: 'note.' }],
    });
    expect(log.data.map((e) => e.name)).toEqual(['note.deleted', 'note.updated', 'note.created']);
  });

  it('pages newest first with the page block', async () => {
    for (let i = 0; i < 5; i++) {
      h.sb.advance(1000);
      await h.api.sites.notes.create(123458, { subject: `s${i}`, body: 'b' });
    }
    const r = await h.call('GET', '/sites/123458/notes?per_page=2&page=2');
    expect(specProblems('listSiteNotes', r.status, r.body)).toEqual([]);
    expect(r.body.data.map((n: any) => n.subject)).toEqual(['s2', 's1']);
    expect(r.body.page).toEqual({ currentPage: 2, nextPage: 3, lastPage: 3, perPage: 2, totalItems: 5 });
    const all: string[] = [];
    for await (const n of h.api.paginate(h.api.sites.notes.list, 123458, { per_page: 2 })) all.push(n.subject);
    expect(all).toEqual(['s4', 's3', 's2', 's1', 's0']);
  });

  it('answers 404 for a note of another site, an unknown note or site', async () => {
    expect(await status(h.api.sites.notes.get(123457, 42))).toBe(404);
    expect(await status(h.api.sites.notes.get(123456, 999))).toBe(404);
    expect(await status(h.api.sites.notes.list(999999))).toBe(404);
    expect(await status(h.api.sites.notes.update(123457, 42, { subject: 'x', body: 'y' }))).toBe(404);
    expect(await status(h.api.sites.notes.delete(123457, 42))).toBe(404);
  });

  it('names the field of a validation error', async () => {
    const missing = await h.call('POST', '/sites/123456/notes', { subject: 'only' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('There was a problem processing your request.');
    expect(missing.body.errors.join()).toMatch(/^body\.body/);
    const wrongType = await h.call('POST', '/sites/123456/notes', { subject: 5, body: 'b' });
    expect(wrongType.body.errors.join()).toMatch(/^body\.subject/);
    const noBody = await h.call('POST', '/sites/123456/notes');
    expect(noBody.status).toBe(400);
    const badQuery = await h.call('GET', '/sites/123456/notes?per_page=0');
    expect(badQuery.status).toBe(400);
    expect(badQuery.body.errors.join()).toMatch(/^query\.per_page/);
  });
});
