// One way to read a target's address, shared by the client, the CLI, the MCP server and the
// contract gate: a base URL ending in the API's version path (/v1) and the token service's root,
// derived from it when not given (the base URL without /v1). No imports: the client bundles it.

/** The API's version path: every base URL ends in it. */
export const VERSION_PATH = '/v1';

/** A target address the caller must fix; its message names the flag and the fix. */
export class TargetError extends Error {
  constructor(message) {
    super(message);
    this.name = 'TargetError';
  }
}

const trim = (url) => url.replace(/\/+$/, '');

function httpUrl(name, value) {
  let url;
  try {
    url = new URL(value);
  } catch {}
  if (!url || !/^https?:$/.test(url.protocol) || !url.host)
    throw new TargetError(`${name} is not an http(s) URL: "${value}".`);
  return url;
}

/**
 * The addresses of a target: `baseUrl` (required, must end in /v1) and `authUrl` (optional, default
 * the base URL without /v1), both without a trailing `/`. `names` are the flags the caller offers,
 * for the messages (default `--base-url`, `--auth-url`). Throws a TargetError saying what to fix.
 */
export function resolveTarget({ baseUrl, authUrl }, names = {}) {
  const baseName = names.baseUrl ?? '--base-url';
  const authName = names.authUrl ?? '--auth-url';
  if (!baseUrl) throw new TargetError(`no API address: give ${baseName}, the API base URL ending in ${VERSION_PATH}.`);
  const base = httpUrl(baseName, baseUrl);
  if (!/\/v1\/?$/.test(base.pathname))
    throw new TargetError(
      `${baseName} must end in ${VERSION_PATH}, the API's version path (got ${baseUrl}); for example ${new URL(VERSION_PATH, base).href}.`,
    );
  const resolvedBase = trim(baseUrl);
  if (authUrl) httpUrl(authName, authUrl);
  return { baseUrl: resolvedBase, authUrl: trim(authUrl || resolvedBase.slice(0, -VERSION_PATH.length)) };
}
