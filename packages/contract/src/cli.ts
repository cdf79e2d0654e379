// The command-line side shared by the phase scripts (run.ts, workflows.ts, fuzz.ts): option
// parsing, usage errors (exit 2 with one line), the spec file, and the variables a live target needs.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { resolveTarget } from '@hosting-api/openapi/target';

const require = createRequire(import.meta.url);

import type { SandboxOptions } from '@hosting-api/sandbox';
import { cappedFetch } from './http-cap';
import { addSecret } from './redact';
import type { createChecker } from './spec-check';
import type { CappedAnswer, Operation, OptionValues, Usage } from './types';

/** --request-timeout's default. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** How long a phase waits for the answer to a request under test before it gives up (--request-timeout). */
export const REQUEST_TIMEOUT_MS = Number(process.env.CONTRACT_REQUEST_TIMEOUT) || DEFAULT_REQUEST_TIMEOUT_MS;
/**
 * How old the run's token may get before a phase asks for a fresh one (CONTRACT_TOKEN_REFRESH_MS,
 * default 20 s). The gate cannot know how long a target's tokens live in real time (the sandbox's
 * hour passes in a minute at --speed 60), and a fresh token costs one small request.
 */
export const TOKEN_REFRESH_MS = Number(process.env.CONTRACT_TOKEN_REFRESH_MS) || 20_000;
/** How long the gate waits for its own setup requests (the token, the reachability probe): a short --request-timeout is for the checks, not for them. */
export const SETUP_TIMEOUT_MS = 15_000;

const LIVE_VARS: Record<string, string> = {
  CONTRACT_BASE_URL: 'the API base URL, ending in /v1 (e.g. https://api.example.com/v1)',
  CONTRACT_AUTH_URL: 'the root URL that serves POST /auth/token (default: CONTRACT_BASE_URL without /v1)',
  CONTRACT_CLIENT_ID: "the API application's client id",
  CONTRACT_CLIENT_SECRET: "the API application's client secret",
};

/**
 * Parses the command line (node:util parseArgs, plus -h/--help); `usage(message)` exits 2 with one
 * line. Started by hosting-api-contract, a phase speaks as it (CONTRACT_COMMAND), so the line names
 * the command the user ran.
 */
export function parseCommandLine<T extends NonNullable<ParseArgsConfig['options']>>(
  name: string,
  help: string,
  options: T,
) {
  const usage: Usage = (message) => {
    process.stderr.write(`${process.env.CONTRACT_COMMAND ?? name}: ${message}\n(add --help for the options)\n`);
    process.exit(2);
  };
  let values: OptionValues<T>;
  try {
    ({ values } = parseArgs({ options: { ...options, help: { type: 'boolean', short: 'h', default: false } } }) as {
      values: OptionValues<T>;
    });
  } catch (error) {
    usage((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${help}\n`);
    process.exit(0);
  }
  return { values, usage };
}

/** The spec the gate checks against: HOSTING_API_SPEC, else the bundle of @hosting-api/openapi (`ext`: json or yaml). */
export function specFile(usage: Usage, ext = 'json') {
  let file: string;
  try {
    file = process.env.HOSTING_API_SPEC
      ? resolve(process.env.HOSTING_API_SPEC)
      : require.resolve(`@hosting-api/openapi/openapi.${ext}`);
  } catch {
    usage('the bundled spec is missing: run `pnpm --filter @hosting-api/openapi bundle` (or set HOSTING_API_SPEC).');
  }
  if (!existsSync(file)) usage(`spec file not found: ${file}`);
  return file;
}

/** Exits 2 naming each live-target variable that is not set (`command` and `writes` say who and what). */
export function requireLiveVars(command: string, writes: string) {
  // CONTRACT_AUTH_URL defaults to the base URL without /v1 (@hosting-api/openapi/target).
  if (process.env.CONTRACT_BASE_URL && !process.env.CONTRACT_AUTH_URL)
    try {
      process.env.CONTRACT_AUTH_URL = resolveTarget(
        { baseUrl: process.env.CONTRACT_BASE_URL },
        { baseUrl: 'CONTRACT_BASE_URL' },
      ).authUrl;
    } catch (error) {
      process.stderr.write(`${command}: ${(error as Error).message}\n`);
      process.exit(2);
    }
  const missing = Object.keys(LIVE_VARS).filter((name) => !process.env[name]);
  if (missing.length === 0) return;
  const lines = missing.map((name) => `  ${name}  ${LIVE_VARS[name]}\n`).join('');
  process.stderr.write(`${command} needs these environment variables, which are not set:\n${lines}${writes}\n`);
  process.exit(2);
}

/**
 * Starts the sandbox as the gate's target: a free port, a frozen clock at a fixed time (queued work
 * stays in its in-between state, runs are repeatable) and the response self-check on; its first
 * client's credentials become CONTRACT_CLIENT_ID / CONTRACT_CLIENT_SECRET. `options` add to these.
 */
export async function startGateSandbox(usage: Usage, options: SandboxOptions = {}) {
  let startSandbox: typeof import('@hosting-api/sandbox').startSandbox;
  try {
    ({ startSandbox } = await import('@hosting-api/sandbox'));
  } catch (error) {
    usage(
      `cannot load @hosting-api/sandbox (${(error as Error).message}): run \`pnpm --filter @hosting-api/sandbox build\`.`,
    );
  }
  const sandbox = await startSandbox({
    port: 0,
    speed: 0,
    startTime: '2026-11-02T09:00:00.000Z',
    selfCheck: true,
    onError: (m, e) => console.error(`[sandbox] ${m}:`, e),
    ...options,
  });
  process.env.CONTRACT_CLIENT_ID = sandbox.clients[0]!.clientId;
  process.env.CONTRACT_CLIENT_SECRET = sandbox.clients[0]!.clientSecret;
  return sandbox;
}

/**
 * A token from the target's token operation (`op`: the spec model's issueTokenOperation), asked with
 * `client`'s credentials (default: the run's). With `checker` (spec-check.ts) the response is also
 * checked against the spec. Anything else throws "could not obtain a token from POST <url>: <why>".
 */
export async function obtainToken(
  authUrl: string | URL,
  op: Operation,
  {
    checker,
    client,
  }: { checker?: Awaited<ReturnType<typeof createChecker>>; client?: Record<string, string> | undefined } = {},
) {
  const base = String(authUrl);
  const url = new URL(op.path.replace(/^\//, ''), base.endsWith('/') ? base : `${base}/`);
  const where = `${op.method.toUpperCase()} ${url}`;
  const fail = (why: string) => new Error(`could not obtain a token from ${where}: ${why}`);
  const { CONTRACT_CLIENT_ID: client_id, CONTRACT_CLIENT_SECRET: client_secret } = process.env;
  let res: CappedAnswer;
  try {
    res = await cappedFetch(
      url,
      {
        method: op.method.toUpperCase(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          ...((client ?? { client_id, client_secret }) as Record<string, string>),
        }),
      },
      { deadline: SETUP_TIMEOUT_MS, maxBytes: 1024 * 1024 },
    );
  } catch (error) {
    throw fail((error as Error).message);
  }
  const text = res.body;
  if (res.statusCode !== 200) throw fail(`it answered ${res.statusCode}: ${text.slice(0, 300)}`);
  // Every token response is checked against the spec, not only the token operation's transaction.
  const response = res;
  const problems = checker?.checkResponse(checker.findOperation(op.method, op.path)!, '200', response) ?? [];
  if (problems.length) throw fail(`the token response of ${where} does not match the spec: ${problems.join('; ')}`);
  let token: unknown;
  try {
    token = JSON.parse(text).data?.access_token;
  } catch {}
  if (typeof token !== 'string') throw fail(`no data.access_token in ${text.slice(0, 300)}`);
  addSecret(token); // never printed, whatever a target echoes
  return token;
}
