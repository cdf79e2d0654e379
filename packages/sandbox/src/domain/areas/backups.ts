// Backups and restores: scheduled backups (combined and typed lists, downloads), on-demand backups
// (creating → completed, at most 3 per type per site, deleting → removed, expiry) and restores
// (the target site is in maintenance mode while a restore runs). Parts 2, 3, 4 and 8 of the seed.
import { gzip } from '../../platform.js';
import { type Ctx, defineArea } from '../area.js';
import { badRequest, notFound } from '../errors.js';
import { DURATIONS, type SandboxRuntime } from '../runtime.js';
import {
  type BackupRecord,
  nextId,
  type OndemandBackupRecord,
  type RestoreRecord,
  type SandboxState,
  type SiteRecord,
} from '../state.js';
import type { OperationId, Schema } from '../types.js';

const DAY_S = 86_400;
/** Part 8: 3 filesystem and 3 database on-demand backups per site. */
export const ONDEMAND_LIMIT = 3;
/** Part 8: on-demand backups expire after 30 days (the latest) or 7 days (older ones). */
export const LATEST_RETENTION_DAYS = 30;
export const OLDER_RETENTION_DAYS = 7;

const TYPE_NAME = { fs: 'filesystem', db: 'database' } as const;

// ---- views ----------------------------------------------------------------------------------

const typedView = (b: BackupRecord): Schema<'BackupTyped'> => ({ ...b });

/** A site's filesystem or database backups, newest first. */
const typedBackups = (state: SandboxState, siteId: number, type: 'fs' | 'db') =>
  state.backups
    .filter((b) => b.site_id === siteId && b.type === type)
    .sort((a, b) => b.backup_timestamp.localeCompare(a.backup_timestamp) || b.id.localeCompare(a.id))
    .map(typedView);

/** `removedIn`: display text of the time left until `deleteAt`. */
function removedIn(deleteAt: number, now: number): string {
  const left = Math.max(0, deleteAt - now);
  const days = Math.floor(left / DAY_S);
  if (days >= 1) return days === 1 ? '1 day' : `${days} days`;
  const hours = Math.max(1, Math.ceil(left / 3600));
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

/** Public view: `requestId` only while creating (part 2: "present while creating"). */
export function ondemandView(b: OndemandBackupRecord, nowSeconds: number): Schema<'OndemandBackup'> {
  const { requestId, ...rest } = b;
  const view: Schema<'OndemandBackup'> = { ...rest, removedIn: removedIn(b.deleteAt, nowSeconds) };
  if (b.status === 'creating') view.requestId = requestId;
  return view;
}

const restoreView = (r: RestoreRecord): Schema<'Restore'> => ({
  id: r.id,
  status: r.status,
  logMessages: [...r.logMessages],
});

// ---- download payloads ---------------------------------------------------------------------

/** One ustar entry (header + content padded to 512 bytes). */
function tarEntry(name: string, content: Buffer, mtime: number): Buffer {
  const header = Buffer.alloc(512, 0);
  const put = (text: string, offset: number, length: number) => header.write(text.slice(0, length), offset, 'utf8');
  const octal = (n: number, length: number) => `${n.toString(8).padStart(length - 1, '0')}\0`;
  put(name, 0, 100);
  put(octal(0o644, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(content.length, 12), 124, 12);
  put(octal(mtime, 12), 136, 12);
  put('        ', 148, 8); // checksum placeholder: spaces
  put('0', 156, 1);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  let sum = 0;
  for (const byte of header) sum += byte;
  put(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  const padding = Buffer.alloc((512 - (content.length % 512)) % 512, 0);
  return Buffer.concat([header, content, padding]);
}

interface Payload {
  body: Buffer;
  contentType: string;
  filename: string;
}

/**
 * The downloadable file of a backup: a small deterministic .tar.gz (filesystem) or SQL text
 * (database), derived from the site and the backup, so the same backup always has the same bytes.
 */
export function backupPayload(site: SiteRecord, backupId: string, type: 'fs' | 'db', takenAt: string): Payload {
  const mtime = Math.floor(Date.parse(takenAt) / 1000) || 0;
  if (type === 'db') {
    const sql = [
      `-- Database dump of site ${site.name} (${site.id})`,
      `-- Backup ${backupId}, taken ${takenAt}`,
      'CREATE TABLE `cms_options` (',
      '  `option_id` bigint unsigned NOT NULL AUTO_INCREMENT,',
      "  `option_name` varchar(191) NOT NULL DEFAULT '',",
      '  `option_value` longtext NOT NULL,',
      '  PRIMARY KEY (`option_id`)',
      ');',
      `INSERT INTO \`cms_options\` VALUES (1,'siteurl','${site.url}'),(2,'blogname','${site.displayName.replace(/'/g, "''")}');`,
      '',
    ].join('\n');
    return { body: Buffer.from(sql, 'utf8'), contentType: 'application/sql', filename: `${site.name}-${backupId}.sql` };
  }
  const root = `${site.name}/`;
  const tar = Buffer.concat([
    tarEntry(
      `${root}index.php`,
      Buffer.from("<?php\n// Front controller of the hosted CMS.\nrequire __DIR__ . '/cms-blog-header.php';\n"),
      mtime,
    ),
    tarEntry(
      `${root}BACKUP.txt`,
      Buffer.from(`Site ${site.name} (${site.id})\nBackup ${backupId}\nTaken ${takenAt}\n`),
      mtime,
    ),
    Buffer.alloc(1024, 0),
  ]);
  return {
    body: gzip(tar),
    contentType: 'application/gzip',
    filename: `${site.name}-${backupId}.tar.gz`,
  };
}

/**
 * `attachment` with the file's name as RFC 6266 says: an ASCII `filename` (anything else, quotes,
 * backslashes and control characters as `_`) for old clients, and the exact name in `filename*`
 * (RFC 8187: UTF-8, percent-encoded), so no character of a site's name can break the header.
 */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const exact = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

function download(ctx: Pick<Ctx<OperationId>, 'activity'>, site: SiteRecord, payload: Payload, backupId: string) {
  ctx.activity('backup.downloaded', 'Backup downloaded', `Backup ${backupId} of ${site.name} was downloaded.`, site.id);
  return {
    raw: true as const,
    status: 200,
    contentType: payload.contentType,
    body: payload.body,
    headers: {
      'content-disposition': contentDisposition(payload.filename),
      'content-length': String(payload.body.length),
    },
  };
}

// ---- on-demand backups ------------------------------------------------------------------------

/** Expiry (part 8): backups past `deleteAt` are gone. Applied whenever the collection is read. */
function expire(state: SandboxState, nowSeconds: number) {
  if (state.ondemandBackups.some((b) => b.deleteAt <= nowSeconds)) {
    state.ondemandBackups = state.ondemandBackups.filter((b) => b.deleteAt > nowSeconds);
  }
}

/** A site's on-demand backup by `id` or, as the `id` is null until complete, by `requestId`. */
function findOndemand(
  ctx: Pick<Ctx<OperationId>, 'state' | 'rt'>,
  site: SiteRecord,
  key: string,
): OndemandBackupRecord {
  expire(ctx.state, ctx.rt.clock.nowSeconds());
  const backup = ctx.state.ondemandBackups.find(
    (b) => b.siteId === site.id && (b.id === key || String(b.requestId) === key),
  );
  if (!backup) throw notFound();
  return backup;
}

function completeBackupLater(rt: SandboxRuntime, requestId: number) {
  rt.later(DURATIONS.ondemandBackup, `on-demand backup ${requestId} creating → completed`, () => {
    const backup = rt.state.ondemandBackups.find((b) => b.requestId === requestId);
    if (backup?.status !== 'creating') return;
    const site = rt.state.sites.find((s) => s.id === backup.siteId);
    if (!site) return;
    const id = String(nextId(rt.state, 'ondemandBackup', 5600001));
    const takenAt = rt.clock.nowIso();
    Object.assign(backup, {
      id,
      status: 'completed',
      completed: rt.clock.nowSeconds(),
      backupTimestamp: takenAt,
      bytes: String(backupPayload(site, id, backup.type, takenAt).body.length),
    });
    rt.publishAlert({
      type: 'site.backup_completed',
      category: 'completed',
      title: 'Backup completed',
      message: `The on-demand ${TYPE_NAME[backup.type]} backup of ${site.name} is ready.`,
      icon: 'backup',
      siteId: site.id,
    });
    rt.emitWebhook('ondemand_backup_completed', {
      backup: { id, siteId: site.id, type: backup.type, status: 'completed' },
    });
  });
}

function removeBackupLater(rt: SandboxRuntime, requestId: number) {
  rt.later(DURATIONS.ondemandBackupDelete, `on-demand backup ${requestId} deleting → removed`, () => {
    const backup = rt.state.ondemandBackups.find((b) => b.requestId === requestId);
    if (backup?.status !== 'deleting') return;
    rt.state.ondemandBackups = rt.state.ondemandBackups.filter((b) => b !== backup);
    // Part 3: "a deletion webhook is sent" (name and payload not shown).
    rt.emitWebhook('ondemand_backup_deleted', {
      backup: { id: backup.id, siteId: backup.siteId, type: backup.type, status: 'deleted' },
    });
  });
}

// ---- restores ----------------------------------------------------------------------------------

/** A backup usable for a restore: a scheduled backup of the site or a completed on-demand one. */
function restoreSource(state: SandboxState, site: SiteRecord, id: number, type: 'fs' | 'db', field: string) {
  const key = String(id);
  const scheduled = state.backups.find((b) => b.site_id === site.id && b.id === key);
  const ondemand = state.ondemandBackups.find((b) => b.siteId === site.id && b.id === key && b.status !== 'creating');
  const found = scheduled?.type ?? ondemand?.type;
  if (!found) throw notFound();
  if (found !== type) {
    throw badRequest(`body.${field}: backup ${key} is a ${TYPE_NAME[found]} backup, not a ${TYPE_NAME[type]} backup`);
  }
}

const restoresOf = (state: SandboxState, siteId: number) =>
  state.restores.filter((r) => r.siteId === siteId || r.targetSiteId === siteId);

function finishRestoreLater(rt: SandboxRuntime, restoreId: number, startedAlertId: number) {
  rt.later(DURATIONS.restore, `restore ${restoreId} in_progress → completed`, () => {
    const restore = rt.state.restores.find((r) => r.id === restoreId);
    if (restore?.status !== 'in_progress') return;
    const targetId = restore.targetSiteId ?? restore.siteId;
    const target = rt.state.sites.find((s) => s.id === targetId);
    restore.status = 'completed';
    restore.logMessages.push('Restore completed.');
    const started = rt.state.alerts.find((a) => a.id === startedAlertId);
    if (started) started.expiresAt = rt.clock.nowIso();
    if (!target) return;
    const stillRunning = restoresOf(rt.state, target.id).some(
      (r) => r.status === 'in_progress' && (r.targetSiteId ?? r.siteId) === target.id,
    );
    if (stillRunning) restore.logMessages.push('Site left in maintenance mode: another restore of it is in progress.');
    else {
      target.maintenanceMode = restore.maintenanceBefore ?? false;
      delete target.restoring;
      restore.logMessages.push(
        target.maintenanceMode ? 'Site left in maintenance mode.' : 'Site taken out of maintenance mode.',
      );
    }
    // Part 3: "email sent when restore attempt ends"; the sandbox has no mail, the inbox gets it.
    rt.publishAlert({
      type: 'site.restore_completed',
      category: 'completed',
      title: 'Restore completed',
      message: `The restore of ${target.name} has finished.`,
      icon: 'backup',
      siteId: target.id,
    });
  });
}

// ---- handlers ------------------------------------------------------------------------------------

export default defineArea({
  listSiteBackups: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    const mine = ctx.state.backups.filter((b) => b.site_id === site.id && /^\d+$/.test(b.id));
    const points = [...new Set(mine.map((b) => b.backup_timestamp))].sort((a, b) => b.localeCompare(a));
    const data: Schema<'Backup'>[] = [];
    for (const timestamp of points) {
      const db = mine.find((b) => b.backup_timestamp === timestamp && b.type === 'db');
      const fs = mine.find((b) => b.backup_timestamp === timestamp && b.type === 'fs');
      // A combined backup always has its database part (part 2: databaseBackupId is an int).
      if (!db) continue;
      data.push({
        timestamp,
        siteId: site.id,
        databaseBackupId: Number(db.id),
        filesystemBackupId: fs ? Number(fs.id) : null,
      });
    }
    return { data };
  },

  listSiteFilesystemBackups: (ctx) => ({ data: typedBackups(ctx.state, ctx.site(ctx.params.site_id).id, 'fs') }),

  listSiteDatabaseBackups: (ctx) => ({ data: typedBackups(ctx.state, ctx.site(ctx.params.site_id).id, 'db') }),

  getSiteBackupDownload: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    const backup = ctx.state.backups.find((b) => b.site_id === site.id && b.id === ctx.params.backup_id);
    if (!backup) throw notFound();
    return download(ctx, site, backupPayload(site, backup.id, backup.type, backup.backup_timestamp), backup.id);
  },

  listSiteOndemandBackups: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    const now = ctx.rt.clock.nowSeconds();
    expire(ctx.state, now);
    const data = ctx.state.ondemandBackups
      .filter((b) => b.siteId === site.id)
      .sort((a, b) => a.requested - b.requested || a.requestId - b.requestId)
      .map((b) => ondemandView(b, now));
    return { data };
  },

  createSiteOndemandBackup: (ctx) => {
    const { state, rt } = ctx;
    const site = ctx.site(ctx.params.site_id);
    const type = ctx.body.backup_type;
    const now = rt.clock.nowSeconds();
    expire(state, now);
    // Count and push in one synchronous stretch (and writes to a site are serialised): the limit
    // holds under concurrent requests. A backup being deleted no longer takes a slot.
    const sameType = state.ondemandBackups.filter(
      (b) => b.siteId === site.id && b.type === type && b.status !== 'deleting',
    );
    if (sameType.length >= ONDEMAND_LIMIT) {
      throw badRequest(
        `A site can hold at most ${ONDEMAND_LIMIT} ${TYPE_NAME[type]} on-demand backups; delete one to create another.`,
      );
    }
    // Part 8: the latest keeps 30 days; the ones it supersedes now have 7 days left at most.
    for (const older of sameType) older.deleteAt = Math.min(older.deleteAt, now + OLDER_RETENTION_DAYS * DAY_S);
    const backup: OndemandBackupRecord = {
      id: null,
      requestId: nextId(state, 'ondemandRequest', 78001),
      siteId: site.id,
      completed: null,
      status: 'creating',
      type,
      bytes: null,
      requested: now,
      backupTimestamp: null,
      createdBy: state.account.name,
      removedIn: `${LATEST_RETENTION_DAYS} days`,
      deleteAt: now + LATEST_RETENTION_DAYS * DAY_S,
    };
    state.ondemandBackups.push(backup);
    ctx.activity(
      'backup.created',
      'On-demand backup requested',
      `An on-demand ${TYPE_NAME[type]} backup of ${site.name} was requested.`,
      site.id,
    );
    completeBackupLater(rt, backup.requestId);
    return { data: ondemandView(backup, now) };
  },

  getSiteOndemandBackup: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    const backup = findOndemand(ctx, site, ctx.params.ondemand_backup_id);
    return { data: ondemandView(backup, ctx.rt.clock.nowSeconds()) };
  },

  deleteSiteOndemandBackup: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    const backup = findOndemand(ctx, site, ctx.params.ondemand_backup_id);
    // Repeating the delete of a backup already being deleted answers the same, queues nothing.
    if (backup.status !== 'deleting') {
      backup.status = 'deleting';
      ctx.activity(
        'backup.deleted',
        'On-demand backup deleted',
        `On-demand backup ${backup.id ?? backup.requestId} of ${site.name} is being deleted.`,
        site.id,
      );
      removeBackupLater(ctx.rt, backup.requestId);
    }
    return { data: ondemandView(backup, ctx.rt.clock.nowSeconds()) };
  },

  getSiteOndemandBackupDownload: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    const backup = findOndemand(ctx, site, ctx.params.ondemand_backup_id);
    // Nothing to download until the backup is complete.
    if (backup.id === null || backup.backupTimestamp === null) throw notFound();
    return download(ctx, site, backupPayload(site, backup.id, backup.type, backup.backupTimestamp), backup.id);
  },

  listSiteRestores: (ctx) => {
    const site = ctx.site(ctx.params.site_id);
    const data = restoresOf(ctx.state, site.id)
      .sort((a, b) => b.created.localeCompare(a.created) || b.id - a.id)
      .map(restoreView);
    return { data };
  },

  createSiteRestore: (ctx) => {
    const { state, rt, body } = ctx;
    const site = ctx.site(ctx.params.site_id);
    // Another site of the account to restore onto: 404 when there is no such site.
    const target = body.restore_on_site_id === undefined ? site : ctx.site(body.restore_on_site_id);
    restoreSource(state, site, body.filesystem_id, 'fs', 'filesystem_id');
    restoreSource(state, site, body.database_id, 'db', 'database_id');
    // A restore onto a site that is already being restored is accepted (the documentation states
    // no condition): the site stays in maintenance mode until the last one ends, then gets back
    // the mode it had before the first.
    const running = restoresOf(state, target.id).find(
      (r) => r.status === 'in_progress' && (r.targetSiteId ?? r.siteId) === target.id,
    );
    const restore: RestoreRecord = {
      id: nextId(state, 'restore', 6701),
      siteId: site.id,
      created: rt.clock.nowIso(),
      status: 'in_progress',
      logMessages: [
        'Restore requested.',
        target.id === site.id
          ? `Restoring filesystem backup ${body.filesystem_id} and database backup ${body.database_id}.`
          : `Restoring filesystem backup ${body.filesystem_id} and database backup ${body.database_id} of ${site.name} onto ${target.name}.`,
        'Site placed in maintenance mode.',
      ],
      maintenanceBefore: running ? (running.maintenanceBefore ?? false) : target.maintenanceMode,
    };
    if (target.id !== site.id) restore.targetSiteId = target.id;
    state.restores.push(restore);
    // Part 3: the site is inaccessible (maintenance mode) during the restore.
    target.maintenanceMode = true;
    target.restoring = true;
    ctx.activity(
      'backup.restored',
      'Restore requested',
      target.id === site.id
        ? `A restore of ${site.name} was requested.`
        : `A restore of ${site.name}'s backups onto ${target.name} was requested.`,
      target.id,
    );
    const started = rt.publishAlert({
      type: 'site.restore_started',
      category: 'in_progress',
      title: 'Restoring site',
      message: `Restoring ${target.name}; the site is in maintenance mode until the restore ends.`,
      icon: 'backup',
      siteId: target.id,
    });
    finishRestoreLater(rt, restore.id, started.id);
    return { data: null };
  },
});
