// `hosting-api webhooks trigger EVENT` and `hosting-api webhooks listen --forward-to URL`: a
// developer's webhook loop against the sandbox (@hosting-api/sandbox), as `stripe trigger` and
// `stripe listen` are against Stripe's test mode. `trigger` asks the sandbox to send one valid
// delivery of an event of the spec's webhooks (POST /__sandbox/webhooks/trigger); `listen` reads
// the deliveries the sandbox records (GET /__sandbox/webhooks) and forwards each new one to a URL
// with its headers (x-hosting-event, x-hosting-delivery), printing one line per delivery.
// Both talk to the sandbox the other commands call: its control routes sit beside `/auth/token`,
// at the token-service root of the target (--base-url, the environment or the profile).
import { setTimeout as sleep } from 'node:timers/promises';
import { ConnectionError, HostingApiError } from '@hosting-api/client';
import { type Answer, ReadError, request } from '@hosting-api/openapi/http';
import type { Command } from 'commander';
import { profileName, readCredentials } from '../config';
import { EXIT } from '../errors';
import { type Act, globals } from '../globals';
import type { Io } from '../io';
import { addresses } from '../session';
import { UsageError } from '../values';

/** Each request to the sandbox or the forward URL: at most this long, at most this much read. */
const DEADLINE_MS = 10_000;
// 8 MiB: the sandbox keeps at most 1,000 deliveries of a few KB each, and an endless answer then
// costs the CLI well under 100 MB.
const MAX_BYTES = 8 * 1024 * 1024;

interface Recorded {
  seq?: number;
  id: number;
  event: string;
  payload: unknown;
}

function urlOption(value: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} must be an http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${flag} must be an http(s) URL, got "${value}"`);
  return url.href.replace(/\/$/, '');
}

/**
 * The sandbox's root: the target's token-service root, as every command resolves it. `--sandbox`
 * (or HOSTING_API_SANDBOX_URL) names it without a target, and must name the same one with a target.
 */
function sandboxOf(command: Command, opts: { sandbox?: string }, io: Io): string {
  const namedBy = opts.sandbox !== undefined ? '--sandbox' : 'HOSTING_API_SANDBOX_URL';
  const named = opts.sandbox ?? io.env.HOSTING_API_SANDBOX_URL;
  const g = globals(command, io.env);
  const stored = readCredentials(io.env);
  const targetBy = g.baseUrl
    ? '--base-url'
    : io.env.HOSTING_API_BASE_URL
      ? 'HOSTING_API_BASE_URL'
      : stored?.baseUrl
        ? `profile ${profileName(io.env)}`
        : undefined;
  if (!targetBy) {
    if (named === undefined)
      throw new UsageError(
        "no sandbox: pass --base-url or set HOSTING_API_BASE_URL (the sandbox's base ending in /v1), use a profile logged in to it, or give --sandbox",
      );
    return urlOption(named, namedBy);
  }
  const root = urlOption(addresses(g, io.env, stored).authUrl, targetBy);
  if (named !== undefined && urlOption(named, namedBy) !== root)
    throw new UsageError(
      `${namedBy} ${urlOption(named, namedBy)} is another sandbox than the target's ${root} (${targetBy}): drop one, or make them agree`,
    );
  return root;
}

/** Control characters (terminal escapes among them) of what a peer sent, before it is printed. */
export const printable = (text: string) => text.replace(/\p{Cc}/gu, '');

/** One JSON request to the sandbox's control routes; its `data`, or an error naming the problem. */
async function control<T>(root: string, method: string, path: string, body?: unknown): Promise<T> {
  let res: Answer;
  try {
    // The one reader: at most MAX_BYTES read within DEADLINE_MS, and a redirect is an answer, not followed.
    res = await request(
      root + path,
      {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      },
      { deadline: DEADLINE_MS, maxBytes: MAX_BYTES },
    );
  } catch (error) {
    if (error instanceof ReadError && error.code === 'TOO_LARGE')
      throw new Error(`the sandbox's answer to ${method} ${path} is larger than ${MAX_BYTES} bytes`);
    if (error instanceof ReadError && error.code === 'DEADLINE')
      throw new ConnectionError(`the sandbox at ${root} did not answer ${method} ${path} within ${DEADLINE_MS} ms`, {
        cause: error,
      });
    throw new ConnectionError(
      `cannot reach the sandbox at ${root} (start it with hosting-api-sandbox, or point --base-url or the profile at it)`,
      {
        cause: error,
      },
    );
  }
  let parsed: { data?: T; errors?: string[] | null; message?: string } | undefined;
  try {
    parsed = JSON.parse(res.text);
  } catch {}
  const ok = res.status >= 200 && res.status < 300;
  if (!ok || parsed === undefined) {
    const message = typeof parsed?.message === 'string' ? printable(parsed.message) : undefined;
    throw new HostingApiError(message ?? `${method} ${path} answered ${res.status}`, {
      status: res.status,
      errors: Array.isArray(parsed?.errors) ? parsed.errors.map((e) => printable(String(e))) : null,
    });
  }
  return parsed.data as T;
}

async function forward(to: string, delivery: Recorded): Promise<string> {
  try {
    const res = await request(
      to,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-hosting-event': delivery.event,
          'x-hosting-delivery': String(delivery.id),
        },
        body: JSON.stringify(delivery.payload),
      },
      { deadline: DEADLINE_MS, maxBytes: MAX_BYTES },
    );
    return String(res.status);
  } catch (error) {
    return `failed (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** Adds the `webhooks` commands to the program. */
export function addWebhookCommands(program: Command, act: Act, io: Io): void {
  const webhooks =
    program.commands.find((c) => c.name() === 'webhooks') ??
    program.command('webhooks').description('webhook deliveries from the sandbox: trigger one, or listen and forward');
  const sandboxHelp =
    "the sandbox's root (default HOSTING_API_SANDBOX_URL); without it, the target's (--base-url, HOSTING_API_BASE_URL or the profile), which it must match";

  webhooks
    .command('trigger')
    .description(
      "Ask the sandbox to send one valid delivery of EVENT (an event of the spec's webhooks) about an existing resource.",
    )
    .argument('<event>', 'the event, e.g. git_deploy_completed')
    .requiredOption('--site <id>', 'the site whose newest finished git deploy it is about')
    .option('--deploy <id>', 'a given deploy of that site instead of the newest')
    .option('--sandbox <url>', sandboxHelp)
    .action((event: string, opts: { site: string; deploy?: string; sandbox?: string }, command: Command) =>
      act(async () => {
        const root = sandboxOf(command, opts, io);
        const int = (value: string, flag: string) => {
          if (!/^\d+$/.test(value)) throw new UsageError(`${flag} must be a whole number, got "${value}"`);
          return Number(value);
        };
        const body: Record<string, unknown> = { event, site_id: int(opts.site, '--site') };
        if (opts.deploy !== undefined) body.deploy_id = int(opts.deploy, '--deploy');
        const sent = await control<Recorded>(root, 'POST', '/__sandbox/webhooks/trigger', body);
        io.stdout.write(`${JSON.stringify({ event: sent.event, delivery: sent.id, payload: sent.payload })}\n`);
        return EXIT.ok;
      }),
    );

  webhooks
    .command('listen')
    .description(
      "Forward the sandbox's new webhook deliveries to a URL (POST, JSON, with x-hosting-event and x-hosting-delivery), one line per delivery, until interrupted.",
    )
    .requiredOption('--forward-to <url>', 'where to POST each delivery, e.g. http://127.0.0.1:3000/webhooks')
    .option('--sandbox <url>', sandboxHelp)
    .option('--interval <ms>', 'how often to look for new deliveries (default 250)')
    .option('--count <n>', 'stop after forwarding this many deliveries')
    .action((opts: { forwardTo: string; sandbox?: string; interval?: string; count?: string }, command: Command) =>
      act(async () => {
        const root = sandboxOf(command, opts, io);
        const to = urlOption(opts.forwardTo, '--forward-to');
        const interval = opts.interval === undefined ? 250 : Number(opts.interval);
        if (!Number.isInteger(interval) || interval < 10 || interval > 60_000)
          throw new UsageError(`--interval must be milliseconds from 10 to 60000, got "${opts.interval}"`);
        const count = opts.count === undefined ? Number.POSITIVE_INFINITY : Number(opts.count);
        if (!(Number.isInteger(count) || count === Number.POSITIVE_INFINITY) || count < 1)
          throw new UsageError(`--count must be a whole number above 0, got "${opts.count}"`);
        // Only deliveries recorded after the start are forwarded (`seq` numbers every record).
        const list = () => control<Recorded[]>(root, 'GET', '/__sandbox/webhooks');
        let last = Math.max(0, ...(await list()).map((d) => d.seq ?? 0));
        io.stderr.write(`Forwarding the webhook deliveries of ${root} to ${to} (Ctrl-C to stop)\n`);
        let forwarded = 0;
        for (;;) {
          for (const delivery of await list()) {
            if ((delivery.seq ?? 0) <= last) continue;
            last = delivery.seq ?? last;
            const status = await forward(to, delivery);
            io.stdout.write(
              `${printable(String(delivery.event))} delivery ${printable(String(delivery.id))} → ${to} ${printable(status)}\n`,
            );
            if (++forwarded >= count) return EXIT.ok;
          }
          await sleep(interval);
        }
      }),
    );
}
