// `hosting-api api METHOD PATH`: any operation of the spec by its method and path, like `gh api`.
// The path is checked against the spec's paths (its parameters filled in), the call goes through
// the same client (token, retries, timeout, size cap, errors) and the same destructive guard.
// `-f key=value` adds a string field, `-F key=value` a typed one (number, true/false, null, JSON, or
// @file); they are query parameters of a GET and body fields otherwise. `--input FILE` gives the
// whole body (`-` for stdin). `--paginate` walks every page of a paged read.
import { readFileSync } from 'node:fs';
import { operationMeta } from '@hosting-api/client';
import type { Command } from 'commander';
import { byId, methodOf, previewOf } from '../calls';
import { readCredentials } from '../config';
import { EXIT } from '../errors';
import { operations } from '../generated/operations';
import { type Act, dryRunOr, globals } from '../globals';
import { asks, confirm, refuseWithoutTerminal } from '../guard';
import type { Io } from '../io';
import { addresses, openSession } from '../session';
import type { CommandSpec } from '../spec';
import { UsageError } from '../values';

/**
 * An absolute URL as a path under the configured API (`https://api.example.com/v1/sites?page=2` →
 * `/sites?page=2`); one on another origin, or outside the base path, is refused: it is not sent to
 * the configured API in its stead. A path is returned as given.
 */
export function underBase(raw: string, baseUrl: string): string {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(raw)) return raw;
  const base = new URL(baseUrl);
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {}
  const prefix = base.pathname.replace(/\/$/, '');
  if (!url || url.origin !== base.origin || !(url.pathname === prefix || url.pathname.startsWith(`${prefix}/`)))
    throw new UsageError(
      `${raw} is not on the configured API (${baseUrl}): give a path such as /sites, or a URL under ${baseUrl}`,
    );
  return url.pathname.slice(prefix.length) + url.search;
}

/** The operation of the spec at this method and path, with its path arguments. */
export function matchOperation(methodRaw: string, rawPath: string): { op: CommandSpec; args: unknown[] } {
  const method = methodRaw.toUpperCase();
  const path = rawPath.replace(/^\/v1(?=\/)/, '').split('?')[0]!;
  if (!path.startsWith('/')) throw new UsageError(`PATH must start with / (got ${JSON.stringify(rawPath)})`);
  const found: { op: CommandSpec; args: unknown[] }[] = [];
  let badInteger: string | undefined;
  const want = path.replace(/(.)\/$/, '$1').split('/');
  for (const op of operations) {
    const segments = op.path.split('/');
    if (segments.length !== want.length) continue;
    const values: Record<string, string> = {};
    if (
      !segments.every((segment, i) => {
        const param = /^\{(.+)\}$/.exec(segment);
        if (param) values[param[1]!] = decodeURIComponent(want[i]!);
        return param ? want[i] !== '' : segment === want[i];
      })
    )
      continue;
    const wrong = op.args.find((a) => a.type === 'integer' && !/^-?\d+$/.test(values[a.name]!));
    if (wrong) {
      badInteger ??= `${wrong.name} in ${op.path} must be an integer (got ${JSON.stringify(values[wrong.name])})`;
      continue;
    }
    found.push({ op, args: op.args.map((a) => (a.type === 'integer' ? Number(values[a.name]) : values[a.name])) });
  }
  if (!found.length && badInteger) throw new UsageError(badInteger);
  if (!found.length) throw new UsageError(`the spec has no path ${path}; see \`hosting-api --help\` for the commands`);
  // A literal segment wins over a parameter (`/sites/search` over `/sites/{site_id}`).
  const exact = found.filter((f) => f.op.method === method).sort((a, b) => a.op.args.length - b.op.args.length)[0];
  if (!exact) {
    const methods = [...new Set(found.map((f) => f.op.method))].join(', ');
    throw new UsageError(`the spec has no ${method} ${found[0]!.op.path} (it has ${methods})`);
  }
  const meta = operationMeta[exact.op.id as keyof typeof operationMeta];
  if (meta.base === 'auth')
    throw new UsageError(`${method} ${exact.op.path} is a token operation: use \`hosting-api auth login\`/\`logout\``);
  return exact;
}

/** `-F` values: numbers, booleans, null and JSON as such, `@file` as the file's text, else the string. */
function typed(raw: string): unknown {
  if (raw.startsWith('@')) {
    try {
      return readFileSync(raw.slice(1), 'utf8');
    } catch (error) {
      throw new UsageError(`-F: cannot read ${raw.slice(1)} (${(error as NodeJS.ErrnoException).code ?? error})`);
    }
  }
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function fields(list: string[], parse: (raw: string) => unknown, flag: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const item of list) {
    const eq = item.indexOf('=');
    if (eq < 1) throw new UsageError(`${flag} takes key=value (got ${JSON.stringify(item)})`);
    out[item.slice(0, eq)] = parse(item.slice(eq + 1));
  }
  return out;
}

async function readInput(file: string, io: Io): Promise<Record<string, unknown>> {
  let text = '';
  if (file === '-') for await (const chunk of io.stdin) text += chunk.toString();
  else
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new UsageError(`--input: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? error})`);
    }
  try {
    const value = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {}
  throw new UsageError(`--input ${file} must be a JSON object`);
}

async function api(method: string, given: string, command: Command, io: Io): Promise<number> {
  const g = globals(command, io.env);
  const path = underBase(given, addresses(g, io.env, readCredentials(io.env)).baseUrl);
  const opts = command.opts() as { field?: string[]; rawField?: string[]; input?: string; paginate?: boolean };
  const { op, args } = matchOperation(method, path);
  const meta = operationMeta[op.id as keyof typeof operationMeta];
  const query = Object.fromEntries(new URLSearchParams(path.split('?')[1] ?? ''));
  const input: Record<string, unknown> = {
    ...query,
    ...(opts.input === undefined ? {} : await readInput(opts.input, io)),
    ...fields(opts.rawField ?? [], (v) => v, '-f'),
    ...fields(opts.field ?? [], typed, '-F'),
  };
  const hasInput = meta.query !== undefined || meta.body !== undefined;
  if (!hasInput && Object.keys(input).length)
    throw new UsageError(`${op.method} ${op.path} takes no query or body (${Object.keys(input).join(', ')} given)`);
  if (opts.paginate && !meta.paginated) throw new UsageError(`--paginate: ${op.method} ${op.path} is not paged`);
  const filled = op.path.replace(/\{([^}]+)\}/g, (_, n) => String(args[op.args.findIndex((a) => a.name === n)]));
  const what = `${op.method} ${filled} (${op.id})`;
  if (asks(op) && !g.dryRun) refuseWithoutTerminal({ what, yes: g.yes, effect: op.effect }, io);
  const session = openSession(g, io.env);
  const call = methodOf(session.client, op);
  if (asks(op) && !g.dryRun) {
    const preview = previewOf(op, args, session.client, byId);
    await confirm(
      { what, yes: g.yes, effect: op.effect, preview, body: Object.keys(input).length ? input : undefined },
      io,
    );
  }
  return dryRunOr(g.dryRun, io, async () => {
    if (opts.paginate) {
      const items: unknown[] = [];
      for await (const item of session.client.paginate(call as never, ...(args as never[]), input as never))
        items.push(item);
      io.stdout.write(`${JSON.stringify(items, null, 2)}\n`);
      return EXIT.ok;
    }
    const { response: _response, ...envelope } = (await call(...args, ...(hasInput ? [input] : []), {
      raw: true,
    })) as Record<string, unknown>;
    io.stdout.write(`${JSON.stringify(envelope, null, 2)}\n`);
    return EXIT.ok;
  });
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

export function addApiCommand(program: Command, act: Act, io: Io): void {
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
    .action((method: string, path: string, _opts, command: Command) => act(() => api(method, path, command, io)));
}
