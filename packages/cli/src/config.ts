// Where the CLI keeps what `auth login` stores: the credentials and the cached token, each in a
// file of mode 0600 in a directory of mode 0700 under the user's config directory
// ($XDG_CONFIG_HOME/hosting-api, else ~/.config/hosting-api; %APPDATA%\hosting-api on Windows).
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { UsageError } from './values';

export type Env = Record<string, string | undefined>;

export interface StoredCredentials {
  clientId: string;
  clientSecret: string;
  baseUrl?: string;
  authUrl?: string;
}

export interface CachedToken {
  /** Whose token it is: a token is reused only for the same client at the same token service. */
  clientId: string;
  authUrl: string;
  accessToken: string;
  /** Epoch ms after which the token is not used. */
  expiresAt: number;
}

export function configDir(env: Env): string {
  const base =
    env.XDG_CONFIG_HOME ||
    (process.platform === 'win32' && env.APPDATA ? env.APPDATA : join(env.HOME || homedir(), '.config'));
  return join(base, 'hosting-api');
}

/** A profile's name: HOSTING_API_PROFILE (`--profile` sets it for the run), else `default`. */
export function profileName(env: Env): string {
  const name = env.HOSTING_API_PROFILE || 'default';
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(name))
    throw new UsageError(
      `--profile (or HOSTING_API_PROFILE) must be letters, digits, - and _ (got ${JSON.stringify(name)})`,
    );
  return name;
}

/** Where a profile's files are: the config directory for `default`, `profiles/<name>/` in it for the others. */
export function profileDir(env: Env): string {
  const name = profileName(env);
  return name === 'default' ? configDir(env) : join(configDir(env), 'profiles', name);
}

export const credentialsPath = (env: Env) => join(profileDir(env), 'credentials.json');
export const tokenPath = (env: Env) => join(profileDir(env), 'token.json');

function readJson<T>(path: string): T | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined; // a damaged file counts as absent; `auth login` writes it again
  }
}

/** Writes a file only its owner can read (0600), in a directory only its owner can enter (0700). */
function writePrivate(path: string, value: unknown, env: Env): void {
  // Every directory from the config directory down is the owner's alone, also one that existed
  // before with a looser mode (mkdir's mode applies only to the directories it creates).
  const root = configDir(env);
  const dir = profileDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (let d = dir; d.startsWith(root); d = dirname(d)) {
    chmodSync(d, 0o700);
    if (d === root) break;
  }
  // Written aside and renamed over: a command running at the same time reads the old file or the
  // new one, never half of one.
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600); // whatever the umask
  renameSync(temporary, path);
}

export const readCredentials = (env: Env) => {
  const c = readJson<StoredCredentials>(credentialsPath(env));
  return c && typeof c.clientId === 'string' && typeof c.clientSecret === 'string' ? c : undefined;
};
export const writeCredentials = (env: Env, c: StoredCredentials) => writePrivate(credentialsPath(env), c, env);
export const readToken = (env: Env) => readJson<CachedToken>(tokenPath(env));
export const writeToken = (env: Env, t: CachedToken) => writePrivate(tokenPath(env), t, env);

/** Deletes what `auth login` stored; returns the files that were there. */
export function forget(env: Env): string[] {
  const removed: string[] = [];
  for (const path of [credentialsPath(env), tokenPath(env)]) {
    try {
      readFileSync(path);
      rmSync(path);
      removed.push(path);
    } catch {
      // not there
    }
  }
  return removed;
}
