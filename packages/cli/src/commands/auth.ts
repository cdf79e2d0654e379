// `hosting-api auth login|logout|status`: store the credentials (with the addresses) of a profile,
// revoke and forget them, and show which are used. They join the `auth` group of the token operations.
import { createClient } from '@hosting-api/client';
import type { Command } from 'commander';
import { credentialsPath, forget, profileName, readCredentials, readToken, writeCredentials } from '../config';
import { describe, EXIT, exitCode } from '../errors';
import { type Act, dryRunOr, globals } from '../globals';
import type { Io } from '../io';
import { render } from '../output';
import { LineReader, readHidden } from '../prompt';
import { addresses, fetchFor, openSession, requestToken } from '../session';
import { UsageError } from '../values';

async function login(command: Command, io: Io): Promise<number> {
  const g = globals(command, io.env);
  const opts = command.opts() as { clientId?: string };
  const { baseUrl, authUrl } = addresses(g, io.env, readCredentials(io.env));
  const lines = io.stdin.isTTY ? undefined : new LineReader(io.stdin);
  let clientId = opts.clientId ?? io.env.HOSTING_API_CLIENT_ID;
  if (!clientId) {
    io.stderr.write('Client ID: ');
    const reader = lines ?? new LineReader(io.stdin);
    clientId = (await reader.line())?.trim();
    if (!lines) reader.close();
  }
  if (!clientId) throw new UsageError('no client ID: pass --client-id or type it at the prompt');
  io.stderr.write('Client secret: ');
  const secret = lines ? await lines.line() : await readHidden(io.stdin, io.stderr);
  if (lines) io.stderr.write('\n');
  if (!secret) throw new UsageError('no client secret: type it at the prompt (it is not shown), or pipe it on stdin');
  const client = createClient({ baseUrl, authUrl, maxRetries: g.retries, timeout: g.timeoutMs, fetch: fetchFor(g) });
  // --dry-run: the token request is printed (the secret masked), nothing is sent or stored.
  if (g.dryRun)
    return dryRunOr(g.dryRun, io, async () => {
      await requestToken(client, io.env, { clientId, clientSecret: secret, authUrl });
      return EXIT.ok;
    });
  await requestToken(client, io.env, { clientId, clientSecret: secret, authUrl });
  writeCredentials(io.env, { clientId, clientSecret: secret, baseUrl, authUrl });
  const profile = profileName(io.env);
  io.stdout.write(
    `Logged in as ${clientId} (${authUrl})${profile === 'default' ? '' : ` in profile ${profile}`}; credentials stored in ${credentialsPath(io.env)}\n`,
  );
  return EXIT.ok;
}

async function logout(command: Command, io: Io): Promise<number> {
  const g = globals(command, io.env);
  const stored = readCredentials(io.env);
  const token = readToken(io.env);
  const credentials =
    stored ??
    (io.env.HOSTING_API_CLIENT_ID && io.env.HOSTING_API_CLIENT_SECRET
      ? { clientId: io.env.HOSTING_API_CLIENT_ID, clientSecret: io.env.HOSTING_API_CLIENT_SECRET }
      : undefined);
  let failure: unknown;
  if (g.dryRun) {
    if (!(token && credentials)) throw new UsageError('--dry-run: no cached token to revoke');
    return dryRunOr(g.dryRun, io, async () => {
      await createClient({
        baseUrl: `${token.authUrl}/v1`,
        authUrl: token.authUrl,
        fetch: fetchFor(g),
      }).auth.revokeToken({
        token: token.accessToken,
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
      });
      return EXIT.ok;
    });
  }
  if (token && credentials) {
    try {
      const client = createClient({
        baseUrl: `${token.authUrl}/v1`,
        authUrl: token.authUrl,
        maxRetries: g.retries,
        timeout: g.timeoutMs,
        fetch: fetchFor(g),
      });
      await client.auth.revokeToken({
        token: token.accessToken,
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
      });
    } catch (error) {
      failure = error;
    }
  }
  const removed = forget(io.env);
  if (failure) {
    io.stderr.write(
      `${describe(failure)}\nThe token was not revoked; ${removed.length ? `deleted ${removed.join(', ')}` : 'nothing was stored'}.\n`,
    );
    return exitCode(failure);
  }
  io.stdout.write(
    removed.length
      ? `Logged out${token && credentials ? ': token revoked' : ''}; deleted ${removed.join(', ')}\n`
      : 'Not logged in: nothing stored.\n',
  );
  return EXIT.ok;
}

function status(command: Command, io: Io): number {
  const session = openSession(globals(command, io.env), io.env);
  const token = readToken(io.env);
  const cached =
    token && token.clientId === session.clientId && token.authUrl === session.authUrl && Date.now() < token.expiresAt;
  io.stdout.write(
    `${render(
      {
        profile: profileName(io.env),
        clientId: session.clientId,
        credentials:
          session.source === 'stored'
            ? credentialsPath(io.env)
            : 'environment (HOSTING_API_CLIENT_ID, HOSTING_API_CLIENT_SECRET)',
        baseUrl: session.baseUrl,
        authUrl: session.authUrl,
        token: cached ? `cached until ${new Date(token.expiresAt).toISOString()}` : 'none cached',
      },
      { json: globals(command).json === true },
    )}\n`,
  );
  return EXIT.ok;
}

export function addAuthCommands(program: Command, act: Act, io: Io): void {
  const auth = program.commands.find((c) => c.name() === 'auth') ?? program.command('auth');
  auth.description('sign in and out; the token operations of the API');
  auth
    .command('login')
    .description(
      'Prompt for the client secret (never shown) and store the credentials, with the addresses, in the config directory (mode 0600); the token is cached until it expires.',
    )
    .option('--client-id <id>', 'the client ID (default HOSTING_API_CLIENT_ID, else a prompt)')
    .action((_opts, command: Command) => act(() => login(command, io)));
  auth
    .command('logout')
    .description('Revoke the cached token and delete the stored credentials.')
    .action((_opts, command: Command) => act(() => logout(command, io)));
  auth
    .command('status')
    .description('Show which credentials and addresses are used (never the secret).')
    .action((_opts, command: Command) => act(() => status(command, io)));
}
