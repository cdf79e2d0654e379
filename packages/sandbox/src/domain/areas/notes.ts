// Notes of a site: list (paged, newest first), create, get, update (editor updated), delete.
import { type Ctx, defineArea } from '../area.js';
import { notFound } from '../errors.js';
import { DEFAULT_PER_PAGE, paginate } from '../pagination.js';
import { capped } from '../runtime.js';
import { type NoteRecord, nextId } from '../state.js';
import type { OperationId, Schema } from '../types.js';

export const noteView = (note: NoteRecord): Schema<'Note'> => ({
  id: note.id,
  author: note.author,
  editor: note.editor,
  subject: note.subject,
  body: note.body,
  created: note.created,
  updated: note.updated,
});

/**
 * The subject as the log quotes it: cut first, so a long subject is not copied whole into a message
 * only for the log to cut it (the log cuts every text too: runtime.ts).
 */
const quoted = (note: NoteRecord) => capped(note.subject);

function findNote(
  ctx: Pick<Ctx<OperationId>, 'site' | 'state'> & { params: { site_id: number; note_id: number } },
): NoteRecord {
  const site = ctx.site(ctx.params.site_id);
  const note = ctx.state.notes.find((n) => n.id === ctx.params.note_id && n.siteId === site.id);
  if (!note) throw notFound();
  return note;
}

export default defineArea({
  listSiteNotes: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    const notes = ctx.state.notes
      .filter((n) => n.siteId === site.id)
      .sort((a, b) => b.created.localeCompare(a.created) || b.id - a.id);
    const { items, page } = paginate(notes, ctx.query.page ?? 1, ctx.query.per_page ?? DEFAULT_PER_PAGE);
    return { data: items.map(noteView), page };
  },

  createSiteNote: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    const now = ctx.rt.clock.nowIso();
    const author = ctx.state.account.name;
    const note: NoteRecord = {
      id: nextId(ctx.state, 'note'),
      siteId: site.id,
      author,
      editor: author,
      subject: ctx.body.subject,
      body: ctx.body.body,
      created: now,
      updated: now,
    };
    ctx.state.notes.push(note);
    ctx.activity('note.created', 'Note created', `Note "${quoted(note)}" was added to ${site.name}.`, site.id);
    return { data: noteView(note) };
  },

  getSiteNote: (ctx) => ({ data: noteView(findNote(ctx)) }),

  updateSiteNote: (ctx) => {
    const note = findNote(ctx);
    note.subject = ctx.body.subject;
    note.body = ctx.body.body;
    note.editor = ctx.state.account.name;
    note.updated = ctx.rt.clock.nowIso();
    ctx.activity('note.updated', 'Note updated', `Note "${quoted(note)}" was updated.`, note.siteId);
    return { data: noteView(note) };
  },

  deleteSiteNote: (ctx) => {
    const note = findNote(ctx);
    ctx.state.notes = ctx.state.notes.filter((n) => n !== note);
    ctx.activity('note.deleted', 'Note deleted', `Note "${quoted(note)}" was deleted.`, note.siteId);
    return { data: null };
  },
});
