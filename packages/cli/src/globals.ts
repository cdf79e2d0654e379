// What every command shares: the program's global options as one object, the dry run's wrapper,
// and how an action's exit status reaches `run()`.
import type { Command } from 'commander';
import { EXIT } from './errors';
import { printRequests } from './guard';
import type { Io } from './io';
import type { DryRun, GlobalOptions } from './session';
import { parseValue, UsageError } from './values';

export interface Globals extends GlobalOptions {
  json?: boolean;
  columns?: string[];
  headers: boolean;
  yes: boolean;
}

/** Runs a command's action: its exit status, or its error reported in one line and classed. */
export type Act = (work: () => Promise<number> | number) => void;

/** `100`, `64KiB`, `10MiB`, `1GiB`, `10MB` → bytes. */
export function parseSize(flag: string, raw: string): number {
  const m = /^(\d+)\s*(b|kb|kib|k|mb|mib|m|gb|gib|g)?$/i.exec(raw.trim());
  if (!m || Number(m[1]) < 1)
    throw new UsageError(`${flag} must be a size such as 65536, 64KiB, 10MiB or 1GiB (got ${JSON.stringify(raw)})`);
  const unit = (m[2] ?? 'b').toLowerCase()[0] as 'b' | 'k' | 'm' | 'g';
  return Number(m[1]) * { b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[unit];
}

/** `90`, `90s`, `5m`, `1h`, `500ms` → milliseconds. */
export function parseDuration(flag: string, raw: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(raw.trim());
  if (!m || Number(m[1]) <= 0)
    throw new UsageError(`${flag} must be a duration such as 90, 90s, 5m or 1h (got ${JSON.stringify(raw)})`);
  return Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] ?? 's']!;
}

export function globals(command: Command, env: Io['env'] = {}): Globals {
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

/** Runs `work`; under --dry-run prints the requests it tried instead (none was sent) and exits 0. */
export async function dryRunOr(dry: DryRun | undefined, io: Io, work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (!dry?.requests.length) throw error;
    printRequests(dry.requests, io);
    return EXIT.ok;
  }
}
