// Plugins: list; install (and activate), update, activate, deactivate are queued: data null at
// once, the change after DURATIONS.pluginChange with a completion alert and webhook.
import { describe, expect, it } from 'vitest';
import { DURATIONS } from '../src/domain/runtime.js';
import { errorEnvelope, status, useSandbox } from './helpers.js';
import { specProblems } from './spec-check.js';

const h = useSandbox();
const plugin = async (siteId: number, name: string) =>
  (await h.api.sites.plugins.list(siteId)).find((p) => p.name === name);
const settle = () => h.sb.advance(DURATIONS.pluginChange);

describe('plugins', () => {
  it('lists the seeded plugins', async () => {
    const r = await h.call('GET', '/sites/123456/plugins');
    expect(specProblems('listSitePlugins', r.status, r.body)).toEqual([]);
    expect(r.body.data.map((p: any) => [p.name, p.status, p.update])).toEqual([
      ['contact-form', 'active', 'none'],
      ['seo-tools', 'inactive', 'available'],
      ['hello-dolly', 'active', 'available'],
      ['object-cache', 'dropin', 'none'],
    ]);
    expect(await h.api.sites.plugins.list(123457)).toEqual([]);
    expect(await status(h.api.sites.plugins.list(999999))).toBe(404);
  });

  it('installs and activates later, from a slug and from a zip URL', async () => {
    const r = await h.call('POST', '/sites/123457/plugins', {
      plugins: [
        { path: 'hello-dolly', version: '1.7.2' },
        { path: 'https://downloads.example.com/acme-forms.zip' },
        { path: 'query-monitor' },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: 'Success', data: null, errors: null });
    expect(specProblems('installSitePlugins', r.status, r.body)).toEqual([]);
    expect(await h.api.sites.plugins.list(123457)).toEqual([]); // queued
    h.sb.advance(DURATIONS.pluginChange - 1);
    expect(await h.api.sites.plugins.list(123457)).toEqual([]);
    h.sb.advance(1);
    const list = await h.api.sites.plugins.list(123457);
    expect(list).toEqual([
      {
        name: 'hello-dolly',
        title: 'Hello Dolly',
        description: expect.any(String),
        status: 'active',
        update: 'available',
        version: '1.7.2',
        update_version: '1.7.3',
      },
      {
        name: 'acme-forms',
        title: 'Acme Forms',
        description: '',
        status: 'active',
        update: 'none',
        version: '1.0.0',
        update_version: null,
      },
      {
        name: 'query-monitor',
        title: 'Query Monitor',
        description: expect.any(String),
        status: 'active',
        update: 'none',
        version: '3.17.0',
        update_version: null,
      },
    ]);
    const alert = h.sb.runtime.state.alerts.at(-1)!;
    expect(alert).toMatchObject({
      type: 'site.plugins_installed',
      category: 'completed',
      read: false,
      site: { id: 123457 },
    });
    const hook = h.sb.runtime.webhooks.at(-1)!;
    expect(hook.event).toBe('plugin_install_completed');
    expect(hook.payload).toMatchObject({
      site: { id: 123457 },
      action: 'install',
      plugins: [
        { name: 'hello-dolly', status: 'active', version: '1.7.2' },
        { name: 'acme-forms' },
        { name: 'query-monitor' },
      ],
    });
    const log = await h.api.sites.logs.activity(123457, {
      filters: [{ field: 'action', operator: 'equals', value: 'plugin.installed' }],
    });
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({ source: 'api.v1' });
  });

  it('deactivates and activates later; status moves between active and inactive', async () => {
    expect(await h.api.sites.plugins.deactivate(123456, { plugins: [{ path: 'contact-form' }] })).toBeNull();
    expect((await plugin(123456, 'contact-form'))!.status).toBe('active');
    settle();
    expect((await plugin(123456, 'contact-form'))!.status).toBe('inactive');
    expect(h.sb.runtime.webhooks.at(-1)).toMatchObject({ event: 'plugin_deactivate_completed' });

    await h.api.sites.plugins.activate(123456, { plugins: [{ path: 'contact-form' }, { path: 'seo-tools' }] });
    settle();
    expect((await h.api.sites.plugins.list(123456)).map((p) => p.status)).toEqual([
      'active',
      'active',
      'active',
      'dropin',
    ]);
    expect(h.sb.runtime.state.alerts.at(-1)).toMatchObject({
      type: 'site.plugins_activated',
      message: expect.stringContaining('contact-form, seo-tools'),
    });

    // Queued changes apply in order: deactivate then activate within the window ends active.
    await h.api.sites.plugins.deactivate(123456, { plugins: [{ path: 'seo-tools' }] });
    await h.api.sites.plugins.activate(123456, { plugins: [{ path: 'seo-tools' }] });
    settle();
    expect((await plugin(123456, 'seo-tools'))!.status).toBe('active');
  });

  it('updates to the latest or a given version', async () => {
    await h.api.sites.plugins.update(123456, { plugins: [{ path: 'seo-tools' }] });
    expect(await plugin(123456, 'seo-tools')).toMatchObject({ version: '2.1.0', update: 'available' });
    settle();
    expect(await plugin(123456, 'seo-tools')).toMatchObject({ version: '2.2.0', update: 'none', update_version: null });
    await h.api.sites.plugins.update(123456, { plugins: [{ path: 'contact-form', version: '5.8.0' }] });
    settle();
    expect(await plugin(123456, 'contact-form')).toMatchObject({
      version: '5.8.0',
      update: 'available',
      update_version: '5.9.1',
    });
    await h.api.sites.plugins.update(123456, { plugins: [{ path: 'contact-form', version: '6.0.0' }] });
    settle();
    expect(await plugin(123456, 'contact-form')).toMatchObject({
      version: '6.0.0',
      update: 'version higher than expected',
    });
    expect(h.sb.runtime.webhooks.map((w) => w.event)).toEqual([
      'plugin_update_completed',
      'plugin_update_completed',
      'plugin_update_completed',
    ]);
  });

  it('accepts the spec examples (the contract suite sends them to site 123456)', async () => {
    for (const [method, path, body] of [
      [
        'POST',
        '/sites/123456/plugins',
        {
          plugins: [
            { path: 'hello-dolly', version: '1.7.2' },
            { path: 'https://downloads.example.com/acme-forms.zip' },
          ],
        },
      ],
      ['PUT', '/sites/123456/plugins', { plugins: [{ path: 'hello-dolly' }] }],
      ['PUT', '/sites/123456/plugins/activate', { plugins: [{ path: 'hello-dolly' }] }],
      ['PUT', '/sites/123456/plugins/deactivate', { plugins: [{ path: 'hello-dolly' }] }],
    ] as const) {
      const r = await h.call(method, path, body);
      expect(r.status, `${method} ${path}`).toBe(200);
      expect(r.body).toEqual({ message: 'Success', data: null, errors: null });
    }
    settle();
    // Applied in order: install 1.7.2, update to 1.7.3, activate, deactivate.
    expect(await plugin(123456, 'hello-dolly')).toMatchObject({ version: '1.7.3', update: 'none', status: 'inactive' });
  });

  it('refuses plugins that are not installed, drop-ins, bad paths and versions', async () => {
    const cases: [string, string, unknown, string][] = [
      ['PUT', '/sites/123456/plugins/activate', { plugins: [{ path: 'classic-editor' }] }, 'body.plugins.0.path'],
      [
        'PUT',
        '/sites/123456/plugins',
        { plugins: [{ path: 'seo-tools' }, { path: 'missing' }] },
        'body.plugins.1.path',
      ],
      ['PUT', '/sites/123456/plugins/deactivate', { plugins: [{ path: 'object-cache' }] }, 'body.plugins.0.path'],
      [
        'PUT',
        '/sites/123456/plugins/activate',
        { plugins: [{ path: 'seo-tools' }, { path: 'seo-tools' }] },
        'body.plugins.1.path',
      ],
      [
        'POST',
        '/sites/123456/plugins',
        { plugins: [{ path: 'http://downloads.example.com/x.zip' }] },
        'body.plugins.0.path',
      ],
      [
        'POST',
        '/sites/123456/plugins',
        { plugins: [{ path: 'https://downloads.example.com/x.tar' }] },
        'body.plugins.0.path',
      ],
      ['POST', '/sites/123456/plugins', { plugins: [{ path: 'Not A Slug' }] }, 'body.plugins.0.path'],
      [
        'POST',
        '/sites/123456/plugins',
        { plugins: [{ path: 'hello-dolly', version: 'newest' }] },
        'body.plugins.0.version',
      ],
      ['POST', '/sites/123456/plugins', { plugins: [] }, 'body.plugins'],
      ['POST', '/sites/123456/plugins', {}, 'body.plugins'],
      ['PUT', '/sites/123456/plugins/activate', { plugins: [{}] }, 'body.plugins.0.path'],
    ];
    for (const [method, path, body, field] of cases) {
      const r = await h.call(method, path, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(errorEnvelope(r).errors?.[0]?.startsWith(`${field}:`), JSON.stringify(r.body)).toBe(true);
    }
    expect(h.sb.runtime.clock.pending()).toEqual([]); // nothing was queued
    expect(await status(h.api.sites.plugins.install(999999, { plugins: [{ path: 'hello-dolly' }] }))).toBe(404);
  });

  it('queued work for a deleted site does nothing', async () => {
    await h.api.sites.plugins.install(123458, { plugins: [{ path: 'hello-dolly' }] });
    await h.api.sites.delete(123458);
    settle();
    expect(h.sb.runtime.state.plugins.filter((p) => p.siteId === 123458)).toEqual([]);
    expect(h.sb.runtime.webhooks).toEqual([]);
  });
});
