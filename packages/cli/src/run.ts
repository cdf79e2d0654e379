// The command line: one command per operation of the spec, grouped by its `x-client-method`
// (`sites.notes.list` → `hosting-api sites notes list <site_id>`), built with commander from the
// generated table, plus `auth login|logout|status` and `completion`. `run()` is the whole CLI
// in-process: it returns the exit status instead of exiting.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient, type HostingApiClient, NotFoundError, operationMeta } from '@hosting-api/client';
import { Command, CommanderError, Option } from 'commander';
import pkg from '../package.json' with { type: 'json' };
import { api } from './api';
import { type Method, methodOf, previewOf } from './calls';
import { complete, completionScript } from './completion';
import { credentialsPath, forget, profileName, readCredentials, readToken, writeCredentials } from './config';
import { describe, EXIT, exitCode, WaitTimeoutError } from './errors';
import { operations, tags, title } from './generated/operations';
import { asks, confirm, printRequests, refuseWithoutTerminal } from './guard';
import { DEFAULT_MAX_BYTES } from './http';
import { type Io, processIo } from './io';
import { render } from './output';
import { LineReader, readHidden } from './prompt';
import { addresses, type DryRun, fetchFor, type GlobalOptions, openSession, requestToken } from './session';
import type { CommandSpec, FieldSpec } from './spec';
import { parseValue, placeholder, UsageError } from './values';
import { addWebhookCommands } from './webhooks';

const byId = new Map(operations.map((o) => [o.id, o]));

export interface Globals extends GlobalOptions {
  json?: boolean;
  columns?: string[];
  headers: boolean;
  yes: boolean;
}

/** `100`, `64KiB`, `10MiB`, `1GiB`, `10MB` → bytes. */
export function parseSize(flag: string, raw: string): number {
  const m = /^(\d+)\s*(b|kb|kib|k|mb|mib|m|gb|gib|g)?$/i.exec(raw.trim());
  if (!m || Number(m[1]) < 1)
    throw new UsageError(`${flag} must be a size such as 65536, 64KiB, 10MiB or 1GiB (got ${JSON.stringify(raw)})`);
  const unit = (m[2] ?? 'b').toLowerCase()[0] as 'b' | 'k' | 'm' | 'g';
  return Number(m[1]) * { b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[unit];
}

function globals(command: Command, env: Io['env'] = {}): Globals {
  const o = command.optsWithGlobals() as Record<string, unknown>;
  const timeout = (o.timeout as string | undefined) ?? env.HOSTING_API_TIMEOUT;
  const maxSize = (o.maxSize as string | undefined) ?? env.HOSTING_API_MAX_SIZE;
  let retries: number | undefined;
  if (o.retries !== undefined)
    retries = parseValue('--retries', { kind: 'scalar', type: 'integer', minimum: 0 }, String(o.retries)) as number;
  const columns =
    typeof o.columns === 'string'
      ? o.columns
          .split(',')
          .map((c) => c.trim())
          .filter(Boolean)
      : undefined;
  return {
    baseUrl: o.baseUrl as string | undefined,
    authUrl: o.authUrl as string | undefined,
    json: o.json === true,
    columns,
    headers: o.headers !== false,
    retries,
    yes: o.yes === true,
    timeoutMs:
      timeout === undefined ? undefined : parseDuration(o.timeout ? '--timeout' : 'HOSTING_API_TIMEOUT', timeout),
    maxBytes: maxSize === undefined ? undefined : parseSize(o.maxSize ? '--max-size' : 'HOSTING_API_MAX_SIZE', maxSize),
    dryRun: o.dryRun === true ? { requests: [] } : undefined,
  };
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/** `90`, `90s`, `5m`, `1h`, `500ms` → milliseconds. */
export function parseDuration(flag: string, raw: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(raw.trim());
  if (!m || Number(m[1]) <= 0)
    throw new UsageError(`${flag} must be a duration such as 90, 90s, 5m or 1h (got ${JSON.stringify(raw)})`);
  return Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] ?? 's']!;
}

async function readAll(stream: Io['stdin']): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk.toString();
  return text;
}

/** `--data`: inline JSON, `@file.json`, or `-` for stdin. */
async function readData(raw: string, io: Io): Promise<Record<string, unknown>> {
  let text = raw;
  let from = '--data';
  if (raw === '-') {
    text = await readAll(io.stdin);
    from = '--data - (stdin)';
  } else if (raw.startsWith('@')) {
    try {
      text = readFileSync(raw.slice(1), 'utf8');
    } catch (error) {
      throw new UsageError(`--data: cannot read ${raw.slice(1)} (${(error as NodeJS.ErrnoException).code ?? error})`);
    }
    from = `--data ${raw}`;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${from} is not valid JSON (${(error as Error).message})`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new UsageError(`${from} must be a JSON object`);
  return value as Record<string, unknown>;
}

/** A field given in `--data` is checked like its flag: type, enum, bounds. */
function checkDataField(f: FieldSpec, value: unknown): void {
  if (f.kind !== 'scalar' || value === undefined || (value === null && f.nullable)) return;
  const raw = typeof value === 'string' && f.type === 'string' ? value : JSON.stringify(value);
  const ok =
    f.type === 'string'
      ? typeof value === 'string'
      : f.type === 'boolean'
        ? typeof value === 'boolean'
        : typeof value === 'number';
  if (!ok)
    throw new UsageError(
      `--data: ${f.name} must be ${f.type === 'integer' ? 'an integer' : `a ${f.type}`} (got ${JSON.stringify(value)})`,
    );
  parseValue(`--data: ${f.name}`, f, raw);
}

const flagOf = (command: Command, name: string) =>
  command.options.find((o) => o.attributeName() === name || o.long === `--${name}`);

/** The query and body fields of one invocation: `--data` first, each flag over it. */
async function buildInput(op: CommandSpec, command: Command, io: Io, skip: string | undefined) {
  const opts = command.opts() as Record<string, unknown>;
  let input: Record<string, unknown> = {};
  if (opts.data !== undefined) {
    input = await readData(String(opts.data), io);
    for (const f of op.options) if (f.in === 'body') checkDataField(f, input[f.name]);
  }
  for (const f of op.options) {
    if (f.name === skip) continue;
    const option = flagOf(command, f.name);
    const raw = option && command.getOptionValue(option.attributeName());
    if (raw === undefined) continue;
    const flag = `--${f.name}`;
    if (typeof raw === 'boolean') input[f.name] = raw;
    else if (f.kind === 'array')
      input[f.name] = (raw as string[]).flatMap((r) => {
        const v = parseValue(flag, f, r);
        return Array.isArray(v) ? v : [v];
      });
    else input[f.name] = parseValue(flag, f, String(raw));
  }
  for (const f of op.options)
    if (f.required && input[f.name] === undefined)
      throw new UsageError(
        `missing --${f.name}: \`${op.words.join(' ')}\` requires it${f.in === 'body' ? ' (or give the whole body with --data)' : ''}`,
      );
  return input;
}

/** `--wait`: re-reads the resource until its state leaves the value the write answered. */
async function follow(
  client: HostingApiClient,
  op: CommandSpec,
  args: unknown[],
  answered: unknown,
  timeoutMs: number,
  io: Io,
): Promise<{ data: unknown; gone: boolean }> {
  const rule = op.wait!;
  const read = byId.get(rule.read)!;
  const record = (answered ?? {}) as Record<string, unknown>;
  const start = record[rule.field];
  const readArgs = read.args.map((a) =>
    a.name === rule.idParam ? record.id : args[op.args.findIndex((x) => x.name === a.name)],
  );
  if (readArgs.some((v) => v === undefined || v === null))
    throw new Error(`--wait: the answer has no ${rule.idParam ?? 'identifier'} to follow`);
  const command = `hosting-api ${read.words.join(' ')} ${readArgs.join(' ')}`;
  io.stderr.write(
    `waiting while ${rule.field} is ${JSON.stringify(start)} (${command}; --wait-timeout ${timeoutMs / 1000}s)\n`,
  );
  const method = methodOf(client, read.words);
  const deadline = Date.now() + timeoutMs;
  let delay = 250;
  for (;;) {
    let current: Record<string, unknown> | undefined;
    try {
      current = (await method(...readArgs)) as Record<string, unknown> | undefined;
    } catch (error) {
      if (rule.gone && error instanceof NotFoundError) {
        io.stderr.write(`${rule.field}: ${JSON.stringify(start)} → gone (${command} answers 404)\n`);
        return { data: null, gone: true };
      }
      throw error;
    }
    if (current?.[rule.field] !== start) {
      io.stderr.write(`${rule.field}: ${JSON.stringify(start)} → ${JSON.stringify(current?.[rule.field])}\n`);
      return { data: current, gone: false };
    }
    const left = deadline - Date.now();
    if (left <= 0)
      throw new WaitTimeoutError(
        `--wait: ${rule.field} is still ${JSON.stringify(start)} after ${timeoutMs / 1000}s; raise --wait-timeout, or check later with \`${command}\``,
      );
    await sleep(Math.min(delay, left));
    delay = Math.min(delay * 2, 5000);
  }
}

/** `/sites/{site_id}` with the arguments in: `/sites/200002`. */
const fillPath = (op: CommandSpec, args: unknown[]) =>
  op.path.replace(/\{([^}]+)\}/g, (_, name) =>
    encodeURIComponent(String(args[op.args.findIndex((a) => a.name === name)])),
  );

/** Runs `work`; under --dry-run prints the requests it tried instead (none was sent) and exits 0. */
async function dryRunOr(dry: DryRun | undefined, io: Io, work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (!dry?.requests.length) throw error;
    printRequests(dry.requests, io);
    return EXIT.ok;
  }
}

async function execute(op: CommandSpec, positional: string[], command: Command, io: Io): Promise<number> {
  const g = globals(command, io.env);
  const opts = command.opts() as Record<string, unknown>;
  const meta = operationMeta[op.id as keyof typeof operationMeta];
  const args = op.args.map((a, i) =>
    a.type === 'integer' ? parseValue(a.name, { kind: 'scalar', type: 'integer' }, positional[i]!) : positional[i],
  );
  const input = await buildInput(op, command, io, meta.paginateParam);
  const timeoutMs = op.wait ? parseDuration('--wait-timeout', String(opts.waitTimeout ?? '10m')) : 0;
  const what = `${op.method} ${fillPath(op, args)} (${op.id})`;
  if (asks(op) && !g.dryRun) refuseWithoutTerminal({ what, yes: g.yes, effect: op.effect }, io);
  const session = openSession(g, io.env);
  const method = methodOf(session.client, op.words);
  if (asks(op) && !g.dryRun) {
    const preview = previewOf(op, args, session.client, byId);
    await confirm(
      {
        what,
        yes: g.yes,
        effect: op.effect,
        preview,
        body: meta.body !== undefined && Object.keys(input).length ? input : undefined,
      },
      io,
    );
  }
  return dryRunOr(g.dryRun, io, () => send(op, g, session, method, args, input, opts, timeoutMs, io));
}

async function send(
  op: CommandSpec,
  g: Globals,
  session: ReturnType<typeof openSession>,
  method: Method,
  args: unknown[],
  input: Record<string, unknown>,
  opts: Record<string, unknown>,
  timeoutMs: number,
  io: Io,
): Promise<number> {
  const meta = operationMeta[op.id as keyof typeof operationMeta];
  const hasInput = meta.query !== undefined || meta.body !== undefined;
  const width = io.stdout.isTTY ? (io.stdout.columns ?? 120) : 160;
  const print = (data: unknown, message?: string) =>
    io.stdout.write(
      `${render(data, { json: g.json === true, columns: op.columns, only: g.columns, headers: g.headers, width, message })}\n`,
    );

  if (opts.paginate) {
    const items: unknown[] = [];
    for await (const item of session.client.paginate(method as never, ...(args as never[]), input as never))
      items.push(item);
    print(items);
    return EXIT.ok;
  }
  // An operation that pages only when asked (`GET /sites?paginate=true`) is asked when a page is.
  if (meta.paginateParam && (input.page !== undefined || input.per_page !== undefined))
    input[meta.paginateParam] = true;
  const result = (await method(...args, ...(hasInput ? [input] : []), { raw: true })) as {
    message?: string;
    data?: unknown;
    page?: { currentPage?: number; lastPage?: number; nextPage?: number | null; totalItems?: number } | null;
  };
  if (opts.wait) {
    const { data, gone } = await follow(session.client, op, args, result.data, timeoutMs, io);
    print(data, gone ? `${op.wait!.field}: gone` : undefined);
    return EXIT.ok;
  }
  print(result.data, result.message);
  const page = result.page;
  if (!g.json && page && page.nextPage !== null && page.nextPage !== undefined)
    io.stderr.write(
      `page ${page.currentPage} of ${page.lastPage} (${page.totalItems} items): --page ${page.nextPage} for the next, --paginate for all\n`,
    );
  return EXIT.ok;
}

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

/**
 * Builds the command tree. `onRun` receives the promise of the invoked command's exit status.
 * Given `argv`, only the commands whose words all appear in it get their flags (the others have
 * their name, summary and arguments, which is what help lists): a run builds one command, not 116.
 */
export function buildProgram(io: Io, onRun: (status: Promise<number>) => void, argv?: readonly string[]): Command {
  const wanted = argv && new Set(argv);
  const guard = (work: () => Promise<number> | number) =>
    onRun(
      (async () => {
        try {
          return await work();
        } catch (error) {
          io.stderr.write(`${describe(error)}\n`);
          return exitCode(error);
        }
      })(),
    );
  const program = new Command('hosting-api')
    .description(
      `${title}: every operation of the API as a command.\n\nCredentials: HOSTING_API_CLIENT_ID and HOSTING_API_CLIENT_SECRET, or \`hosting-api auth login\`.\nAddresses: HOSTING_API_BASE_URL and HOSTING_API_AUTH_URL, or --base-url and --auth-url.`,
    )
    .version(pkg.version)
    .option('--base-url <url>', 'API base ending in /v1 (default HOSTING_API_BASE_URL)')
    .option('--auth-url <url>', 'token service root (default HOSTING_API_AUTH_URL, else the base URL without /v1)')
    .option('--json', "print the answer's data as JSON")
    .option('--columns <list>', 'the columns of a table, comma-separated field names (default: those that fit)')
    .option('--no-headers', 'print table rows without the header line')
    .option('--retries <n>', 'retries after a connection error, 429 or 5xx (default 2)')
    .option(
      '--timeout <duration>',
      'give up on an attempt after this long: 500ms, 10s, 1m (default HOSTING_API_TIMEOUT, else 60s)',
    )
    .option(
      '--max-size <bytes>',
      `largest answer read: 65536, 64KiB, 10MiB (default HOSTING_API_MAX_SIZE, else ${DEFAULT_MAX_BYTES / 1024 ** 2}MiB)`,
    )
    .option('--dry-run', 'print the request (method, URL, headers with the token masked, body) and send nothing')
    .option(
      '-y, --yes',
      'run a destructive command, or a read the spec states an effect for (the SSH disconnect), without asking (required without a terminal)',
    )
    .option('--profile <name>', 'the stored credentials to use (default HOSTING_API_PROFILE, else default)')
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(s),
    });
  program.configureHelp({ sortSubcommands: true, showGlobalOptions: true });
  // --profile picks the stored credentials for this run, as HOSTING_API_PROFILE does.
  program.hook('preAction', (_program, action) => {
    const profile = action.optsWithGlobals().profile as string | undefined;
    if (profile !== undefined) io.env = { ...io.env, HOSTING_API_PROFILE: profile };
  });

  // A group is described by the section (tag) of the spec most of its operations belong to.
  const groupTag = new Map<string, Map<string, number>>();
  for (const op of operations)
    for (let n = 1; n < op.words.length; n++) {
      const key = op.words.slice(0, n).join(' ');
      const counts = groupTag.get(key) ?? new Map<string, number>();
      counts.set(op.tag, (counts.get(op.tag) ?? 0) + 1);
      groupTag.set(key, counts);
    }
  const group = (parent: Command, word: string, path: string): Command => {
    const found = parent.commands.find((c) => c.name() === word);
    if (found) return found;
    const counts = [...(groupTag.get(path)?.entries() ?? [])].sort((a, b) => b[1] - a[1]);
    const tag = counts[0]?.[0];
    return parent.command(word).description(tag ? `${tag}: ${tags[tag] ?? ''}`.trim() : `${word} commands`);
  };

  for (const op of operations) {
    let parent: Command = program;
    op.words.slice(0, -1).forEach((word, i) => {
      parent = group(parent, word, op.words.slice(0, i + 1).join(' '));
    });
    const meta = operationMeta[op.id as keyof typeof operationMeta];
    const cmd = parent
      .command(op.words.at(-1)!)
      .summary(op.summary)
      .description(
        `${op.summary}\n\n${op.description ? `${op.description}\n\n` : ''}${op.method} ${op.path} (${op.id})`,
      );
    for (const a of op.args) cmd.argument(`<${a.name}>`, `${a.description} (${a.type})`.trim());
    if (wanted && !op.words.every((w) => wanted.has(w))) continue;
    for (const f of op.options) {
      if (f.name === meta.paginateParam) continue; // `--paginate` walks the pages; `--page` asks for one
      const desc = `${f.description}${f.required ? ' (required)' : ''}`;
      if (f.kind === 'scalar' && f.type === 'boolean' && !f.nullable) {
        cmd.addOption(new Option(`--${f.name}`, `${desc} (sends true)`));
        cmd.addOption(new Option(`--no-${f.name}`, `sends ${f.name}: false`));
      } else if (f.kind === 'array') {
        cmd.addOption(
          new Option(
            `--${f.name} ${placeholder(f)}`,
            `${desc} (repeat the flag for more, or give a JSON array)`,
          ).argParser((v: string, previous: string[] | undefined) => [...(previous ?? []), v]),
        );
      } else cmd.addOption(new Option(`--${f.name} ${placeholder(f)}`, desc));
    }
    if (op.body)
      cmd.option(
        '--data <json|@file|->',
        `the whole ${op.body.encoding === 'form' ? 'form' : 'JSON'} body: inline JSON, @file.json, or - for stdin; flags override its fields`,
      );
    if (meta.paginated) cmd.option('--paginate', 'walk every page and print all items');
    if (op.wait) {
      cmd.option(
        '--wait',
        `after the call, re-read until \`${op.wait.field}\` leaves the value answered${op.wait.gone ? ' (or the resource is gone)' : ''}`,
      );
      cmd.option('--wait-timeout <duration>', 'how long --wait waits: 90, 90s, 5m, 1h (default 10m)');
    }
    cmd.action((...params: unknown[]) => {
      const command = params.at(-1) as Command;
      guard(() => execute(op, params.slice(0, op.args.length) as string[], command, io));
    });
  }

  const auth = group(program, 'auth', 'auth');
  auth.description('sign in and out; the token operations of the API');
  auth
    .command('login')
    .description(
      'Prompt for the client secret (never shown) and store the credentials, with the addresses, in the config directory (mode 0600); the token is cached until it expires.',
    )
    .option('--client-id <id>', 'the client ID (default HOSTING_API_CLIENT_ID, else a prompt)')
    .action((_opts, command: Command) => guard(() => login(command, io)));
  auth
    .command('logout')
    .description('Revoke the cached token and delete the stored credentials.')
    .action((_opts, command: Command) => guard(() => logout(command, io)));
  auth
    .command('status')
    .description('Show which credentials and addresses are used (never the secret).')
    .action((_opts, command: Command) => guard(() => status(command, io)));

  addWebhookCommands(program, guard, io);
  program
    .command('api')
    .description(
      'Call any operation of the spec by method and path, like `gh api`: hosting-api api GET /sites/123456/notes. Checked against the spec; destructive ones are guarded as their commands are.',
    )
    .argument('<method>', 'GET, POST, PUT, DELETE')
    .argument('<path>', 'the path under the base URL, e.g. /sites/123456/notes (a query string is allowed)')
    .option(
      '-f, --raw-field <key=value>',
      'a string field: a query parameter of a GET, else a body field (repeat)',
      collect,
    )
    .option('-F, --field <key=value>', 'a typed field: number, true/false, null, JSON, or @file (repeat)', collect)
    .option('--input <file>', 'the JSON body from a file, or - for stdin; fields override it')
    .option('--paginate', 'walk every page of a paged read and print all items')
    .action((method: string, path: string, _opts, command: Command) =>
      guard(() => api(method, path, command, io, { globals, openSession, dryRunOr, byId })),
    );
  program
    .command('completion')
    .description('Print a shell completion script: eval "$(hosting-api completion bash)" (or zsh, fish)')
    .argument('<shell>', 'bash, zsh or fish')
    .action((shell: string) =>
      guard(() => {
        io.stdout.write(completionScript(shell));
        return EXIT.ok;
      }),
    );
  program
    .command('__complete', { hidden: true })
    .argument('[words...]')
    .allowUnknownOption()
    .helpOption(false)
    .action((words: string[]) =>
      guard(() => {
        const out = complete(program, words);
        if (out.length) io.stdout.write(`${out.join('\n')}\n`);
        return EXIT.ok;
      }),
    );
  return program;
}

/** Runs the CLI on `argv` (without the node and script paths); resolves to the exit status. */
export async function run(argv: string[], io: Io = processIo()): Promise<number> {
  let status: Promise<number> | undefined;
  const program = buildProgram(
    io,
    (s) => {
      status = s;
    },
    argv,
  );
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version: 0. A group given without its command prints its help: a usage error.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok;
      return EXIT.usage;
    }
    io.stderr.write(`${describe(error)}\n`);
    return exitCode(error);
  }
  return status ? await status : EXIT.ok;
}
