// The ledger of a live run: every resource the run created, recorded from its own create answers
// (the ids and `links` of the answer), every delete it sent, and every setting it changed with its
// value before. Clean-up deletes exactly what the ledger says the run created and did not delete
// itself, children first, and never anything else; a setting is put back from the value recorded.
// The phases run in processes of their own: each appends to one file (CONTRACT_LEDGER, set by
// main.ts), and main.ts reads it after the last phase.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { Api } from './api';
import { evaluate } from './checks/support';
import { idOf, itemsOf, matches, paramNames } from './live-lists';
import { isRead } from './safety';
import type { Json, Operation } from './types';

/** One line of the ledger: what the run did to one path, and which phase and operation did it. */
export interface Entry {
  /** `sent`: a write the run sent (its concrete path), for telling the run's doing from others'. */
  kind: 'created' | 'deleted' | 'changed' | 'restored' | 'not restored' | 'sent';
  /** The path under the base URL: the created resource's (its delete goes there), or the setting's read. */
  path: string;
  by: string;
  /** changed: the value before; not restored: why. */
  was?: Json;
  why?: string;
}

/** The run's ledger: entries appended to `file` (when given) and kept in memory. */
export function openLedger(file = process.env.CONTRACT_LEDGER) {
  const mine: Entry[] = [];
  return {
    add(entry: Entry) {
      mine.push(entry);
      if (file) appendFileSync(file, `${JSON.stringify(entry)}\n`);
    },
    /** Every entry of the run (all phases when the ledger is a file). */
    entries(): Entry[] {
      if (!file || !existsSync(file)) return [...mine];
      return readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
    },
  };
}
export type Ledger = ReturnType<typeof openLedger>;

/**
 * Records what one answer of the target says the run did: a 2xx of a create → `created` at the
 * path of the create's link to a delete (else the item under the create's collection, with the id
 * the answer gives); a 2xx of a DELETE of an item → `deleted`. Every phase calls it on its answers.
 */
export function createObserver(operations: Operation[], ledger: Ledger) {
  const ops = operations.filter((o) => !o.outsideV1);
  const byId = new Map(ops.map((o) => [o.operationId, o]));
  const opAt = (method: string, path: string) =>
    ops
      .filter((o) => o.method === method.toLowerCase() && matches(o.path, path))
      // The most specific template first (/sites/{id}/clone over /sites/{id}/{x}).
      .sort((a, b) => paramNames(a.path).length - paramNames(b.path).length)[0];
  const paramsOf = (o: Operation, path: string) => {
    const values = path.split('/');
    return Object.fromEntries(
      o.path
        .split('/')
        .map((part, i) => [part.slice(1, -1), decodeURIComponent(values[i] ?? '')])
        .filter((_, i) => /^\{.+\}$/.test(o.path.split('/')[i] ?? '')),
    );
  };
  /** The path a created resource is deleted at, from the create's answer; undefined when it names none. */
  function createdAt(o: Operation, path: string, sent: Json, json: Json): string | undefined {
    const params = paramsOf(o, path);
    for (const link of o.links ?? []) {
      const target = byId.get(link.operationId);
      if (target?.method !== 'delete') continue;
      const values = Object.entries(link.parameters).map(([n, e]) => [n, evaluate(e, { params, json })]);
      if (values.some(([, v]) => v === undefined || v === null)) return undefined;
      return target.path.replace(/\{([^}]+)\}/g, (_, n: string) =>
        encodeURIComponent(String(Object.fromEntries(values)[n])),
      );
    }
    // No link to a delete: the item of the create's collection that has a delete, with the id answered.
    const collection = o.path.replace(/\/create$/, '');
    const del = ops.find(
      (d) =>
        d.method === 'delete' &&
        d.path.startsWith(`${collection}/{`) &&
        paramNames(d.path).length === paramNames(collection).length + 1,
    );
    if (!del) return undefined;
    const param = paramNames(del.path).at(-1) as string;
    const nested = itemsOf(json);
    const item = nested.length
      ? nested.find((i) => Object.entries(sent ?? {}).every(([k, v]) => typeof v !== 'string' || i[k] === v))
      : json?.data;
    const id = item ? idOf(item, param) : undefined;
    if (id === undefined || id === null) return undefined;
    return `${path.replace(/\/create$/, '')}/${encodeURIComponent(String(id))}`;
  }
  return (
    method: string,
    pathAndQuery: string,
    status: number,
    sentText: string | undefined,
    answerText: string,
    by: string,
  ) => {
    if (status < 200 || status >= 300) return;
    const path = pathAndQuery.split('?')[0] as string;
    const o = opAt(method, path);
    if (!o || isRead(o)) return;
    if (o.method === 'delete' && /\}$/.test(o.path))
      return ledger.add({ kind: 'deleted', path, by: `${by} ${o.operationId}` });
    const creates =
      (o.effects ?? []).some((e) => e.kind === 'created') ||
      o.links?.some((l) => byId.get(l.operationId)?.method === 'delete');
    // A POST to a list (a restore, an on-demand backup) adds to it, whether or not it says what.
    const addsTo =
      o.method === 'post' && ops.some((g) => g.method === 'get' && g.path === o.path.replace(/\/create$/, ''));
    if (o.method !== 'post' || !(creates || addsTo)) return;
    let json: Json;
    let sent: Json;
    try {
      json = JSON.parse(answerText);
      sent = sentText ? JSON.parse(sentText) : undefined;
    } catch {}
    const at = creates ? createdAt(o, path, sent, json) : undefined;
    if (at) ledger.add({ kind: 'created', path: at, by: `${by} ${o.operationId}` });
    // Added something the answer does not name: a new item of that list is the run's, not another client's.
    else ledger.add({ kind: 'sent', path: path.replace(/\/create$/, ''), by: `${by} ${o.operationId}` });
  };
}
export type Observer = ReturnType<typeof createObserver>;

/**
 * Settings that exist once per account, which a write changes and the run can put back: where
 * they are read, and the requests that write what was read before back, from that read and one
 * now. A write to something that existed before the run that is not here, and that no operation
 * undoes, is not sent (`cannotPutBack`).
 */
const SETTINGS: Record<
  string,
  { read: string; value?: (data: Json) => Json; putBack: (was: Json, api: Api) => Promise<unknown> }
> = {
  // The account's defaults (its other fields are counts and details that no write sets).
  updateAccount: {
    read: '/account',
    value: (a) => ({ defaultPhpVersion: a?.defaultPhpVersion, defaultDatacenter: a?.defaultDatacenter ?? null }),
    putBack: (was, api) =>
      api('PUT', '/account', { php_version: was?.defaultPhpVersion, datacenter_code: was?.defaultDatacenter ?? null }),
  },
  // The attached add-ons answer names and quantities; the write takes the add-on's id (GET /account/addons).
  updateAccountAddon: {
    read: '/account/addons/attached',
    putBack: async (was, api) => {
      const quantity = (list: Json, name: string) =>
        (Array.isArray(list) ? list : []).find((a: Json) => a.name === name)?.quantity ?? 0;
      const now = (await api('GET', '/account/addons/attached')).json?.data;
      for (const addon of itemsOf((await api('GET', '/account/addons')).json))
        if (quantity(now, addon.name) !== quantity(was, addon.name))
          await api('PUT', '/account/addons', { addon_id: addon.id, quantity: quantity(was, addon.name) });
    },
  },
};

/** Why a write is not sent where it would change what existed before the run (nothing undoes it); undefined: it may be. */
function cannotPutBack(o: Pick<Operation, 'operationId'>): string | undefined {
  switch (o.operationId) {
    case 'updateCollaboratorAccountLevelAccess':
      return 'it creates a collaborator account for the e-mail it sends (with an invitation), which no operation removes';
    case 'batchCreateCollaborators':
    case 'batchDestroyCollaborators':
      return 'it changes the collaborators of the sites its body names, which may be sites that existed before the run';
    case 'createSiteRestore':
      return 'it adds a restore to the site it is sent to, and no operation removes a restore';
    default:
      return undefined;
  }
}

/**
 * Before a write of a setting (SETTINGS): reads it and records its value; answers `putBack()`,
 * which writes that value back, reads it again and records `restored`, or `not restored` with why
 * (answered as a problem). Undefined for an operation that changes no setting of the account.
 */
async function rememberSetting(o: Operation, api: Api, ledger: Ledger, by: string) {
  const setting = SETTINGS[o.operationId];
  if (!setting) return undefined;
  const read = async () => {
    const data = (await api('GET', setting.read)).json?.data;
    return setting.value ? setting.value(data) : data;
  };
  const was = await read();
  const at = { path: setting.read, by: `${by} ${o.operationId}` };
  ledger.add({ kind: 'changed', ...at, was });
  return async (): Promise<string | undefined> => {
    const now = read;
    let why: string;
    try {
      if (JSON.stringify(await now()) !== JSON.stringify(was)) await setting.putBack(was, api);
      const after = await now();
      if (JSON.stringify(after) === JSON.stringify(was)) return void ledger.add({ kind: 'restored', ...at });
      why = `it reads ${JSON.stringify(after)?.slice(0, 200)}, was ${JSON.stringify(was)?.slice(0, 200)}`;
    } catch (error) {
      why = (error as Error).message;
    }
    ledger.add({ kind: 'not restored', ...at, why });
    return `${o.operationId} changed ${setting.read} and the run could not put it back: ${why}`;
  };
}

/**
 * Deletes what the ledger says the run created and did not delete, children first, each once it
 * is no longer busy (a state ending in -ing); nothing else. `scope`: only what a phase created
 * (`examples`: the examples phase cleans up after itself; the rest is main.ts's). Answers the
 * problems, one per leftover.
 */
async function cleanUp(
  ledger: Ledger,
  api: Api,
  waitFor: (what: string, probe: () => Promise<unknown>) => Promise<unknown>,
  scope = '',
) {
  const problems: string[] = [];
  for (const { path, by } of leftOver(ledger.entries()).filter((e) => e.by.startsWith(scope))) {
    await waitFor(`${path} idle before its delete`, async () => {
      const r = await api('GET', path);
      return r.statusCode !== 200 || !/ing$/.test(r.json?.data?.state ?? r.json?.data?.status ?? '');
    });
    const r = await api('DELETE', path).catch((e: Error) => ({ statusCode: 0, body: e.message }));
    // Gone already (a child of something deleted before it): deleted.
    if (r.statusCode === 404) ledger.add({ kind: 'deleted', path, by: 'clean-up (already gone)' });
    else if (r.statusCode >= 300)
      problems.push(`DELETE ${path} (created by ${by}) answered ${r.statusCode}: ${r.body.slice(0, 160)}`);
    else if (!ledger.entries().some((e) => e.kind === 'deleted' && e.path === path))
      ledger.add({ kind: 'deleted', path, by: 'clean-up' });
  }
  return problems;
}

/** What the ledger says the run created and has not deleted, deepest paths (children) first. */
export function leftOver(entries: Entry[]) {
  const deleted = new Set(entries.filter((e) => e.kind === 'deleted').map((e) => e.path));
  const created = entries.filter((e) => e.kind === 'created' && !deleted.has(e.path));
  const unique = [...new Map(created.map((e) => [e.path, e])).values()];
  return unique.sort((a, b) => b.path.split('/').length - a.path.split('/').length);
}

/** The ledger read back for the report: what was created, deleted, changed and restored, one line each. */
export function ledgerReport(entries: Entry[]) {
  const of = (kind: Entry['kind']) =>
    entries.filter((e) => e.kind === kind).map((e) => `${e.path} (${e.by}${e.why ? `: ${e.why}` : ''})`);
  return {
    created: of('created'),
    deleted: of('deleted'),
    changed: of('changed'),
    restored: of('restored'),
    notRestored: of('not restored'),
  };
}

export { cannotPutBack, cleanUp, rememberSetting, SETTINGS };
