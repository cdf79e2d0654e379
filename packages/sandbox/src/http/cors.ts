// Cross-origin access for pages served from another origin (a dev server calling the sandbox with
// fetch). Off unless `cors` is set: `true` allows any origin, a list allows those origins only.
// A preflight (OPTIONS with Access-Control-Request-Method) to a path the sandbox serves, control
// routes included, is answered 204 with the path's methods and the request headers the API uses;
// every answer to an allowed origin carries Access-Control-Allow-Origin and exposes the response
// headers the spec documents. Requests from other origins are answered exactly as without CORS.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SpecModel } from '@hosting-api/openapi/model';

/** `true`: any origin; a list: exactly those origins (scheme://host[:port]). */
export type CorsOption = true | string[];

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** Request headers a caller of the API sends: the token, the body's type, and Prefer (the mock's). */
const REQUEST_HEADERS = ['Authorization', 'Content-Type', 'Prefer'];

/** The response header names the spec documents for any operation (e.g. WWW-Authenticate). */
export function documentedResponseHeaders(model: SpecModel): string[] {
  const names = model.operations.flatMap((op) =>
    Object.values(op.responses).flatMap((response) => Object.keys(response.headers ?? {})),
  );
  return [...new Set(names)].sort();
}

/**
 * Returns a request pre-handler: it adds the CORS headers for an allowed origin and answers a
 * preflight itself (returns true), or leaves the request to the API (returns false).
 */
export function corsHandler(
  option: CorsOption,
  controlOption: CorsOption,
  exposed: string[],
  methodsOf: (path: string) => string[],
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const allows = (o: CorsOption) => (o === true ? () => true : (origin: string) => o.includes(origin));
  const allowed = allows(option);
  // The control routes reset, dump and rewrite the state: only origins named for them (corsControl,
  // CLI --cors-control) reach them from a page, never those of `cors` alone.
  const allowedControl = allows(controlOption);
  return (req, res) => {
    const origin = req.headers.origin;
    if (!origin) return false;
    const control = req.url?.startsWith('/__sandbox/') === true;
    if (!(control ? allowedControl(origin) : allowed(origin))) return false;
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    if (exposed.length) res.setHeader('Access-Control-Expose-Headers', exposed.join(', '));
    if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined) return false;
    const methods = methodsOf(req.url ?? '/');
    // A path the sandbox does not serve: the API's own 404 answers it.
    if (!methods.length) return false;
    res.writeHead(204, {
      'Access-Control-Allow-Methods': methods.join(', '),
      'Access-Control-Allow-Headers': REQUEST_HEADERS.join(', '),
      'Access-Control-Max-Age': '600',
      'Content-Length': '0',
    });
    res.end();
    return true;
  };
}

/** The methods a router serves for a path (the request URL, query included). */
export const routerMethods =
  (find: (method: (typeof METHODS)[number], url: string) => unknown) =>
  (url: string): string[] =>
    METHODS.filter((method) => find(method, url) !== null);

/** Parses the CLI's --cors value: "*" (any origin) or a comma-separated list of origins. */
export function parseCorsOrigins(value: string): CorsOption {
  if (value === '*') return true;
  const origins = value.split(',').map((s) => s.trim());
  for (const origin of origins) {
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {}
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== origin)
      throw new Error(
        `--cors takes origins such as http://127.0.0.1:5173 (scheme, host, port; no path), got "${origin}"`,
      );
  }
  return origins;
}
