// Credentials, addresses and the client: flags, then the environment, then what `auth login` stored.
// The client gets its bearer token from here: the cached token while it is valid, else a new one
// from the token operation of the spec (`auth.createToken`), cached in the config directory.
import { createClient, type HostingApiClient } from '@hosting-api/client';
import { type Env, readCredentials, readToken, type StoredCredentials, writeToken } from './config';
import { nodeFetch } from './http';
import { UsageError } from './values';

/** No credentials, or half of them: exit status 4 like a 401. */
export class CredentialsError extends Error {
  override name = 'CredentialsError';
}

export interface GlobalOptions {
  baseUrl?: string;
  authUrl?: string;
  retries?: number;
}

export interface Session {
  client: HostingApiClient;
  baseUrl: string;
  authUrl: string;
  clientId: string;
  /** Where the credentials came from, for `auth status` (never the secret itself). */
  source: 'environment' | 'stored';
}

const trim = (url: string) => url.replace(/\/+$/, '');

/** The addresses to talk to, without credentials (`auth login` has its own). */
export function addresses(global: GlobalOptions, env: Env, stored?: StoredCredentials) {
  const baseUrl = global.baseUrl ?? env.HOSTING_API_BASE_URL ?? stored?.baseUrl;
  if (!baseUrl)
    throw new UsageError('no API address: pass --base-url or set HOSTING_API_BASE_URL (the base ending in /v1)');
  if (!/^https?:\/\/[^/]/.test(baseUrl))
    throw new UsageError(`--base-url must be an http(s) URL (got ${JSON.stringify(baseUrl)})`);
  const authUrl = global.authUrl ?? env.HOSTING_API_AUTH_URL ?? stored?.authUrl ?? trim(baseUrl).replace(/\/v1$/, '');
  if (!/^https?:\/\/[^/]/.test(authUrl))
    throw new UsageError(`--auth-url must be an http(s) URL (got ${JSON.stringify(authUrl)})`);
  return { baseUrl: trim(baseUrl), authUrl: trim(authUrl) };
}

/** Reuse a cached token until a minute before it expires (half its lifetime when it is shorter than two minutes). */
export function expiry(now: number, expiresIn: unknown): number {
  const lifetime = typeof expiresIn === 'number' && expiresIn > 0 ? expiresIn * 1000 : 0;
  return now + (lifetime >= 120_000 ? lifetime - 60_000 : lifetime / 2);
}

/** Requests a token with the spec's token operation and caches it; returns it. */
export async function requestToken(
  client: HostingApiClient,
  env: Env,
  credentials: { clientId: string; clientSecret: string; authUrl: string },
): Promise<string> {
  const data = await client.auth.createToken({
    grant_type: 'client_credentials',
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
  });
  const accessToken = (data as { access_token?: unknown } | null)?.access_token;
  if (typeof accessToken !== 'string' || !accessToken)
    throw new Error(`the token service at ${credentials.authUrl}/auth/token answered without an access_token`);
  const expiresAt = expiry(Date.now(), (data as { expires_in?: unknown }).expires_in);
  writeToken(env, { clientId: credentials.clientId, authUrl: credentials.authUrl, accessToken, expiresAt });
  return accessToken;
}

export function openSession(global: GlobalOptions, env: Env): Session {
  const fromEnv = env.HOSTING_API_CLIENT_ID || env.HOSTING_API_CLIENT_SECRET;
  if (fromEnv && !(env.HOSTING_API_CLIENT_ID && env.HOSTING_API_CLIENT_SECRET))
    throw new CredentialsError(
      `set both HOSTING_API_CLIENT_ID and HOSTING_API_CLIENT_SECRET (only ${env.HOSTING_API_CLIENT_ID ? 'HOSTING_API_CLIENT_ID' : 'HOSTING_API_CLIENT_SECRET'} is set)`,
    );
  const stored = readCredentials(env);
  const { baseUrl, authUrl } = addresses(global, env, stored);
  const credentials = fromEnv
    ? { clientId: env.HOSTING_API_CLIENT_ID!, clientSecret: env.HOSTING_API_CLIENT_SECRET! }
    : stored;
  if (!credentials)
    throw new CredentialsError(
      'no credentials: set HOSTING_API_CLIENT_ID and HOSTING_API_CLIENT_SECRET, or run `hosting-api auth login`',
    );
  const { clientId, clientSecret } = credentials;
  const client: HostingApiClient = createClient({
    baseUrl,
    authUrl,
    maxRetries: global.retries,
    fetch: nodeFetch,
    accessToken: async ({ forceRefresh }) => {
      if (!forceRefresh) {
        const cached = readToken(env);
        if (cached && cached.clientId === clientId && cached.authUrl === authUrl && Date.now() < cached.expiresAt)
          return cached.accessToken;
      }
      return requestToken(client, env, { clientId, clientSecret, authUrl });
    },
  });
  return { client, baseUrl, authUrl, clientId, source: fromEnv ? 'environment' : 'stored' };
}
