// One command per operation of the spec, grouped by its `x-client-method`
// (`sites.notes.list` → `hosting-api sites notes list <site_id>`), built from the generated table:
// its arguments, flags and `--data` become the call's input; a destructive one is guarded; `--wait`
// follows a write until its state changes; the answer is printed as a table, fields or JSON.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { type HostingApiClient, NotFoundError, operationMeta } from '@hosting-api/client';
import { type Command, Option } from 'commander';
import { byId, type Method, methodOf, previewOf } from '../calls';
import { EXIT, WaitTimeoutError } from '../errors';
import { operations, tags } from '../generated/operations';
import { type Act, dryRunOr, type Globals, globals, parseDuration } from '../globals';
import { asks, confirm, refuseWithoutTerminal } from '../guard';
import type { Io } from '../io';
import { render } from '../output';
import { openSession } from '../session';
import type { CommandSpec, FieldSpec } from '../spec';
import { parseValue, placeholder, UsageError } from '../values';

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
  const method = methodOf(client, read);
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
  const method = methodOf(session.client, op);
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

/**
 * Adds a command per operation, in groups described by the section (tag) of the spec most of their
 * operations belong to. Given `wanted` (the words of the command line), only the commands whose
 * words all appear in it get their flags; the others have what help lists.
 */
export function addOperationCommands(program: Command, act: Act, io: Io, wanted?: ReadonlySet<string>): void {
  const groupTag = new Map<string, Map<string, number>>();
  for (const op of operations)
    for (let n = 1; n < op.words.length; n++) {
      const key = op.words.slice(0, n).join(' ');
      const counts = groupTag.get(key) ?? new Map<string, number>();
      counts.set(op.tag, (counts.get(op.tag) ?? 0) + 1);
      groupTag.set(key, counts);
    }
  // The client's spelling of a word (`muPlugins`) is a hidden alias of the command's (`mu-plugins`).
  const named = (command: Command, alias: string) => (alias === command.name() ? command : command.alias(alias));
  const group = (parent: Command, word: string, alias: string, path: string): Command => {
    const found = parent.commands.find((c) => c.name() === word);
    if (found) return found;
    const counts = [...(groupTag.get(path)?.entries() ?? [])].sort((a, b) => b[1] - a[1]);
    const tag = counts[0]?.[0];
    return named(parent.command(word), alias).description(
      tag ? `${tag}: ${tags[tag] ?? ''}`.trim() : `${word} commands`,
    );
  };

  for (const op of operations) {
    const aliases = op.clientMethod.split('.');
    let parent: Command = program;
    op.words.slice(0, -1).forEach((word, i) => {
      parent = group(parent, word, aliases[i]!, op.words.slice(0, i + 1).join(' '));
    });
    const meta = operationMeta[op.id as keyof typeof operationMeta];
    const cmd = named(parent.command(op.words.at(-1)!), aliases.at(-1)!)
      .summary(op.summary)
      .description(
        `${op.summary}\n\n${op.description ? `${op.description}\n\n` : ''}${op.method} ${op.path} (${op.id})`,
      );
    for (const a of op.args) cmd.argument(`<${a.name}>`, `${a.description} (${a.type})`.trim());
    if (wanted && !op.words.every((w, i) => wanted.has(w) || wanted.has(aliases[i]!))) continue;
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
      act(() => execute(op, params.slice(0, op.args.length) as string[], command, io));
    });
  }
}
