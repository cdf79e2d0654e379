// Who may reach the control routes (/__sandbox/…): they reset and rewrite the whole state and dump
// it, with no token, so only their user must reach them, not a web page the user happens to visit.
// - Host must be a loopback name (localhost, 127.0.0.1, [::1]) or the address the sandbox binds:
//   a page on a rebinding domain (evil.example resolving to 127.0.0.1) sends its own name.
// - A request a browser sends from another site is refused: an Origin that is not the sandbox's
//   own (nor one named for the control routes, `corsControl`), `Sec-Fetch-Site: cross-site`.
// - A write whose Content-Type is not JSON is refused: forms and text/plain are what a page can
//   send without a preflight.
// The MSW handlers have no network to guard: they do not use this.
import type { IncomingMessage } from 'node:http';
import { ApiError, MESSAGES } from '../domain/errors.js';

export interface ControlGuardOptions {
  /** The address the sandbox binds (its name is accepted as Host besides the loopback names). */
  host: string;
  /** Origins allowed to call the control routes from a page (the user named them). */
  origins?: true | readonly string[];
}

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** The hostname of a Host header (`127.0.0.1:4011` → `127.0.0.1`, `[::1]:4011` → `[::1]`). */
function hostname(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.indexOf(':');
  return colon === -1 ? h : h.slice(0, colon);
}

export function controlGuard(options: ControlGuardOptions): (req: IncomingMessage) => ApiError | null {
  const bound = options.host.includes(':') ? `[${options.host.toLowerCase()}]` : options.host.toLowerCase();
  const hosts = new Set([...LOOPBACK, bound]);
  const named = options.origins;
  const refuse = (why: string) => new ApiError(403, MESSAGES.forbidden, [why]);
  return (req) => {
    const host = req.headers.host;
    if (host === undefined || !hosts.has(hostname(host))) {
      return refuse(
        `control routes answer only to Host ${[...hosts].join(', ')} (got ${host === undefined ? 'none' : JSON.stringify(host)})`,
      );
    }
    const origin = req.headers.origin;
    const namedOrigin = origin !== undefined && (named === true || (named?.includes(origin) ?? false));
    if (origin !== undefined && !namedOrigin) {
      let same = false;
      try {
        same = new URL(origin).host === host.toLowerCase();
      } catch {}
      if (!same) return refuse(`control routes do not answer pages of other origins (Origin ${origin})`);
    }
    const site = req.headers['sec-fetch-site'];
    if (!namedOrigin && (site === 'cross-site' || site === 'same-site')) {
      return refuse('control routes do not answer requests from other sites');
    }
    const type = req.headers['content-type'];
    if (type !== undefined && req.method !== 'GET' && !/^\s*application\/json\s*(;|$)/i.test(type)) {
      return new ApiError(415, MESSAGES.badRequest, [
        `control routes take Content-Type application/json (or no body), got ${type}`,
      ]);
    }
    return null;
  };
}
