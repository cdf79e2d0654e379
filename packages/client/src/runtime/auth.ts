// Where bearer tokens come from: a fixed token, a caller's provider function, or the
// client-credentials token manager (cached, refreshed ahead of expiry, single flight).

/** Returns a bearer token; `forceRefresh` is set after the API rejected the previous one with 401. */
export type TokenProvider = (context: { forceRefresh: boolean }) => string | Promise<string>;

export interface TokenSource {
  /** A token to send now. */
  get(): Promise<string>;
  /** The token to send now when one is at hand without waiting (fixed, or cached and fresh); else undefined and `get()` is used. */
  current?(): string | undefined;
  /** Called after a 401 with the token that failed; returns a fresh token, or undefined when none can be had. */
  refresh(failed: string): Promise<string | undefined>;
  /** Revokes the current token at the token service, when this source can. */
  revoke(): Promise<void>;
}

/** Sends a form-encoded POST to the token service, with the client's retries, timeouts and errors. */
export type FormPoster = (url: string, form: URLSearchParams, operationId: string) => Promise<unknown>;

export function fixedToken(token: string): TokenSource {
  return {
    get: async () => token,
    current: () => token,
    refresh: async () => undefined,
    revoke: async () => {
      throw new Error('revoke() needs clientId and clientSecret: a fixed accessToken cannot be revoked by this client');
    },
  };
}

/**
 * A caller's provider function, asked once for all the calls that need a token at the same time
 * (single flight). After a 401, a call whose token the provider has already replaced gets the
 * replacement without asking again.
 */
export function providedToken(provider: TokenProvider): TokenSource {
  const inflight: { get?: Promise<string>; refresh?: Promise<string> } = {};
  let latest: string | undefined;
  const ask = (kind: 'get' | 'refresh') =>
    (inflight[kind] ??= (async () => (latest = await provider({ forceRefresh: kind === 'refresh' })))().finally(() => {
      inflight[kind] = undefined;
    }));
  return {
    get: () => inflight.refresh ?? ask('get'),
    refresh: async (failed) =>
      latest !== undefined && latest !== failed && !inflight.refresh ? latest : ask('refresh'),
    revoke: async () => {
      throw new Error(
        'revoke() needs clientId and clientSecret: tokens from an accessToken provider are revoked by their provider',
      );
    },
  };
}

interface CachedToken {
  value: string;
  expiresAt: number;
  refreshAt: number;
}

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * Client-credentials tokens: `POST {authUrl}/auth/token` with `grant_type=client_credentials`.
 * The token is reused until shortly before `expires_in` runs out (one minute, or half the lifetime
 * for short-lived tokens); concurrent callers share one token request. When that early renewal
 * fails, the cached token is still used until it expires (`expiresAt`), so a token service that is
 * briefly down does not fail calls that a valid token can make.
 */
export class ClientCredentials implements TokenSource {
  readonly clientId: string;
  readonly #secret: string;
  readonly #authUrl: string;
  readonly #post: FormPoster;
  readonly #now: () => number;
  #current: CachedToken | undefined;
  #inflight: Promise<CachedToken> | undefined;

  constructor(options: {
    clientId: string;
    clientSecret: string;
    authUrl: string;
    post: FormPoster;
    now?: () => number;
  }) {
    this.clientId = options.clientId;
    this.#secret = options.clientSecret;
    this.#authUrl = options.authUrl.replace(/\/+$/, '');
    this.#post = options.post;
    this.#now = options.now ?? Date.now;
  }

  async get(): Promise<string> {
    const fresh = this.current();
    if (fresh !== undefined) return fresh;
    const cached = this.#current;
    try {
      return (await this.#fetchToken()).value;
    } catch (err) {
      if (cached && this.#current === cached && this.#now() < cached.expiresAt) return cached.value;
      throw err;
    }
  }

  current(): string | undefined {
    const current = this.#current;
    return current && this.#now() < current.refreshAt ? current.value : undefined;
  }

  async refresh(failed: string): Promise<string> {
    // Another caller may already have replaced the rejected token.
    if (this.#current && this.#current.value !== failed && this.#now() < this.#current.refreshAt)
      return this.#current.value;
    this.#current = undefined;
    return (await this.#fetchToken()).value;
  }

  async revoke(): Promise<void> {
    const token = this.#current?.value ?? (await this.#inflight?.catch(() => undefined))?.value;
    this.#current = undefined;
    if (!token) return;
    const form = new URLSearchParams({ token, client_id: this.clientId, client_secret: this.#secret });
    await this.#post(`${this.#authUrl}/auth/revoke`, form, 'revokeAccessToken');
  }

  #fetchToken(): Promise<CachedToken> {
    this.#inflight ??= this.#request().finally(() => {
      this.#inflight = undefined;
    });
    return this.#inflight;
  }

  async #request(): Promise<CachedToken> {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: this.clientId,
      client_secret: this.#secret,
    });
    const body = await this.#post(`${this.#authUrl}/auth/token`, form, 'createAccessToken');
    // The API wraps the token in its envelope; a plain OAuth answer is accepted too.
    const envelope = body as { data?: unknown } | null;
    const payload = (envelope && typeof envelope === 'object' && 'data' in envelope ? envelope.data : body) as {
      access_token?: unknown;
      expires_in?: unknown;
    } | null;
    if (!payload || typeof payload.access_token !== 'string' || !payload.access_token) {
      throw new Error(`the token service at ${this.#authUrl}/auth/token answered without an access_token`);
    }
    const lifetimeMs =
      (typeof payload.expires_in === 'number' && payload.expires_in > 0 ? payload.expires_in : 3599) * 1000;
    const issuedAt = this.#now();
    const token = {
      value: payload.access_token,
      expiresAt: issuedAt + lifetimeMs,
      refreshAt: issuedAt + lifetimeMs - Math.min(60_000, lifetimeMs / 2),
    };
    this.#current = token;
    return token;
  }

  toString(): string {
    return `ClientCredentials { clientId: ${JSON.stringify(this.clientId)} }`;
  }

  toJSON(): unknown {
    return { clientId: this.clientId };
  }

  [INSPECT](): string {
    return this.toString();
  }
}
