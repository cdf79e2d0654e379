// The auth checks of an API request (part 5): the bearer token of the Authorization header and the
// scopes an operation needs. Tokens themselves (issue, check, revoke) are domain/tokens.ts.
import type { IncomingMessage } from 'node:http';

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const PLAIN_BEARER = /^Bearer [^\s]+$/;

export function bearer(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  // The usual `Bearer <token>` without a capture (a slice is cheaper); the regex for the rest.
  if (PLAIN_BEARER.test(header)) return header.slice(7);
  const match = BEARER.exec(header);
  return match?.[1] ?? null;
}

/** The lacking scopes, or null (no array on the usual path). */
export function missingScopes(required: readonly string[], granted: readonly string[]): string[] | null {
  let missing: string[] | null = null;
  for (const scope of required) {
    if (granted.includes(scope)) continue;
    missing ??= [];
    missing.push(scope);
  }
  return missing;
}
