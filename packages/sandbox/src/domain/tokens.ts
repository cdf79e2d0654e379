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

export class TokenStore {
  private readonly tokens = new Map<string, TokenRecord>();

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
    return record;
  }

  /** Revokes a token of that client; unknown tokens are accepted silently (nothing to revoke). */
  revoke(token: string, client: ClientConfig): void {
    const record = this.tokens.get(token);
    if (record && record.clientId === client.clientId) record.revoked = true;
  }

  /** The token record, or the reason it cannot be used. */
  check(token: string, now: number): TokenRecord | string {
    const record = this.tokens.get(token);
    if (!record) return 'The access token is invalid.';
    if (record.revoked) return 'The access token has been revoked.';
    if (now >= record.createdAt + TOKEN_LIFETIME_SECONDS * 1000) return 'The access token has expired.';
    return record;
  }
}
