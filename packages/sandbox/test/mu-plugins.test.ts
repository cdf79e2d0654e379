// Must-use plugins: create (public URL of one .php file; slug = last segment), list (paged),
// get, refresh, delete; the booleans are existing_sites/future_sites on create and refresh and
// existingSites/futureSites on list and get; the work on the sites is queued.
import { describe, expect, it } from 'vitest';
import { DURATIONS } from '../src/domain/runtime.js';
import { errorEnvelope, status, useSandbox } from './helpers.js';
import { specProblems } from './spec-check.js';

const h = useSandbox();
const URL_PHP = 'https://downloads.example.com/mu/disable-xmlrpc.php';

describe('must-use plugins', () => {
  it('creates one, answering snake-case booleans; list and get use camel case', async () => {
    const r = await h.call('POST', '/mu-plugins', { path: URL_PHP, existing_sites: true, future_sites: false });
    expect(r.status).toBe(200);
    expect(specProblems('createMuPlugin', r.status, r.body)).toEqual([]);
    const created = r.body.data;
    expect(created).toEqual({
      id: expect.any(Number),
      created: expect.any(String),
      existing_sites: true,
      future_sites: false,
      path: URL_PHP,
      slug: 'disable-xmlrpc.php',
    });
    const got = await h.api.muPlugins.get(created.id);
    expect(got).toEqual({
      id: created.id,
      created: created.created,
      existingSites: true,
      futureSites: false,
      path: URL_PHP,
      slug: 'disable-xmlrpc.php',
    });
    const list = await h.call('GET', '/mu-plugins');
    expect(specProblems('listMuPlugins', list.status, list.body)).toEqual([]);
    expect(list.body.data.map((m: any) => m.id)).toEqual([created.id, 317]);
    expect(list.body.page).toEqual({ currentPage: 1, nextPage: null, lastPage: 1, perPage: 20, totalItems: 2 });

    // Installation on the existing sites completes later, with an alert and a webhook.
    expect(h.sb.runtime.webhooks).toEqual([]);
    h.sb.advance(DURATIONS.muPluginChange);
    const hook = h.sb.runtime.webhooks.at(-1)!;
    expect(hook.event).toBe('mu_plugin_create_completed');
    expect((hook.payload as any).site_ids).toEqual(h.sb.runtime.state.sites.map((s) => s.id));
    expect(h.sb.runtime.state.alerts.at(-1)).toMatchObject({
      type: 'account.mu_plugin_installed',
      category: 'completed',
      site: null,
    });
  });

  it('pages the list', async () => {
    for (let i = 0; i < 4; i++) {
      h.sb.advance(1000);
      await h.api.muPlugins.create({
        path: `https://downloads.example.com/mu/p${i}.php`,
        existing_sites: false,
        future_sites: true,
      });
    }
    const page = await h.api.muPlugins.list({ per_page: 2, page: 2 });
    expect(page.data.map((m) => m.slug)).toEqual(['p1.php', 'p0.php']);
    expect(page.page).toEqual({ currentPage: 2, nextPage: 3, lastPage: 3, perPage: 2, totalItems: 5 });
    const all: string[] = [];
    for await (const m of h.api.paginate(h.api.muPlugins.list, { per_page: 2 })) all.push(m.slug);
    expect(all).toEqual(['p3.php', 'p2.php', 'p1.php', 'p0.php', 'site-defaults.php']);
  });

  it('refuses paths that are not the public URL of one .php file, and a second plugin of the same name', async () => {
    for (const path of [
      'https://downloads.example.com/mu/plugin.zip',
      'https://downloads.example.com/mu/',
      'ftp://downloads.example.com/mu/x.php',
      'http://localhost/x.php',
      'https://127.0.0.1/x.php',
      'https://192.168.1.10/x.php',
      'https://intranet/x.php',
      'not a url.php',
    ]) {
      const r = await h.call('POST', '/mu-plugins', { path, existing_sites: true, future_sites: true });
      expect(r.status, path).toBe(400);
      expect(errorEnvelope(r).errors?.[0]?.startsWith('body.path:'), JSON.stringify(r.body)).toBe(true);
      expect(specProblems('createMuPlugin', r.status, r.body)).toEqual([]);
    }
    const missing = await h.call('POST', '/mu-plugins', { path: URL_PHP, existing_sites: true });
    expect(missing.status).toBe(400);
    expect(errorEnvelope(missing).errors?.[0]).toMatch(/^body\.future_sites:/);
    const dup = await h.call('POST', '/mu-plugins', {
      path: 'https://other.example.org/site-defaults.php',
      existing_sites: true,
      future_sites: true,
    });
    expect(dup.status).toBe(400);
    expect(h.sb.runtime.state.muPlugins).toHaveLength(1);
  });

  it('refreshes later and deletes from all sites', async () => {
    const r = await h.call('PUT', '/mu-plugins/317');
    expect(r.status).toBe(200);
    expect(specProblems('refreshMuPlugin', r.status, r.body)).toEqual([]);
    expect(r.body.data).toMatchObject({ id: 317, existing_sites: true, future_sites: true, slug: 'site-defaults.php' });
    h.sb.advance(DURATIONS.muPluginChange);
    expect(h.sb.runtime.webhooks.map((w) => w.event)).toEqual(['mu_plugin_refresh_completed']);

    // A site created after the plugin is covered by future_sites.
    const site = await h.api.sites.create({ name: 'later-site' });
    const del = await h.call('DELETE', '/mu-plugins/317');
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ message: 'Success', data: null, errors: null });
    expect(await status(h.api.muPlugins.get(317))).toBe(404);
    expect((await h.api.muPlugins.list()).data).toEqual([]);
    h.sb.advance(DURATIONS.muPluginChange);
    const hook = h.sb.runtime.webhooks.at(-1)!;
    expect(hook.event).toBe('mu_plugin_delete_completed');
    expect((hook.payload as any).site_ids).toContain(site.id);
    expect(h.sb.runtime.state.alerts.at(-1)).toMatchObject({ type: 'account.mu_plugin_removed' });
    const log = await h.api.account.activity.list({
      filters: [{ field: 'action', operator: 'contains', value: 'mu_plugin.' }],
    });
    expect(log.data.map((e) => e.name)).toEqual(['mu_plugin.deleted', 'mu_plugin.refreshed']);
  });

  it('a deletion wins over a queued creation; unknown ids are 404', async () => {
    const m = await h.api.muPlugins.create({ path: URL_PHP, existing_sites: true, future_sites: true });
    await h.api.muPlugins.delete(m.id);
    h.sb.advance(DURATIONS.muPluginChange);
    expect(h.sb.runtime.webhooks.map((w) => w.event)).toEqual(['mu_plugin_delete_completed']);
    expect(await status(h.api.muPlugins.get(999))).toBe(404);
    expect(await status(h.api.muPlugins.refresh(999))).toBe(404);
    expect(await status(h.api.muPlugins.delete(999))).toBe(404);
    expect((await h.call('GET', '/mu-plugins/abc')).status).toBe(404);
  });
});
