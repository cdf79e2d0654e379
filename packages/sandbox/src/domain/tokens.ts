// API applications (client id + secret + scopes) and the tokens issued to them (part 5).
import { randomBase64url } from '../platform.js';

export interface ClientConfig {
  clientId: string;
  clientSecret: string;
  /** Scopes granted to this application's tokens, e.g. ['authorized', 'owner', 'git_edit']. */
  scopes: string[];
}

export interface TokenRecord {
  token: string;
  clientId: string;
  scopes: string[];
  /** Virtual epoch milliseconds. */
  createdAt: number;
  revoked: boolean;
}

export const TOKEN_LIFETIME_SECONDS = 3599;

export const DEFAULT_CLIENTS: ClientConfig[] = [
  { clientId: 'sandbox-client', clientSecret: 'sandbox-secret', scopes: ['authorized', 'owner', 'git_edit'] },
  { clientId: 'sandbox-limited', clientSecret: 'sandbox-limited-secret', scopes: ['authorized'] },
];

/** Most tokens kept (a frozen clock never expires them): past it, the oldest go first. */
export const TOKEN_LIMIT = 10_000;
const REVOKED_REMEMBERED = 1_000;

export class TokenStore {
  private readonly tokens = new Map<string, TokenRecord>();
  /** Virtual time of the last sweep of expired tokens. */
  private sweptAt = Number.NEGATIVE_INFINITY;

  constructor(readonly clients: ClientConfig[]) {}

  client(clientId: unknown, clientSecret: unknown): ClientConfig | undefined {
    return this.clients.find((c) => c.clientId === clientId && c.clientSecret === clientSecret);
  }

  issue(client: ClientConfig, now: number): TokenRecord {
    const record: TokenRecord = {
      token: `sbx_${randomBase64url(24)}`,
      clientId: client.clientId,
      scopes: [...client.scopes],
      createdAt: now,
      revoked: false,
    };
    this.tokens.set(record.token, record);
    // Expired tokens (revoked ones included: they expire too) cannot be used again: they go, at
    // most once a virtual minute; past the limit the oldest go (a Map keeps insertion order).
    if (now - this.sweptAt >= 60_000) this.sweep(now);
    if (this.tokens.size > TOKEN_LIMIT) {
      for (const key of this.tokens.keys()) {
        this.tokens.delete(key);
        if (this.tokens.size <= TOKEN_LIMIT) break;
      }
    }
    return record;
  }

  /** Drops the tokens that have expired by `now`. */
  sweep(now: number): void {
    this.sweptAt = now;
    const lifetime = TOKEN_LIFETIME_SECONDS * 1000;
    for (const [key, record] of this.tokens) if (now >= record.createdAt + lifetime) this.tokens.delete(key);
  }

  get size(): number {
    return this.tokens.size;
  }

  /** Revokes a token of that client; unknown tokens are accepted silently (nothing to revoke). */
  revoke(token: string, client: ClientConfig): void {
    const record = this.tokens.get(token);
    if (record && record.clientId === client.clientId) {
      // Dropped at once; the last revoked ones are remembered (bounded) to say "revoked" rather than "invalid".
      record.revoked = true;
      this.tokens.delete(token);
      this.revoked.add(token);
      if (this.revoked.size > REVOKED_REMEMBERED) this.revoked.delete(this.revoked.values().next().value!);
    }
  }
  private readonly revoked = new Set<string>();

  /** The token record, or the reason it cannot be used. */
  check(token: string, now: number): TokenRecord | string {
    const record = this.tokens.get(token);
    if (!record) return this.revoked.has(token) ? 'The access token has been revoked.' : 'The access token is invalid.';
    if (record.revoked) return 'The access token has been revoked.';
    if (now >= record.createdAt + TOKEN_LIFETIME_SECONDS * 1000) return 'The access token has expired.';
    return record;
  }
}
