// Credentials, addresses and the client: flags, then the environment, then what `auth login` stored.
// The client gets its bearer token from here: the cached token while it is valid, else a new one
// from the token operation of the spec (`auth.createToken`), cached in the config directory.
import { createClient, type HostingApiClient, resolveTarget } from '@hosting-api/client';
import { type Env, readCredentials, readToken, type StoredCredentials, writeToken } from './config';
import { limitedFetch } from './http';
import { UsageError } from './values';

/** No credentials, or half of them: exit status 4 like a 401. */
export class CredentialsError extends Error {
  override name = 'CredentialsError';
}

export interface GlobalOptions {
  baseUrl?: string;
  authUrl?: string;
  retries?: number;
  /** Per attempt, ms (`--timeout`, HOSTING_API_TIMEOUT). */
  timeoutMs?: number;
  /** Cap on an answer's body (`--max-size`, HOSTING_API_MAX_SIZE). */
  maxBytes?: number;
  /** `--dry-run`: the requests are recorded here and none is sent. */
  dryRun?: DryRun;
}

/** A request `--dry-run` would have sent. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}
export interface DryRun {
  requests: RecordedRequest[];
}
/** What the dry run's fetch throws instead of sending. */
export class DryRunStop extends Error {
  override name = 'DryRunStop';
}

/** The client's fetch for these options: capped and timed, or the dry run's recorder. */
export function fetchFor(global: GlobalOptions) {
  const dry = global.dryRun;
  if (!dry) return limitedFetch({ maxBytes: global.maxBytes });
  return (url: string, init: RequestInit = {}): Promise<Response> => {
    const body = init.body === undefined || init.body === null ? undefined : String(init.body);
    dry.requests.push({
      method: init.method ?? 'GET',
      url,
      headers: { ...(init.headers as Record<string, string>) },
      ...(body === undefined ? {} : { body }),
    });
    return Promise.reject(new DryRunStop('dry run: not sent'));
  };
}

export interface Session {
  client: HostingApiClient;
  baseUrl: string;
  authUrl: string;
  clientId: string;
  /** Where the credentials came from, for `auth status` (never the secret itself). */
  source: 'environment' | 'stored';
}

/** The addresses to talk to, without credentials (`auth login` has its own). */
export function addresses(global: GlobalOptions, env: Env, stored?: StoredCredentials) {
  const baseUrl = global.baseUrl ?? env.HOSTING_API_BASE_URL ?? stored?.baseUrl;
  if (!baseUrl)
    throw new UsageError('no API address: pass --base-url or set HOSTING_API_BASE_URL (the base ending in /v1)');
  // The profile's token service goes with the profile's API: another base URL brings its own.
  const storedAuth = baseUrl === stored?.baseUrl ? stored.authUrl : undefined;
  // The one reading of an address the client, the MCP server and the contract gate share.
  return resolveTarget({ baseUrl, authUrl: global.authUrl ?? env.HOSTING_API_AUTH_URL ?? storedAuth });
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
  if (!credentials && !global.dryRun)
    throw new CredentialsError(
      'no credentials: set HOSTING_API_CLIENT_ID and HOSTING_API_CLIENT_SECRET, or run `hosting-api auth login`',
    );
  const { clientId, clientSecret } = credentials ?? { clientId: '(none)', clientSecret: '' };
  const client: HostingApiClient = createClient({
    baseUrl,
    authUrl,
    maxRetries: global.dryRun ? 0 : global.retries,
    timeout: global.timeoutMs,
    fetch: fetchFor(global),
    accessToken: async ({ forceRefresh }) => {
      // A dry run sends nothing, the token request included: its Authorization header is masked anyway.
      if (global.dryRun) return 'dry-run';
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
