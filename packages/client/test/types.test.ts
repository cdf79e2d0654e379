// Type tests: what a TypeScript user relies on. They are checked by the client's `typecheck` script
// (`tsc --noEmit -p tsconfig.json`, which covers every test file): each `@ts-expect-error` line
// must be a compile error, and each `expectTypeOf` must hold. The calls are never made: `calls`
// only builds the promises' types. The one runtime test keeps vitest from reporting an empty file.
import { describe, expectTypeOf, it } from 'vitest';
import { type components, createClient, type ListSiteNotesResult, type Paged } from '../src/index';

type Schemas = components['schemas'];
const client = createClient({ baseUrl: 'http://127.0.0.1:1/v1', accessToken: 't' });

// biome-ignore lint/suspicious/noExportsInTest: exported only so that tsc does not report it unused
export async function calls(siteId: number): Promise<void> {
  // Wrong field names.
  // @ts-expect-error `subjet` is not a field of a note
  await client.sites.notes.create(siteId, { subjet: 'Launch', body: 'x' });
  // @ts-expect-error `per_pages` is not a query parameter of alerts.list
  await client.alerts.list({ per_pages: 10 });
  // @ts-expect-error `nmae` is not a field of a site update
  await client.sites.update(siteId, { nmae: 'shop' });

  // Wrong enum values.
  // @ts-expect-error backup_type is `fs` or `db`
  await client.sites.backups.ondemand.create(siteId, { backup_type: 'everything' });
  // @ts-expect-error grant_type is `client_credentials`
  await client.auth.createToken({ grant_type: 'password', client_id: 'id', client_secret: 'secret' });

  // Missing required body fields, and a missing body.
  // @ts-expect-error a note needs a body as well as a subject
  await client.sites.notes.create(siteId, { subject: 'Launch' });
  // @ts-expect-error a note needs its input
  await client.sites.notes.create(siteId);
  // @ts-expect-error the token request needs client_id and client_secret
  await client.auth.createToken({ grant_type: 'client_credentials' });

  // Path parameters: their types, and none missing.
  // @ts-expect-error site id is a number
  await client.sites.get('123456');
  // @ts-expect-error the note id is missing
  await client.sites.notes.get(siteId);
  // @ts-expect-error collaborators are addressed by e-mail (a string)
  await client.collaborators.sites.get(42, siteId);

  // Results are the envelope's `data`, typed.
  expectTypeOf(await client.sites.get(siteId)).toEqualTypeOf<Schemas['SiteDetail']>();
  expectTypeOf(await client.account.get()).not.toHaveProperty('message');
  const note = await client.sites.notes.create(siteId, { subject: 'Launch', body: 'Freeze content first' });
  expectTypeOf(note.id).toEqualTypeOf<number>();
  // @ts-expect-error the result is `data`, not the envelope
  void note.data;

  // Paginated results carry `page`.
  const notes = await client.sites.notes.list(siteId, { page: 2 });
  expectTypeOf(notes).toEqualTypeOf<ListSiteNotesResult>();
  expectTypeOf(notes.data).toBeArray();
  expectTypeOf(notes.page.nextPage).toEqualTypeOf<number | null>();
  expectTypeOf(notes.page).toHaveProperty('currentPage');
  // An unpaginated list has no page.
  // @ts-expect-error sites.plugins.list is not paginated
  void (await client.sites.plugins.list(siteId)).page;

  // raw: true gives the whole envelope and the Response.
  const raw = await client.sites.get(siteId, { raw: true });
  expectTypeOf(raw.data).toEqualTypeOf<Schemas['SiteDetail']>();
  expectTypeOf(raw.message).toEqualTypeOf<string>();
  expectTypeOf(raw.response).toEqualTypeOf<Response>();

  // Per-call options are checked too.
  // @ts-expect-error timeout is a number of milliseconds
  await client.sites.get(siteId, { timeout: '5s' });

  // paginate() yields the items of a paginated method, and refuses other methods.
  for await (const n of client.paginate(client.sites.notes.list, siteId, { per_page: 50 }, { maxItems: 10 })) {
    expectTypeOf(n.subject).toEqualTypeOf<string>();
  }
  // @ts-expect-error sites.get is not paginated
  client.paginate(client.sites.get, siteId);
  expectTypeOf<Paged<{ data: string[]; page: { nextPage: number | null } }>>().toEqualTypeOf<
    { data: string[] } & { page: { nextPage: number | null } }
  >();
}

describe('types', () => {
  it('are checked by `pnpm --filter @hosting-api/client typecheck` (tsc over src and test)', () => {
    expectTypeOf(calls).toBeFunction();
  });
});
