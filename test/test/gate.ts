// Runs one of the gate's phase scripts (@hosting-api/contract's dist/run.js, dist/workflows.js) as a user would: a child
// process with the given environment (no CONTRACT_* variable of this process leaks in); collects its
// output and, for run.js, every transaction's outcome.
// The gate is the one installed from its packed tarball (release/packed-install.ts, the globalSetup),
// with the dependencies its manifest declares; only if npm cannot reach its registry, the workspace's.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { problem, scratch } from '../release/installed.ts';

export interface Outcome {
  code: number;
  output: string;
  results: {
    key: string;
    name?: string;
    outcome: string;
    errors?: string[];
    /** The named checks that failed (checks.ts of @hosting-api/contract). */
    failures?: { check: string; message: string }[];
  }[];
  /** Failures that belong to no transaction (run.js): a documented response without one, the coverage floor. */
  problems: { name: string; check: string; message: string }[];
}

/** The installed gate's package folder (the workspace's when there is no packed install). */
export const contractPackage = problem
  ? join(__dirname, '../../packages/contract')
  : join(scratch, 'node_modules/@hosting-api/contract');
if (problem) console.warn(`gate tests: no packed install (${problem}); running the workspace's gate`);
/** The gate's built scripts. */
export const contractDir = join(contractPackage, 'dist');

/** The names of the checks that failed, by transaction key. */
export function failedChecks(outcome: Outcome): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const r of outcome.results.filter((x) => x.outcome === 'fail'))
    out[r.key] = [...new Set([...(out[r.key] ?? []), ...(r.failures ?? []).map((f) => f.check)])].sort();
  return out;
}

export function runGate(script: string, args: string[], env: Record<string, string | undefined>): Promise<Outcome> {
  const resultsFile = join(mkdtempSync(join(tmpdir(), 'gate-')), 'results.json');
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CONTRACT_')));
  const withResults = ['--results', resultsFile];
  const child = spawn(process.execPath, [script, ...args, ...withResults], {
    cwd: contractDir,
    env: { ...clean, ...env },
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    output += c.toString();
  });
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      let results: Outcome['results'] = [];
      let problems: Outcome['problems'] = [];
      try {
        ({ results, problems = [] } = JSON.parse(readFileSync(resultsFile, 'utf8')));
      } catch {
        // no results file (a configuration error before the run): the output says why
      }
      resolve({ code: code ?? 1, output, results, problems });
    });
  });
}

/** A drifting server's answer: the upstream's status and content type (and its 401 challenge), with `text` as the body. */
export function relay(
  res: ServerResponse,
  upstream: Response,
  text: string,
  challenge = upstream.headers.get('www-authenticate'),
) {
  res
    .writeHead(upstream.status, {
      'content-type': upstream.headers.get('content-type') ?? 'application/json',
      ...(challenge ? { 'www-authenticate': challenge } : {}),
    })
    .end(text);
}

/** Sends a request a drifting server received on to `upstream` (the sandbox's root) as it came: method, headers, body. */
export async function passOn(req: IncomingMessage, upstream: string): Promise<Response> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = Object.fromEntries(
    Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
  ) as Record<string, string>;
  return fetch(`${upstream}${req.url}`, {
    method: req.method,
    headers,
    body: chunks.length && req.method !== 'GET' ? Buffer.concat(chunks) : undefined,
  });
}

/** A drifting server's own paths aside, everything else goes to `upstream` and back, so that the rest of the run is real. */
export async function forward(req: IncomingMessage, res: ServerResponse, upstream: string) {
  const answer = await passOn(req, upstream);
  const body = Buffer.from(await answer.arrayBuffer());
  res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(body);
}

/** Listens on a free loopback port: the server's URL and a close(). */
export function listenLocal(server: Server): Promise<{ url: string; close(): Promise<void> }> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) });
    }),
  );
}

/** The installed gate's command line, `hosting-api-contract ARGS`, with no CONTRACT_* or GITHUB_ACTIONS variable of this process. */
export function runContractCli(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number; output: string; stderr: string }> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('CONTRACT_') && k !== 'GITHUB_ACTIONS'),
  );
  const child = spawn(process.execPath, [join(contractPackage, 'bin/hosting-api-contract.js'), ...args], {
    env: { ...clean, ...env },
  });
  let output = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (output += c));
  child.stderr.on('data', (c: Buffer) => (stderr += c));
  return new Promise((done) => child.on('exit', (code) => done({ code: code ?? 1, output, stderr })));
}
