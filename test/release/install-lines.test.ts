// Every install and npx line of the docs (scripts/install-lines.mjs), run as written in the packed
// install (packed-install.ts: the documented `pnpm install:packed`, into the scratch project), offline:
// a line that would need the registry fails as it would before the first release.
// - An install line's packages must be in the scratch project: its pre-release form installed them.
// - An npx line runs as a user's shell runs it (doc-commands.ts): a server line until it answers one
//   real request, then it is stopped; an MCP line over stdio (initialize, then one tool call); a
//   command to its end. A line that needs a target gets one: the sandbox this file starts. The lines
//   that name one port run one after another; four lines at a time, the longest first.
// - The gate lines: the one against the gate's own sandbox (`check --sandbox`) runs whole, as
//   written: every phase passes, the gate's whole run against its sandbox (what `pnpm contract:sandbox`
//   runs in the workspace; test-results/contract-sandbox.json carries its totals into CI's). The lines
//   against a server of the user's (the target) check one operation (CONTRACT_ONLY): their JUnit and
//   JSON reports must be written and add up. A whole live check is test/test's.
// Cost (2026-11-28, 2-core machine): npx resolving each line's package in the scratch tree (about
// 3 s of CPU a line, as for a user), the whole gate (about 40 s of CPU) and the two scoped gate lines
// (about 6 s of CPU each, mostly each phase's start) are most of it.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { allInstallLines } from '../../scripts/install-lines.mjs';
import {
  commandOf,
  flag,
  freePort,
  OFFLINE,
  parse,
  portFree,
  runToEnd,
  startServer,
  stopAll,
  stopGroup,
} from './doc-commands.ts';
import { BINS, describeInstalled, LONG_TIMEOUT, SANDBOX_SECRET, scratch, startBin, stop } from './installed.ts';

const lines = allInstallLines();

/**
 * npx lines the test cannot run offline and unattended, command → why. A line that is neither
 * runnable (`planOf`) nor here fails the test; an entry no doc has any more fails it too.
 */
const UNRUNNABLE: Record<string, string> = {};

/** The gate guide's client id: its line runs with its own `--client-id` against the target sandbox. */
const TARGET_CLIENT = 'my-ci-app';
/** A gate line against the target checks one operation: the whole gate against a live server is test/test's. */
const GATE_SCOPE = 'listSites';
/** Where this package's test reports go (scripts/test-totals.mjs sums them). */
const results = join(import.meta.dirname, '../test-results');
/** Lines at once: each is mostly CPU (npx, a server's or the gate's start) on a 2-core machine. */
const AT_ONCE = 4;
const SANDBOX_URLS = /API:\s+(http:\S+)\n\s*Auth:\s+(http:\S+)\/auth\/token/;

type Target = { baseUrl: string; authUrl: string; secret: string };
type Plan =
  | { kind: 'server'; port: number; pattern: RegExp; check: (out: string, urls: string[]) => Promise<string> }
  | { kind: 'mcp' | 'cli' | 'gate' | 'plain' };

/** How a command is run, or undefined when the test does not know how. */
function planOf(command: string): Plan | undefined {
  const { pkg, args } = parse(command);
  const port = flag(args, '--port');
  if (pkg === '@hosting-api/sandbox')
    return { kind: 'server', port: Number(port ?? 4011), pattern: SANDBOX_URLS, check: checkSandbox(args) };
  if (pkg === '@hosting-api/mock')
    return {
      kind: 'server',
      port: Number(port ?? 4010),
      pattern: /base URL:\s+(http:\S+)\n\s*auth URL:\s+(http:\S+)/,
      check: checkMock,
    };
  if (pkg === '@hosting-api/mcp' && !args.includes('--http')) return { kind: 'mcp' };
  if (pkg === '@hosting-api/cli' && args[0] !== 'auth') return { kind: 'cli' };
  if (pkg === '@hosting-api/contract' && args[0] === 'check') return { kind: 'gate' };
  if (pkg === '@hosting-api/contract' && ['--help', 'checks'].includes(args[0]!)) return { kind: 'plain' };
  return undefined;
}

async function token(authUrl: string, clientId: string, secret: string) {
  const res = await fetch(`${authUrl}/auth/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }),
  });
  const body = (await res.json()) as { data?: { access_token?: string } };
  if (!body.data?.access_token) throw new Error(`no token from ${authUrl}: ${res.status} ${JSON.stringify(body)}`);
  return body.data.access_token;
}

/** GET {base}/sites with a token: the one real answer a server line must give. */
async function listSites(baseUrl: string, bearer: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${baseUrl}/sites`, { headers: { authorization: `Bearer ${bearer}`, ...headers } });
  const body = (await res.json()) as { data?: unknown[] };
  if (res.status !== 200 || !Array.isArray(body.data))
    throw new Error(`GET /v1/sites answered ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
  return { res, sites: body.data.length };
}

/** The sandbox answers GET /v1/sites, and what the line set (CORS origins, faults, outcomes) is what it prints. */
const checkSandbox =
  (args: string[]) =>
  async (out: string, [baseUrl, authUrl]: string[]) => {
    const cors = flag(args, '--cors');
    const { res, sites } = await listSites(
      baseUrl!,
      await token(authUrl!, 'sandbox-client', SANDBOX_SECRET),
      cors ? { origin: cors } : {},
    );
    if (cors && res.headers.get('access-control-allow-origin') !== cors)
      throw new Error(`--cors ${cors}: the answer allows ${res.headers.get('access-control-allow-origin')}`);
    for (const [option, line] of [
      ['--fault', /Faults:\s+(\d+) set/],
      ['--outcome', /Outcomes:\s+(\d+) armed/],
    ] as const) {
      const given = args.filter((a) => a === option).length;
      if (given && Number(out.match(line)?.[1]) !== given)
        throw new Error(`${option} ×${given}, but it printed:\n${out}`);
    }
    return `GET /v1/sites: ${sites} sites`;
  };

const checkMock = async (_out: string, [baseUrl, authUrl]: string[]) => {
  const { sites } = await listSites(baseUrl!, await token(authUrl!, 'any-client', 'any-secret'));
  return `GET /v1/sites: ${sites} sites (the spec's example)`;
};

describeInstalled('the docs install and npx lines, against the packed install', () => {
  let target: Target;
  let targetChild: ReturnType<typeof startBin>['child'] | undefined;

  // The target of the lines that call an API (the CLI, the MCP configs, the gate with a base URL).
  beforeAll(async () => {
    const secret = `secret-${process.pid}-${Date.now()}`;
    const started = startBin(
      'hosting-api-sandbox',
      ['--port', '0', '--speed', '60', '--client-id', TARGET_CLIENT, '--client-secret', secret],
      SANDBOX_URLS,
    );
    targetChild = started.child;
    const [, baseUrl, authUrl] = await started.ready;
    target = { baseUrl: baseUrl!, authUrl: authUrl!, secret };
  });
  afterAll(() => Promise.all([stop(targetChild), stopAll()]));

  it('every package an install line names is installed by the pre-release form, or declared by one that is', () => {
    const missing: string[] = [];
    for (const l of lines.filter((x) => x.kind === 'install')) {
      const ours = l.packages.filter((p) => p.startsWith('@hosting-api/'));
      const declared = ours
        .filter((p) => existsSync(join(scratch, 'node_modules', p, 'package.json')))
        .flatMap((p) => {
          const pkg = JSON.parse(readFileSync(join(scratch, 'node_modules', p, 'package.json'), 'utf8'));
          return Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies, ...pkg.optionalDependencies });
        });
      for (const p of l.packages)
        if (!(p.startsWith('@hosting-api/') ? existsSync(join(scratch, 'node_modules', p)) : declared.includes(p)))
          missing.push(`${l.file}:${l.line}: ${p}`);
      // `npm install -g`: the pre-release form puts the bins in node_modules/.bin (the README adds it to PATH).
      if (l.flags.includes('-g'))
        for (const p of ours)
          if (BINS[p] && !existsSync(join(scratch, 'node_modules/.bin', BINS[p]!)))
            missing.push(`${l.file}:${l.line}: bin of ${p}`);
    }
    expect(missing).toEqual([]);
  });

  it('every npx line runs as written in the packed install: servers answer, commands succeed', {
    timeout: LONG_TIMEOUT,
  }, async () => {
    const npx = lines.filter((l) => l.kind === 'npx');
    // One run per distinct command (the same line in two docs runs once), with the lines that give it.
    const commands = new Map<string, string[]>();
    for (const l of npx) {
      const command = commandOf(l);
      commands.set(command, [...(commands.get(command) ?? []), `${l.file}:${l.line}`]);
    }
    const unknown = [...commands]
      .filter(([c]) => !planOf(c) && !UNRUNNABLE[c])
      .map(([c, at]) => `${at.join(', ')}: ${c}`);
    expect.soft(unknown, 'lines the test cannot run: run them, or list them in UNRUNNABLE with the reason').toEqual([]);
    expect
      .soft(
        Object.keys(UNRUNNABLE).filter((c) => !commands.has(c)),
        'UNRUNNABLE entries no doc has',
      )
      .toEqual([]);

    const work = mkdtempSync(join(scratch, 'lines-'));
    let n = 0;
    const notes: string[] = [];
    /** Runs one command in its own folder of the scratch project (its reports land there); resolves with what it showed. */
    const runOne = async (command: string, plan: Plan): Promise<string> => {
      const cwd = join(work, String(n++));
      mkdirSync(cwd);
      if (plan.kind === 'server') {
        let line = command;
        if (!(await portFree(plan.port))) {
          const port = await freePort();
          line = / --port \d+/.test(command)
            ? command.replace(/ --port \d+/, ` --port ${port}`)
            : `${command} --port ${port}`;
          notes.push(`port ${plan.port} is busy: ran \`${line}\``);
        }
        const server = startServer(line, cwd, plan.pattern);
        try {
          const [, ...urls] = await server.ready;
          return await plan.check(server.output(), urls);
        } finally {
          await stopGroup(server);
        }
      }
      if (plan.kind === 'mcp') return runMcp(command, cwd, target);
      const { args } = parse(command);
      // The target's addresses where a line names another host (the gate guide's staging server).
      const line = command
        .replace(/https:\/\/[\w.-]+\.example\.com\/v1/g, target.baseUrl)
        .replace(/https:\/\/[\w.-]+\.example\.com/g, target.authUrl);
      const sandboxGate = plan.kind === 'gate' && args.includes('--sandbox');
      const env: Record<string, string> = {
        XDG_CONFIG_HOME: cwd, // no profile of the machine's user
        HOSTING_API_BASE_URL: target.baseUrl,
        HOSTING_API_CLIENT_ID: TARGET_CLIENT,
        HOSTING_API_CLIENT_SECRET: target.secret,
        ...(plan.kind === 'gate' &&
          !sandboxGate && {
            CONTRACT_ONLY: GATE_SCOPE,
            CONTRACT_CLIENT_SECRET: target.secret,
            CONTRACT_BASE_URL: target.baseUrl,
            CONTRACT_AUTH_URL: target.authUrl,
            CONTRACT_CLIENT_ID: TARGET_CLIENT,
          }),
      };
      const r = await runToEnd(line, cwd, env);
      const seed = r.out.match(/seed \d+/)?.[0];
      if (r.code !== 0) throw new Error(`exit ${r.code}${seed ? ` (fuzz ${seed})` : ''}:\n${r.out.slice(-3000)}`);
      if (r.out.includes(target.secret)) throw new Error('it printed the client secret');
      for (const report of [flag(args, '--junit'), flag(args, '--json')])
        if (report && !existsSync(join(cwd, report))) throw new Error(`no ${report} written`);
      if (plan.kind === 'cli' && args.includes('--json')) JSON.parse(r.stdout);
      if (sandboxGate) return `${wholeGate(r.out)} (${seed})`;
      if (plan.kind === 'gate')
        return `${reportsAddUp(join(cwd, flag(args, '--junit')!), join(cwd, flag(args, '--json')!))} (CONTRACT_ONLY=${GATE_SCOPE})`;
      return `exit 0, ${r.out.length} characters`;
    };

    const outcomes = new Map<string, string>();
    const t0 = Date.now();
    const attempt = async (command: string) => {
      const plan = planOf(command);
      if (!plan) return outcomes.set(command, `not run: ${UNRUNNABLE[command]}`);
      const started = Date.now();
      const took = () =>
        `${((Date.now() - started) / 1000).toFixed(1)} s, done at ${((Date.now() - t0) / 1000).toFixed(1)} s`;
      try {
        const shown = await runOne(command, plan);
        outcomes.set(command, `ok (${took()}): ${shown}`);
      } catch (error) {
        outcomes.set(command, `FAILED (${took()}): ${(error as Error).message}`);
      }
      console.log(`${outcomes.get(command)!.split('\n')[0]}\n    ${command}`);
    };
    // The servers that name the same port, one after another, as one job; the jobs AT_ONCE at a
    // time, the longest first (by seconds of CPU alone: the whole gate 40, a server line 5, a scoped
    // gate line 13, any other line 3), so that no long one starts last.
    const byPort = new Map<number, string[]>();
    const jobs: string[][] = [];
    for (const command of commands.keys()) {
      const plan = planOf(command);
      if (plan?.kind !== 'server') jobs.push([command]);
      else if (byPort.has(plan.port)) byPort.get(plan.port)!.push(command);
      else {
        byPort.set(plan.port, [command]);
        jobs.push(byPort.get(plan.port)!);
      }
    }
    const cost = (command: string) => {
      const kind = planOf(command)?.kind;
      if (kind === 'gate') return command.includes('--sandbox') ? 40 : 13;
      return kind === 'server' ? 5 : 3;
    };
    const weight = (job: string[]) => job.reduce((n, c) => n + cost(c), 0);
    jobs.sort((a, b) => weight(b) - weight(a));
    await Promise.all(
      Array.from({ length: AT_ONCE }, async () => {
        for (let job = jobs.shift(); job; job = jobs.shift()) for (const command of job) await attempt(command);
      }),
    );

    const report = [...commands].map(([c, at]) => `${outcomes.get(c)}\n    ${c}\n    (${at.join(', ')})`);
    const ran = [...commands].filter(([c]) => outcomes.get(c)!.startsWith('ok'));
    console.log(
      `install lines: ${npx.length} npx lines in ${commands.size} distinct commands; ` +
        `${ran.flatMap(([, at]) => at).length} lines (${ran.length} commands) run as written, ` +
        `${Object.keys(UNRUNNABLE).length} listed as not runnable here, in ${((Date.now() - t0) / 1000).toFixed(1)} s` +
        `${notes.length ? `\n${notes.join('\n')}` : ''}`,
    );
    expect(report.filter((r) => r.startsWith('FAILED'))).toEqual([]);
  });
});

/**
 * The docs' whole `check --sandbox`: every phase ran and passed, as `pnpm contract:sandbox` checks the
 * gate against its own sandbox. Its totals go where CI sums the test reports. Returns its summary line.
 */
function wholeGate(out: string) {
  const summary = out.trim().split('\n').at(-1)!;
  const phases = [...summary.matchAll(/(\w+) (\d+) passed, (\d+) failed, (\d+) skipped/g)].map((m) => ({
    phase: m[1],
    passed: Number(m[2]),
    failed: Number(m[3]),
    skipped: Number(m[4]),
  }));
  if (
    !summary.startsWith('Contract gate (sandbox): PASSED') ||
    phases.map((p) => p.phase).join() !== 'examples,workflows,fuzz'
  )
    throw new Error(`not a whole gate run that passed: ${summary}`);
  const sum = (key: 'passed' | 'failed' | 'skipped') => phases.reduce((n, p) => n + p[key], 0);
  // 393 documented responses (and their auth probes), 29 workflows, every operation's fuzz cases.
  if (phases.some((p) => p.passed === 0 || p.failed > 0) || sum('passed') < 700)
    throw new Error(`a phase with no passing case, or fewer than 700 in all: ${summary}`);
  mkdirSync(results, { recursive: true });
  writeFileSync(
    join(results, 'contract-sandbox.json'),
    JSON.stringify({ passed: sum('passed'), failed: sum('failed'), skipped: sum('skipped') }),
  );
  return summary;
}

/** A gate line's JUnit and JSON reports: one suite per phase, none failed, and their totals agree. */
function reportsAddUp(junit: string, json: string) {
  const report = JSON.parse(readFileSync(json, 'utf8'));
  const xml = readFileSync(junit, 'utf8');
  const suites = [...xml.matchAll(/<testsuite name="(\w+)" tests="(\d+)" failures="(\d+)"/g)].map((m) => ({
    name: m[1],
    tests: Number(m[2]),
    failures: Number(m[3]),
  }));
  const total = suites.reduce((n, s) => n + s.tests, 0);
  const problems = [
    report.target !== 'live' && `target ${report.target}`,
    report.failed !== 0 && `${report.failed} failed`,
    !(report.passed > 0) && 'nothing passed',
    suites.map((s) => s.name).join() !== 'examples,workflows,fuzz,state' && `suites ${suites.map((s) => s.name)}`,
    suites.some((s) => s.tests === 0 || s.failures > 0) && 'an empty or failed suite',
    !xml.includes(`<testsuites tests="${total}" failures="0" errors="0"`) && `<testsuites> is not the sum, ${total}`,
    total !== report.passed + report.failed + report.skipped &&
      `JUnit ${total} cases, JSON ${report.passed}+${report.failed}+${report.skipped}`,
  ].filter(Boolean);
  if (problems.length) throw new Error(`its reports: ${problems.join('; ')}`);
  return `${suites.map((s) => `${s.name} ${s.tests}`).join(', ')}: JUnit and JSON agree, ${report.passed} passed`;
}

/** An MCP line over stdio, as an MCP client starts it: initialize, then one tool call to the target. */
async function runMcp(command: string, cwd: string, target: Target) {
  let stderr = '';
  const transport = new StdioClientTransport({
    command: 'sh',
    args: ['-c', `exec ${command}`],
    cwd,
    env: {
      ...OFFLINE,
      PATH: process.env.PATH ?? '',
      HOSTING_API_BASE_URL: target.baseUrl,
      HOSTING_API_CLIENT_ID: TARGET_CLIENT,
      HOSTING_API_CLIENT_SECRET: target.secret,
    },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (c) => (stderr += c));
  const client = new Client({ name: 'install-lines-test', version: '0' });
  try {
    await client.connect(transport);
    const sites = (await client.callTool({ name: 'listSites', arguments: {} })) as CallToolResult;
    if (sites.isError || (sites.structuredContent as { message?: string })?.message !== 'Success')
      throw new Error(`listSites: ${JSON.stringify(sites).slice(0, 300)}`);
    return `initialize, then listSites: ${((sites.structuredContent as { data: unknown[] }).data ?? []).length} sites`;
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${stderr}`);
  } finally {
    await client.close();
  }
}
