// The area registry: every area file's handlers, merged. A duplicate operationId is a startup
// error, so two areas cannot silently claim the same operation.
import type { AreaHandlers } from '../area.js';
import account from './account.js';
import alerts from './alerts.js';
import backups from './backups.js';
import collaborators from './collaborators.js';
import dns from './dns.js';
import firewall from './firewall.js';
import git from './git.js';
import logs from './logs.js';
import muPlugins from './mu-plugins.js';
import notes from './notes.js';
import plugins from './plugins.js';
import siteOperations from './site-operations.js';
import sites from './sites.js';
import token from './token.js';

const areas: Record<string, AreaHandlers> = {
  token,
  account,
  sites,
  notes,
  backups,
  git,
  siteOperations,
  alerts,
  collaborators,
  dns,
  logs,
  firewall,
  plugins,
  muPlugins,
};

function merge(all: Record<string, AreaHandlers>): AreaHandlers {
  const merged: Record<string, unknown> = {};
  const owner: Record<string, string> = {};
  for (const [area, handlers] of Object.entries(all)) {
    for (const [operationId, handler] of Object.entries(handlers)) {
      if (owner[operationId]) {
        throw new Error(`operation ${operationId} is handled by both ${owner[operationId]} and ${area}`);
      }
      owner[operationId] = area;
      merged[operationId] = handler;
    }
  }
  return merged as AreaHandlers;
}

export const handlers = merge(areas);
export const areaOf = (operationId: string) => Object.entries(areas).find(([, h]) => operationId in h)?.[0];
