// Backups and restores: combined and typed lists, downloads (gzip tar / SQL), on-demand backups
// (creating → completed, 3 per type per site also under concurrency, deleting → removed with a
// webhook, 30/7-day expiry), restores (maintenance mode while running, onto another site, 404s).
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DURATIONS } from '../src/domain/runtime.js';
import { errorEnvelope, START, status, useSandbox } from './helpers.js';
import { specProblems } from './spec-check.js';

const DAY = 86_400_000;
const h = useSandbox();
const nowSeconds = () => Math.floor(h.sb.runtime.clock.now() / 1000);
/** Moves the clock and gets a token that is valid at the new time. */
async function advance(ms: number) {
  h.sb.advance(ms);
  await h.refresh();
}
async function fetchRaw(path: string) {
  const res = await fetch(`${h.sb.url}${path}`, { headers: { authorization: `Bearer ${h.token}` } });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('scheduled backups', () => {
  it('lists combined backups newest first, pairing the database and filesystem parts', async () => {
    const combined = await h.api.sites.backups.list(123456);
    expect(combined).toEqual([
      {
        timestamp: new Date(Date.parse(START) - DAY).toISOString(),
        siteId: 123456,
        databaseBackupId: 81234567,
        filesystemBackupId: 81234568,
      },
      {
        timestamp: new Date(Date.parse(START) - 2 * DAY).toISOString(),
        siteId: 123456,
        databaseBackupId: 81234570,
        filesystemBackupId: 81234569,
      },
    ]);
    // A backup point with no filesystem part.
    expect(await h.api.sites.backups.list(123457)).toEqual([
      expect.objectContaining({ databaseBackupId: 81234571, filesystemBackupId: null }),
    ]);
    expect(await h.api.sites.backups.list(123458)).toEqual([]);
  });

  it('lists typed backups by type', async () => {
    const fs = await h.api.sites.backups.listFs(123456);
    expect(fs.map((b) => [b.id, b.type])).toEqual([
      ['81234568', 'fs'],
      ['81234569', 'fs'],
    ]);
    const db = await h.api.sites.backups.listDb(123456);
    expect(db.map((b) => [b.id, b.type])).toEqual([
      ['81234567', 'db'],
      ['81234570', 'db'],
    ]);
    expect(db[0]).toMatchObject({ site_id: 123456, title: 'Daily backup' });
  });

  it('a site name with CRLF, quotes or non-ASCII letters reaches Content-Disposition encoded (RFC 6266)', async () => {
    const site = h.sb.runtime.state.sites.find((s) => s.id === 123456)!;
    const name = site.name;
    site.name = 'blog\r\nX-Evil: "1" é';
    try {
      const r = await fetchRaw('/sites/123456/backups/81234568');
      expect(r.res.status).toBe(200);
      expect(r.res.headers.get('x-evil')).toBeNull();
      expect(r.res.headers.get('content-disposition')).toBe(
        `attachment; filename="blog__X-Evil: _1_ _-81234568.tar.gz"; filename*=UTF-8''blog%0D%0AX-Evil%3A%20%221%22%20%C3%A9-81234568.tar.gz`,
      );
    } finally {
      site.name = name;
    }
  });

  it('streams a filesystem backup as a gzip tar archive and a database backup as SQL', async () => {
    const fs = await fetchRaw('/sites/123456/backups/81234568');
    expect(fs.res.status).toBe(200);
    expect(fs.res.headers.get('content-type')).toBe('application/gzip');
    expect(fs.res.headers.get('content-disposition')).toBe(
      `attachment; filename="ada-blog-81234568.tar.gz"; filename*=UTF-8''ada-blog-81234568.tar.gz`,
    );
    const tar = gunzipSync(fs.bytes);
    expect(tar.length % 512).toBe(0);
    expect(tar.subarray(257, 262).toString()).toBe('ustar');
    expect(tar.toString('latin1')).toContain('Backup 81234568');
    // Deterministic: the same backup has the same bytes.
    expect((await fetchRaw('/sites/123456/backups/81234568')).bytes.equals(fs.bytes)).toBe(true);

    const db = await fetchRaw('/sites/123456/backups/81234567');
    expect(db.res.headers.get('content-type')).toBe('application/sql');
    const sql = db.bytes.toString('utf8');
    expect(sql).toMatch(/^-- Database dump of site ada-blog \(123456\)/);
    expect(sql).toContain('CREATE TABLE `cms_options`');

    const log = await h.api.account.activity.list({
      filters: [{ field: 'action', operator: 'equals', value: 'backup.downloaded' }],
    });
    expect(log.data.filter((e) => e.source === 'api.v1').map((e) => e.message)).toEqual([
      'Backup 81234567 of ada-blog was downloaded.',
      'Backup 81234568 of ada-blog was downloaded.',
      'Backup 81234568 of ada-blog was downloaded.',
    ]);
  });

  it('answers 404 for unknown sites and backups, and for a backup of another site', async () => {
    expect(await status(h.api.sites.backups.list(999999))).toBe(404);
    expect(await status(h.api.sites.backups.listFs(999999))).toBe(404);
    expect(await status(h.api.sites.backups.listDb(999999))).toBe(404);
    for (const path of [
      '/sites/123456/backups/1',
      '/sites/123457/backups/81234567',
      '/sites/999999/backups/81234567',
    ]) {
      const r = await h.call('GET', path);
      expect(r.status, path).toBe(404);
      expect(errorEnvelope(r).message).toBe('We could not locate the requested resources.');
      expect(specProblems('getSiteBackupDownload', r.status, r.body)).toEqual([]);
    }
  });
});

describe('on-demand backups', () => {
  it('creates a backup that completes later on the clock', async () => {
    const r = await h.call('POST', '/sites/123457/ondemand-backups', { backup_type: 'db' });
    expect(r.status).toBe(200);
    expect(specProblems('createSiteOndemandBackup', r.status, r.body)).toEqual([]);
    const created = r.body.data;
    const now = nowSeconds();
    expect(created).toEqual({
      id: null,
      requestId: 78001,
      siteId: 123457,
      completed: null,
      status: 'creating',
      type: 'db',
      bytes: null,
      requested: now,
      backupTimestamp: null,
      createdBy: 'Ada Lovelace',
      removedIn: '30 days',
      deleteAt: now + 30 * 86_400,
    });
    // Addressable by its requestId until it has an id; nothing to download yet.
    expect(await h.api.sites.backups.ondemand.get(123457, '78001')).toEqual(created);
    expect((await h.call('GET', '/sites/123457/ondemand-backups/78001/download')).status).toBe(404);

    h.sb.advance(DURATIONS.ondemandBackup - 1);
    expect((await h.api.sites.backups.ondemand.get(123457, '78001')).status).toBe('creating');
    h.sb.advance(1);
    const [done] = await h.api.sites.backups.ondemand.list(123457);
    expect(done).toMatchObject({
      id: '5600001',
      status: 'completed',
      completed: now + DURATIONS.ondemandBackup / 1000,
    });
    expect(done).not.toHaveProperty('requestId');
    expect(done!.backupTimestamp).toBe(new Date((now + 20) * 1000).toISOString());
    expect(await h.api.sites.backups.ondemand.get(123457, '5600001')).toEqual(done);

    const file = await fetchRaw('/sites/123457/ondemand-backups/5600001/download');
    expect(file.res.status).toBe(200);
    expect(file.res.headers.get('content-type')).toBe('application/sql');
    expect(String(file.bytes.length)).toBe(done!.bytes);
    expect(file.bytes.toString()).toContain('Backup 5600001');

    const alert = h.sb.runtime.state.alerts.find((a) => a.type === 'site.backup_completed' && a.site?.id === 123457);
    expect(alert).toMatchObject({ category: 'completed', read: false });
    expect(h.sb.runtime.webhooks.map((w) => [w.event, w.payload])).toEqual([
      ['ondemand_backup_completed', { backup: { id: '5600001', siteId: 123457, type: 'db', status: 'completed' } }],
    ]);
  });

  it('downloads a completed filesystem backup as gzip', async () => {
    const file = await fetchRaw('/sites/123456/ondemand-backups/5523871/download');
    expect(file.res.status).toBe(200);
    expect(file.res.headers.get('content-type')).toBe('application/gzip');
    expect(gunzipSync(file.bytes).toString('latin1')).toContain('Backup 5523871');
  });

  it('holds at most 3 per type per site; the 4th is refused with a 400', async () => {
    // The seed holds one filesystem backup of 123456.
    for (let i = 0; i < 2; i++) await h.api.sites.backups.ondemand.create(123456, { backup_type: 'fs' });
    const refused = await h.call('POST', '/sites/123456/ondemand-backups', { backup_type: 'fs' });
    expect(refused.status).toBe(400);
    expect(errorEnvelope(refused)).toEqual({
      message: 'There was a problem processing your request.',
      data: null,
      errors: ['A site can hold at most 3 filesystem on-demand backups; delete one to create another.'],
    });
    expect(specProblems('createSiteOndemandBackup', refused.status, refused.body)).toEqual([]);
    // Completing does not free a slot; the other type has its own 3.
    h.sb.advance(DURATIONS.ondemandBackup);
    expect(await status(h.api.sites.backups.ondemand.create(123456, { backup_type: 'fs' }))).toBe(400);
    for (let i = 0; i < 3; i++) await h.api.sites.backups.ondemand.create(123456, { backup_type: 'db' });
    expect(await status(h.api.sites.backups.ondemand.create(123456, { backup_type: 'db' }))).toBe(400);
    // Another site has its own slots.
    expect(await status(h.api.sites.backups.ondemand.create(123457, { backup_type: 'fs' }))).toBe(200);
    // Deleting one frees its slot at once.
    await h.api.sites.backups.ondemand.delete(123456, '5523871');
    expect((await h.api.sites.backups.ondemand.create(123456, { backup_type: 'fs' })).status).toBe('creating');
  });

  it('holds the limit under concurrent creation', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => h.call('POST', '/sites/123458/ondemand-backups', { backup_type: 'fs' })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status === 400)).toHaveLength(7);
    expect(new Set(results.filter((r) => r.status === 200).map((r) => r.body.data.requestId)).size).toBe(3);
    expect(await h.api.sites.backups.ondemand.list(123458)).toHaveLength(3);
  });

  it('deletes: deleting, then removed, with a deletion webhook', async () => {
    const r = await h.call('DELETE', '/sites/123456/ondemand-backups/5523871');
    expect(r.status).toBe(200);
    expect(specProblems('deleteSiteOndemandBackup', r.status, r.body)).toEqual([]);
    expect(r.body.data).toMatchObject({ id: '5523871', status: 'deleting' });
    expect((await h.api.sites.backups.ondemand.list(123456)).map((b) => b.status)).toEqual(['deleting']);
    // Repeating the delete answers the same and queues nothing more.
    expect((await h.api.sites.backups.ondemand.delete(123456, '5523871')).status).toBe('deleting');
    expect(h.sb.runtime.webhooks).toEqual([]);

    h.sb.advance(DURATIONS.ondemandBackupDelete);
    expect(await h.api.sites.backups.ondemand.list(123456)).toEqual([]);
    expect(await status(h.api.sites.backups.ondemand.get(123456, '5523871'))).toBe(404);
    expect(h.sb.runtime.webhooks.map((w) => [w.event, w.payload])).toEqual([
      ['ondemand_backup_deleted', { backup: { id: '5523871', siteId: 123456, type: 'fs', status: 'deleted' } }],
    ]);
    const hooks = (await h.call('GET', '/__sandbox/webhooks')).body.data;
    expect(hooks.map((w: any) => w.event)).toEqual(['ondemand_backup_deleted']);
  });

  it('deleting a backup that is still being created stops its completion', async () => {
    const created = await h.api.sites.backups.ondemand.create(123457, { backup_type: 'fs' });
    await h.api.sites.backups.ondemand.delete(123457, String(created.requestId));
    h.sb.advance(DURATIONS.ondemandBackup);
    expect(await h.api.sites.backups.ondemand.list(123457)).toEqual([]);
    expect(h.sb.runtime.webhooks.map((w) => w.event)).toEqual(['ondemand_backup_deleted']);
  });

  it('expires the latest after 30 days and superseded ones 7 days after a newer one', async () => {
    const seeded = (await h.api.sites.backups.ondemand.get(123456, '5523871'))!;
    expect(seeded.removedIn).toBe('27 days');
    await advance(DAY);
    const newer = await h.api.sites.backups.ondemand.create(123456, { backup_type: 'fs' });
    expect(newer.deleteAt).toBe(nowSeconds() + 30 * 86_400);
    const superseded = await h.api.sites.backups.ondemand.get(123456, '5523871');
    expect(superseded.deleteAt).toBe(nowSeconds() + 7 * 86_400);
    expect(superseded.removedIn).toBe('7 days');
    await advance(7 * DAY - 3_600_000);
    expect((await h.api.sites.backups.ondemand.get(123456, '5523871')).removedIn).toBe('1 hour');
    await advance(3_600_000);
    expect(await status(h.api.sites.backups.ondemand.get(123456, '5523871'))).toBe(404);
    expect((await h.api.sites.backups.ondemand.list(123456)).map((b) => b.id)).toEqual(['5600001']);
    await advance(23 * DAY);
    expect(await h.api.sites.backups.ondemand.list(123456)).toEqual([]);
  });

  it('answers 404 for unknown sites and backups and names the invalid field', async () => {
    expect(await status(h.api.sites.backups.ondemand.list(999999))).toBe(404);
    expect(await status(h.api.sites.backups.ondemand.get(123457, '5523871'))).toBe(404);
    expect(await status(h.api.sites.backups.ondemand.delete(123456, 'nope'))).toBe(404);
    expect((await h.call('GET', '/sites/123456/ondemand-backups/nope/download')).status).toBe(404);
    const bad = await h.call('POST', '/sites/123456/ondemand-backups', { backup_type: 'full' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.join()).toEqual('backup_type must be fs or db');
    expect(specProblems('createSiteOndemandBackup', bad.status, bad.body)).toEqual([]);
    expect((await h.call('POST', '/sites/123456/ondemand-backups', {})).body.errors.join()).toEqual(
      'backup_type must be fs or db',
    );
  });
});

describe('restores', () => {
  it('puts the site in maintenance mode until the restore completes', async () => {
    const r = await h.call('POST', '/sites/123456/restores', { filesystem_id: 81234568, database_id: 81234567 });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: 'Success', data: null, errors: null });
    expect((await h.api.sites.get(123456)).maintenanceMode).toBe(true);
    const restores = await h.api.sites.restores.list(123456);
    expect(restores.map((x) => [x.id, x.status])).toEqual([
      [6701, 'in_progress'],
      [6601, 'completed'],
    ]);
    expect(restores[0]!.logMessages).toContain('Site placed in maintenance mode.');
    expect(
      h.sb.runtime.state.alerts.some((a) => a.type === 'site.restore_started' && a.category === 'in_progress'),
    ).toBe(true);

    h.sb.advance(DURATIONS.restore);
    const [done] = await h.api.sites.restores.list(123456);
    expect(done).toMatchObject({ id: 6701, status: 'completed' });
    expect(done!.logMessages.at(-1)).toBe('Site taken out of maintenance mode.');
    expect((await h.api.sites.get(123456)).maintenanceMode).toBe(false);
    expect(h.sb.runtime.state.alerts.some((a) => a.type === 'site.restore_completed' && a.site?.id === 123456)).toBe(
      true,
    );
  });

  it('accepts a second restore while one runs; the site stays in maintenance mode until the last ends', async () => {
    await h.api.sites.restores.create(123456, { filesystem_id: 81234568, database_id: 81234567 });
    h.sb.advance(DURATIONS.restore / 3);
    // Onto the same site, from another site's backups (a cross-site write).
    await h.api.sites.restores.create(123456, { filesystem_id: 81234568, database_id: 81234567 });
    expect((await h.api.sites.restores.list(123456)).filter((x) => x.status === 'in_progress')).toHaveLength(2);
    h.sb.advance((DURATIONS.restore * 2) / 3);
    const [second, first] = await h.api.sites.restores.list(123456);
    expect([first!.status, second!.status]).toEqual(['completed', 'in_progress']);
    expect(first!.logMessages.at(-1)).toBe('Site left in maintenance mode: another restore of it is in progress.');
    expect((await h.api.sites.get(123456)).maintenanceMode).toBe(true);
    h.sb.advance(DURATIONS.restore);
    expect((await h.api.sites.get(123456)).maintenanceMode).toBe(false);
  });

  it('restores onto another site of the account', async () => {
    await h.api.sites.restores.create(123456, {
      filesystem_id: 81234568,
      database_id: 81234567,
      restore_on_site_id: 123457,
    });
    expect((await h.api.sites.get(123457)).maintenanceMode).toBe(true);
    expect((await h.api.sites.get(123456)).maintenanceMode).toBe(false);
    expect((await h.api.sites.restores.list(123457)).map((x) => x.status)).toEqual(['in_progress']);
    expect((await h.api.sites.restores.list(123456))[0]!.logMessages[1]).toContain('onto shop-staging');
    h.sb.advance(DURATIONS.restore);
    expect((await h.api.sites.get(123457)).maintenanceMode).toBe(false);
  });

  it('restores from a completed on-demand backup and keeps earlier maintenance mode', async () => {
    const state = h.sb.runtime.state;
    state.sites.find((s) => s.id === 123456)!.maintenanceMode = true;
    await h.api.sites.backups.ondemand.create(123456, { backup_type: 'db' });
    h.sb.advance(DURATIONS.ondemandBackup);
    await h.api.sites.restores.create(123456, { filesystem_id: 5523871, database_id: 5600001 });
    h.sb.advance(DURATIONS.restore);
    expect((await h.api.sites.get(123456)).maintenanceMode).toBe(true);
  });

  it('answers 404 for unknown sites, target sites and backups; 400 for a backup of the wrong type', async () => {
    const cases: [string, unknown, number][] = [
      ['/sites/999999/restores', { filesystem_id: 81234568, database_id: 81234567 }, 404],
      ['/sites/123456/restores', { filesystem_id: 81234568, database_id: 81234567, restore_on_site_id: 999999 }, 404],
      ['/sites/123456/restores', { filesystem_id: 1, database_id: 81234567 }, 404],
      ['/sites/123457/restores', { filesystem_id: 81234568, database_id: 81234571 }, 404],
      ['/sites/123456/restores', { filesystem_id: 81234567, database_id: 81234567 }, 400],
      ['/sites/123456/restores', { filesystem_id: 81234568 }, 400],
    ];
    for (const [path, body, expected] of cases) {
      const r = await h.call('POST', path, body);
      expect(r.status, JSON.stringify(body)).toBe(expected);
      expect(specProblems('createSiteRestore', r.status, r.body)).toEqual([]);
    }
    const wrong = await h.call('POST', '/sites/123456/restores', { filesystem_id: 81234567, database_id: 81234567 });
    expect(wrong.body.errors).toEqual([
      'body.filesystem_id: backup 81234567 is a database backup, not a filesystem backup',
    ]);
    const missing = await h.call('POST', '/sites/123456/restores', { filesystem_id: 81234568 });
    expect(missing.body.errors.join()).toMatch(/^body\.database_id/);
    expect(await status(h.api.sites.restores.list(999999))).toBe(404);
    // Nothing was started.
    expect((await h.api.sites.get(123456)).maintenanceMode).toBe(false);
  });
});
