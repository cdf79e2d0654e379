// The one reading of a target's address (`@hosting-api/openapi/target`, bundled in): a base URL
// ending in /v1, and the token service's root derived from it. The CLI, the MCP server and the
// contract gate read addresses with the same function. Typed here so that the declarations of
// this package name no other package.
import { resolveTarget as resolve, TargetError as TargetErrorClass } from '@hosting-api/openapi/target';

export interface Target {
  baseUrl: string;
  authUrl: string;
}

/**
 * `baseUrl` (must end in /v1) and `authUrl` (default: `baseUrl` without /v1), without a trailing
 * `/`. Throws a TargetError naming the option (`names`, default `--base-url`/`--auth-url`) and the fix.
 */
export const resolveTarget: (
  target: { baseUrl?: string | undefined; authUrl?: string | undefined },
  names?: { baseUrl?: string; authUrl?: string },
) => Target = resolve;

/** A base or auth URL the caller must fix (not an http(s) URL, or a base without /v1). */
export const TargetError: { new (message: string): Error; prototype: Error } = TargetErrorClass;
