// The destructive guard and the dry run, for the generated commands and `hosting-api api` alike.
// Which operations are destructive is the spec model's one list (every DELETE, and `x-destructive`),
// generated into the command table: the same list the MCP server reads.
import type { Io } from './io';
import { LineReader } from './prompt';
import type { RecordedRequest } from './session';
import { UsageError } from './values';

/** The user said no (or nothing) at the confirmation: nothing was sent. Exit 2. */
export class AbortedError extends UsageError {
  override name = 'AbortedError';
}

/** The few fields that say which thing it is, in this order, from a read's answer. */
const TELLING = [
  'id',
  'name',
  'displayName',
  'subject',
  'title',
  'email',
  'domain',
  'slug',
  'path',
  'type',
  'state',
  'status',
];

function summary(data: unknown): string {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return JSON.stringify(data);
  const record = data as Record<string, unknown>;
  const fields = TELLING.filter((k) => record[k] !== undefined && record[k] !== null && typeof record[k] !== 'object');
  return fields.map((k) => `${k}: ${JSON.stringify(record[k])}`).join(', ') || JSON.stringify(record).slice(0, 200);
}

/**
 * Asks before it (on a terminal; --yes elsewhere): a destructive operation, or a GET the spec states an
 * effect for (`effect`: not safe by the spec model's one rule, e.g. the SSH disconnect).
 */
export const asks = (op: { destructive?: boolean; effect?: string }) => Boolean(op.destructive || op.effect);

/** What the question says the operation does. */
const does = (d: Pick<Destructive, 'effect'>) =>
  d.effect ? `is not only a read (${d.effect})` : 'is destructive: it loses data or cannot be undone';

export interface Destructive {
  /** A read's effect (CommandSpec `effect`); undefined for a destructive operation. */
  effect?: string;
  /** `DELETE /sites/200002 (deleteSite)`. */
  what: string;
  /** `--yes`. */
  yes: boolean;
  /** Reads what the operation acts on (a GET of the spec), to show it before asking. */
  preview?: () => Promise<unknown>;
  /** The body that would be sent, shown when there is one. */
  body?: unknown;
}

/** Refuses without a terminal unless --yes; to be called before anything is read or sent. */
export function refuseWithoutTerminal(d: Pick<Destructive, 'what' | 'yes' | 'effect'>, io: Io): void {
  if (d.yes || io.stdin.isTTY) return;
  const kind = d.effect ? `is not only a read (${d.effect})` : 'is destructive';
  throw new UsageError(`${d.what} ${kind}: pass --yes to run it without a terminal (nothing was sent)`);
}

/** On a terminal: shows what will be affected, then asks; anything but y or yes aborts. */
export async function confirm(d: Destructive, io: Io): Promise<void> {
  if (d.yes) return;
  refuseWithoutTerminal(d, io);
  io.stderr.write(`${d.what} ${does(d)}.\n`);
  if (d.preview) io.stderr.write(`It acts on ${summary(await d.preview())}\n`);
  if (d.body !== undefined) io.stderr.write(`Body: ${JSON.stringify(d.body)}\n`);
  io.stderr.write('Continue? Type y or yes to go on, anything else aborts [y/N]: ');
  const reader = new LineReader(io.stdin);
  const answer = (await reader.line())?.trim().toLowerCase();
  reader.close();
  if (answer !== 'y' && answer !== 'yes') throw new AbortedError('aborted: nothing was changed');
}

const SECRET = /secret|token|password/i;

/** A body with its secret fields (client_secret, token, password…) masked. */
export function maskBody(body: string, contentType = ''): string {
  if (/x-www-form-urlencoded/.test(contentType)) {
    const form = new URLSearchParams(body);
    for (const key of [...form.keys()]) if (SECRET.test(key)) form.set(key, '***');
    return form.toString();
  }
  try {
    const mask = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(mask)
        : v && typeof v === 'object'
          ? Object.fromEntries(
              Object.entries(v).map(([k, x]) => [k, SECRET.test(k) && typeof x === 'string' ? '***' : mask(x)]),
            )
          : v;
    return JSON.stringify(mask(JSON.parse(body)), null, 2);
  } catch {
    return body;
  }
}

/** `--dry-run`'s output: each request it would have sent, the token masked. */
export function printRequests(requests: readonly RecordedRequest[], io: Io): void {
  for (const r of requests) {
    const lines = [`${r.method} ${r.url}`];
    for (const [name, value] of Object.entries(r.headers))
      lines.push(`${name}: ${name.toLowerCase() === 'authorization' ? value.replace(/ .*/, ' ***') : value}`);
    const type = Object.entries(r.headers).find(([n]) => n.toLowerCase() === 'content-type')?.[1];
    if (r.body !== undefined) lines.push('', maskBody(r.body, type));
    io.stdout.write(`${lines.join('\n')}\n`);
  }
  io.stderr.write('dry run: nothing was sent\n');
}
