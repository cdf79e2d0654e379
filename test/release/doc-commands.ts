// The npx lines of the docs as a user's shell runs them, in the packed install (installed.ts), offline:
// what each command is (its continuation lines joined, an MCP config's `args` as a command line), how
// the test runs it (a server until it answers, an MCP server over stdio, a command to its end), and
// the helpers that start, wait for and stop a line's processes.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import type { allInstallLines } from '../../scripts/install-lines.mjs';
import { BINS } from './installed.ts';

type InstallLine = ReturnType<typeof allInstallLines>[number];
const root = join(import.meta.dirname, '../..');
/** npm without the registry: a line that needs it fails here, as it would before the first release. */
export const OFFLINE = { npm_config_offline: 'true', npm_config_update_notifier: 'false' };

const quote = (arg: string) => (/^[\w@/.,:=+-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`);

/** The whole command of a line as written: its continuation lines joined; an MCP config's `args` after `npx`. */
export function commandOf(l: InstallLine): string {
  const doc = readFileSync(join(root, l.file), 'utf8').split('\n');
  const raw = doc[l.line - 1]!;
  const mcpArgs = raw.match(/\[\s*"-y",[^\]]*\]/);
  if (l.text.startsWith('[') && mcpArgs) return `npx ${(JSON.parse(mcpArgs[0]) as string[]).map(quote).join(' ')}`;
  let command = l.text;
  let rest = raw.slice(raw.indexOf(l.text) + l.text.length);
  for (let next = l.line; /^\s*\\\s*$/.test(rest); next++) {
    const [, more, after] = doc[next]!.trim().match(/^([^#&|;\\]*)(.*)$/)!;
    command += ` ${more!.trim()}`;
    rest = after!;
  }
  return command;
}

/** The package a command runs (npx's first argument that is not a flag, or a bin's package) and its arguments. */
export function parse(command: string) {
  const tokens = command.split(/\s+/).slice(1);
  const at = tokens.findIndex((t) => !t.startsWith('-'));
  const name = tokens[at]!.replace(/(?<=.)@[\w.-]+$/, '');
  const pkg = Object.keys(BINS).find((p) => p === name || BINS[p] === name) ?? name;
  return { pkg, args: tokens.slice(at + 1).map((a) => a.replace(/^'(.*)'$/, '$1')) };
}

/** A value of `--flag VALUE` among a command's arguments. */
export const flag = (args: string[], name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);

/** Whether nothing listens on a loopback port. */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** A port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The process groups of the lines started and not yet ended (`stopAll` ends them). */
const groups = new Set<ChildProcess>();

/** A command of the docs in `sh`, in its own process group (npx and what it starts stop together). */
export function shell(command: string, cwd: string, env: Record<string, string> = {}) {
  const child = spawn('sh', ['-c', `exec ${command}`], {
    cwd,
    detached: true,
    env: { ...process.env, ...OFFLINE, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  groups.add(child);
  child.on('close', () => groups.delete(child));
  let output = '';
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => {
    output += c;
    stdout += c;
  });
  child.stderr.on('data', (c: Buffer) => (output += c));
  const closed = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  return { child, closed, output: () => output, stdout: () => stdout };
}

/** Runs a command of the docs to its end: its exit status, what it printed, and its stdout alone. */
export async function runToEnd(command: string, cwd: string, env: Record<string, string> = {}) {
  const run = shell(command, cwd, env);
  const code = await run.closed;
  return { code, out: run.output(), stdout: run.stdout() };
}

/**
 * Starts a server line and resolves with the match of `pattern` in what it prints (its URL): the
 * line's own "listening" lines, no sleeps. Fails when it exits first or prints nothing within 60 s.
 */
export function startServer(command: string, cwd: string, pattern: RegExp) {
  const run = shell(command, cwd);
  const ready = new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`printed no address within 60 s:\n${run.output()}`)), 60_000);
    const look = () => {
      const m = run.output().match(pattern);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    run.child.stdout.on('data', look);
    run.child.stderr.on('data', look);
    run.closed.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before it answered:\n${run.output()}`));
    });
  });
  return { ...run, ready };
}

/** Stops a started line's whole process group: SIGTERM, SIGKILL after 10 s; resolves when its output closed. */
export async function stopGroup(run: { child: ChildProcess; closed: Promise<number> }) {
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-run.child.pid!, signal);
    } catch {} // the group is gone already
  };
  kill('SIGTERM');
  const timer = setTimeout(() => kill('SIGKILL'), 10_000);
  await run.closed;
  clearTimeout(timer);
}

/** Stops every line still running (a test that timed out leaves no server behind). */
export const stopAll = () =>
  Promise.all(
    [...groups].map((child) => stopGroup({ child, closed: new Promise((resolve) => child.once('close', resolve)) })),
  );
