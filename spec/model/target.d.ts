// Types of @hosting-api/openapi/target (target.js).
export declare const VERSION_PATH: '/v1';
export declare class TargetError extends Error {}
/**
 * The addresses of a target: `baseUrl` must end in /v1; `authUrl` defaults to the base URL without
 * /v1. Both come back without a trailing `/`. Throws a TargetError whose message names the flag.
 */
export declare function resolveTarget(
  target: { baseUrl?: string | undefined; authUrl?: string | undefined },
  names?: { baseUrl?: string; authUrl?: string },
): { baseUrl: string; authUrl: string };
