// What the tests of the installed packages share: where the packed install is (packed-install.ts,
// the globalSetup), the installed bins and how to start them, and the Node lines they run on.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, inject, it } from 'vitest';
import { SUPPORTED_NODE_LINES } from '../../scripts/node-lines.mjs';
import { nodeBinary } from './pack.mjs';

export { run } from './packed-install.ts';

export const BINS: Record<string, string> = {
  '@hosting-api/cli': 'hosting-api',
  '@hosting-api/mcp': 'hosting-api-mcp',
  '@hosting-api/contract': 'hosting-api-contract',
  '@hosting-api/mock': 'hosting-api-mock',
  '@hosting-api/sandbox': 'hosting-api-sandbox',
};
/** The sandbox's documented client secret (its client is `sandbox-client`). */
export const SANDBOX_SECRET = 'sandbox-secret';
/** The contract gate's whole run, on the slowest machines. */
export const LONG_TIMEOUT = 300_000;

const packed = inject('packed');
/** Why there is no packed install (npm cannot reach its registry), if there is none. */
export const problem = 'problem' in packed ? packed.problem : undefined;
/** The scratch project the tarballs are installed in, outside the workspace. */
export const scratch = 'scratch' in packed ? packed.scratch : '';
export const versions = 'versions' in packed ? packed.versions : {};
/** Each published package's tarball, as a `file:` dependency spec. */
export const tarballs = 'tarballs' in packed ? packed.tarballs : {};

/** The test files' describe: skipped, with the reason as a skipped test, when there is no packed install. */
export function describeInstalled(name: string, body: () => void) {
  describe.skipIf(problem !== undefined)(name, body);
  if (problem !== undefined)
    describe(name, () => {
      it.skip(`SKIPPED: npm cannot reach its registry (${problem}); the packed install needs it for zod, find-my-way and Prism`, () => {});
    });
}

/** The supported Node lines (scripts/node-lines.mjs): the machine's Node for its own line, else the newest release (fetched, or found in the cache, once). */
export const nodeLines = SUPPORTED_NODE_LINES;
export const ownLine = Number(process.versions.node.split('.')[0]);
export const nodeOf = (major: number) => (major === ownLine ? process.execPath : nodeBinary(major));

/** The script of an installed bin, for another Node to run (pnpm's .bin entries are shell scripts). */
export function binScript(bin: string): string {
  const name = Object.keys(BINS).find((n) => BINS[n] === bin)!;
  const dir = join(scratch, 'node_modules', name);
  return join(dir, JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).bin[bin]);
}

/** One run of an installed bin on `node`, stdin given, stdout and stderr apart (async: the test's own stub server must answer meanwhile). */
export function runBin(node: string, script: string, args: string[], env: Record<string, string>, stdin = '') {
  const child = spawn(node, [script, ...args], { env: { PATH: process.env.PATH ?? '', ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c));
  child.stderr.on('data', (c: Buffer) => (err += c));
  child.stdin.end(stdin);
  return new Promise<{ code: number; out: string; err: string }>((done) =>
    child.on('close', (code) => done({ code: code ?? -1, out, err })),
  );
}

/**
 * Starts an installed bin (through its .bin shim on the machine's Node, else its script on `node`);
 * `ready` resolves with the match of `pattern` in what it prints (its URLs).
 */
export function startBin(bin: string, args: string[], pattern: RegExp, node = process.execPath) {
  const shim = join(scratch, 'node_modules/.bin', bin);
  const [cmd, argv] = node === process.execPath ? [shim, args] : [node, [binScript(bin), ...args]];
  const child = spawn(cmd, argv, { cwd: scratch, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const ready = new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${bin} printed no URL within 30 s:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = output.match(pattern);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${bin} exited with ${code} before printing its URL:\n${output}`));
    });
  });
  return { child, ready };
}

/** Stops a started bin: SIGTERM, then SIGKILL after 10 s. */
export function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** The installed sandbox's bin on `node`, its clock at `speed` (0 freezes it); `ready` gives its addresses. */
export function startSandbox(node: string, speed: number) {
  const { child, ready } = startBin(
    'hosting-api-sandbox',
    ['--port', '0', '--speed', String(speed)],
    /API:\s+(http:\S+)\n\s*Auth:\s+(http:\S+)\/auth\/token/,
    node,
  );
  return { child, ready: ready.then(([, baseUrl, authUrl]) => ({ baseUrl: baseUrl!, authUrl: authUrl! })) };
}
