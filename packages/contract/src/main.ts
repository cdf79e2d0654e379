// hosting-api-contract: the command line of the contract gate. Each phase runs in its own process
// (examples: run.ts with Dredd; workflows: workflows.ts with `redocly respect`; fuzz: fuzz.ts
// with fast-check); this file checks the configuration, runs the phases, and writes the reports.
// Exit codes: 0 passed, 1 contract failures, 2 usage or configuration, 3 target unreachable or
// credentials refused.
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { resolveTarget } from '@hosting-api/openapi/target';
import { Command, InvalidArgumentError, Option } from 'commander';
import { createApi } from './api';
import { DEFAULT_REQUEST_TIMEOUT_MS, obtainToken, SETUP_TIMEOUT_MS, specFile } from './cli';
import { Stop, stopEarly } from './ending';
import { cappedFetch } from './http-cap';
import { createObserver, type Entry, ledgerReport, openLedger } from './ledger';
import { curlOf, githubReport, tokenLine, writeJson, writeJunit } from './report';

const require = createRequire(import.meta.url);

import { CHECKS, checkOfProblem, selectChecks } from './checks';
import { createPlan } from './live-plan';
import { guardOutput } from './redact';
import type { CappedAnswer, Failure, Json, PhaseResult, PhaseResults, ReportCase, SpecModel, Totals } from './types';

// Nothing a target sent is printed verbatim: tokens redacted, long lines cut (redact.ts).
guardOutput();

/** The options of a phase command (commander's camel-cased names). */
interface RunOptions {
  baseUrl?: string;
  authUrl?: string;
  clientId?: string;
  sandbox?: boolean;
  mock?: boolean;
  allowWrites?: boolean;
  checks?: string;
  excludeChecks?: string;
  maxResponseTime?: number;
  requestTimeout?: number;
  junit?: string;
  json?: string;
  targetData?: string;
  limitedClientId?: string;
  minCoverage?: number;
  only?: string;
  exclude?: string;
  workflow?: string;
  seed?: number;
  maxExamples?: number;
  spec?: string;
  failOnFlaky?: boolean;
}

const here = import.meta.dirname;
const { version } = require('../package.json');

/** One line on stderr, then the exit code: never a stack trace. */
function die(code: number, message: string): never {
  process.stderr.write(`hosting-api-contract: ${message}\n`);
  process.exit(code);
}

const whole =
  (name: string, min = 0) =>
  (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min)
      throw new InvalidArgumentError(`${name} must be a whole number of at least ${min}.`);
    return n;
  };

const percentage = (value: string) => {
  const n = Number(value);
  if (value.trim() === '' || !(n >= 0 && n <= 100))
    throw new InvalidArgumentError('--min-coverage must be a percentage from 0 to 100.');
  return n;
};

/** Exits 2 unless every `--only` entry names an operation of the spec (or a documented response of one). */
function checkOnly(model: SpecModel, only: string, flag: string) {
  for (const entry of only
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [id, status, extra] = entry.split(/\s+/);
    const operation = model.operations.find((o) => o.operationId === id);
    if (!operation)
      die(
        2,
        `${flag}: no operation "${id}" in the spec (operationIds such as getSite, listSiteNotes: see the reference).`,
      );
    const statuses = Object.keys(operation.responses);
    if (extra !== undefined || (status !== undefined && !statuses.includes(status)))
      die(
        2,
        `${flag}: "${entry}" is not "<operationId>" or "<operationId> <status>" with one of ${id}'s statuses (${statuses.join(', ')}).`,
      );
  }
}

const program = new Command('hosting-api-contract')
  .description(
    'The contract gate of the Hosting Platform Management API v1: checks a server (yours, a staging deployment, the sandbox) against the API description this package ships.',
  )
  .version(version)
  .showHelpAfterError('(add --help for the options)')
  .configureOutput({ outputError: (text, write) => write(`hosting-api-contract: ${text.replace(/^error: /, '')}`) })
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2));

const PHASES = {
  examples: 'one request per documented response (Dredd), full OpenAPI 3.1 checks of every answer, auth probes',
  workflows: 'the Arazzo workflows shipped with the spec: states, transitions, limits, paging, webhooks',
  fuzz: 'generated input (fast-check, seeded): negative and positive data, deletes, creates, filters, auth',
};

function targetOptions(command: Command, phases: string[]) {
  command
    .addOption(new Option('--base-url <url>', 'the API base URL, ending in /v1').env('CONTRACT_BASE_URL'))
    .addOption(
      new Option(
        '--auth-url <url>',
        'the root URL that serves POST /auth/token (default: the base URL without /v1)',
      ).env('CONTRACT_AUTH_URL'),
    )
    .addOption(
      new Option(
        '--client-id <id>',
        "the API application's client id (the secret only from CONTRACT_CLIENT_SECRET)",
      ).env('CONTRACT_CLIENT_ID'),
    )
    .addOption(
      new Option(
        '--limited-client-id <id>',
        'a second application with fewer scopes (its secret only from CONTRACT_LIMITED_CLIENT_SECRET): every documented 403 of an operation that requires a scope is sent with its token',
      ).env('CONTRACT_LIMITED_CLIENT_ID'),
    )
    .option('--sandbox', 'start the bundled sandbox and check it (no credentials needed)')
    .option('--allow-writes', 'run what creates, changes or deletes (a test account only; or CONTRACT_ALLOW_WRITES=1)')
    .option('--checks <names>', 'comma-separated checks to run (default: all but max_response_time); see `checks`')
    .option('--exclude-checks <names>', 'comma-separated checks to leave out')
    .option(
      '--max-response-time <ms>',
      'fail answers slower than this (turns on max_response_time)',
      whole('--max-response-time', 1),
    )
    .addOption(
      new Option(
        '--request-timeout <ms>',
        'give up on a request under test the target has not answered after this long',
      )
        .env('CONTRACT_REQUEST_TIMEOUT')
        .default(DEFAULT_REQUEST_TIMEOUT_MS)
        .argParser(whole('--request-timeout', 1)),
    )
    .addOption(
      new Option(
        '--spec <file>',
        'the bundled OpenAPI document to check against (default: the one this package ships)',
      ).env('HOSTING_API_SPEC'),
    )
    .option(
      '--fail-on-flaky',
      'fail the run on a flaky case too (a failure that did not happen again when replayed; default: reported, not failed)',
    )
    .option('--junit <file>', 'write a JUnit XML report (one testsuite per phase)')
    .option('--json <file>', 'write every case as JSON');
  if (phases.includes('examples'))
    command
      .option('--mock', 'start the Prism mock of the spec and check it (examples only)')
      .addOption(
        new Option('--target-data <file>', 'examples: ids and requests that fit the target (JSON)').env(
          'CONTRACT_TARGET_DATA',
        ),
      )
      .addOption(
        new Option(
          '--min-coverage <percent>',
          'live runs: fail below this share of documented responses exercised, i.e. got and checked against the spec (check: by all phases together; examples: by that phase) (default: 25)',
        )
          .env('CONTRACT_MIN_COVERAGE')
          .argParser(percentage),
      );
  command
    .option(
      '--only <ids>',
      'comma-separated operationIds (examples also "<operationId> <status>"); every phase keeps to them, a workflow runs only if all its steps are in scope',
    )
    .option(
      '--exclude <ids>',
      'comma-separated operationIds to leave out of every phase (a workflow that calls one too)',
    );
  if (phases.includes('workflows')) command.option('--workflow <ids>', 'workflows: comma-separated workflowIds');
  if (phases.includes('fuzz'))
    command
      .option('--seed <n>', 'fuzz: the fast-check seed; the same seed gives the same inputs', whole('--seed'))
      .option('--max-examples <n>', 'fuzz: generated inputs per operation and check', whole('--max-examples', 1), 20);
  command.addHelpText(
    'after',
    `
Environment: CONTRACT_BASE_URL, CONTRACT_AUTH_URL, CONTRACT_CLIENT_ID and CONTRACT_CLIENT_SECRET
(the secret is read only from the environment and never printed). GitHub Actions (GITHUB_ACTIONS=true)
also get ::error annotations and a step summary. Exit codes: 0 passed, 1 contract failures,
2 usage or configuration error, 3 target unreachable or credentials refused; a run that stops
early still writes --junit and --json, saying why.

Read-only (without --allow-writes): only the operations the spec calls safe are sent, a GET with
no stated effect (x-effects); not the SSH disconnect GET nor the database-admin URL GET, no write.
Clean-up (with --allow-writes): deletes exactly what the run created, as its own create answers
said (the ledger), children first, and never an item it did not create; every setting it changed
is put back, and a change it could not undo is not sent to anything that existed before the run.
Flaky: a failure that passed when run again (3 times: a generated input sent again, a behaviour
statement checked again); reported with each observation, and it fails the run only with
--fail-on-flaky (default off: the gate cannot tell a wrong answer from state that moved under it
on a shared target).`,
  );
  return command;
}

for (const [name, description] of [
  ['check', `every phase: ${Object.keys(PHASES).join(', ')}`] as const,
  ...Object.entries(PHASES),
]) {
  const phases = name === 'check' ? Object.keys(PHASES) : [name];
  targetOptions(program.command(name).description(description), phases).action((options: RunOptions) =>
    run(phases, options),
  );
}
program
  .command('checks')
  .description('list the checks, the phases they run in, and what each one checks')
  .action(() => {
    for (const c of CHECKS)
      console.log(`${c.name}${c.off ? ' (off by default)' : ''}\n  phases: ${c.phases.join(', ')}\n  ${c.doc}\n`);
  });

/** A report that cannot be written stops the run before any request, not after the whole run. */
function checkWritable(flag: string, file: string) {
  const path = resolve(file);
  try {
    if (!existsSync(path)) mkdirSync(dirname(path), { recursive: true });
    else if (statSync(path).isDirectory()) throw Object.assign(new Error('a directory'), { code: 'EISDIR' });
    accessSync(existsSync(path) ? path : dirname(path), constants.W_OK);
  } catch (error) {
    die(2, `${flag}: cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
}

/** The configuration the phases read from their environment; exits 2 on what cannot work. */
function configure(o: RunOptions) {
  if (o.mock && o.sandbox) die(2, 'give one target: --mock, --sandbox, or --base-url.');
  if (o.junit) checkWritable('--junit', o.junit);
  if (o.json) checkWritable('--json', o.json);
  try {
    selectChecks({ checks: o.checks, exclude: o.excludeChecks, maxResponseTime: o.maxResponseTime });
  } catch (error) {
    die(2, `${(error as Error).message}.`);
  }
  // The phases' usage errors name the command the user ran (cli.ts).
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_NO_WARNINGS: '1', CONTRACT_COMMAND: 'hosting-api-contract' };
  const set = (name: string, value: unknown) => {
    if (value !== undefined && value !== false) env[name] = String(value === true ? '1' : value);
  };
  set('CONTRACT_CHECKS', o.checks);
  set('CONTRACT_EXCLUDE_CHECKS', o.excludeChecks);
  set('CONTRACT_MAX_RESPONSE_TIME', o.maxResponseTime);
  set('CONTRACT_REQUEST_TIMEOUT', o.requestTimeout);
  set('CONTRACT_ONLY', o.only);
  set('CONTRACT_EXCLUDE', o.exclude);
  set('CONTRACT_TARGET_DATA', o.targetData);
  set('CONTRACT_LIMITED_CLIENT_ID', o.limitedClientId);
  if (o.limitedClientId && !process.env.CONTRACT_LIMITED_CLIENT_SECRET)
    die(
      2,
      'give CONTRACT_LIMITED_CLIENT_SECRET with --limited-client-id (the secret is read only from the environment).',
    );
  set('CONTRACT_MIN_COVERAGE', o.minCoverage);
  // The spec the user gave: every phase reads it, and GitHub annotations point into it.
  if (o.spec) env.HOSTING_API_SPEC = process.env.HOSTING_API_SPEC = resolve(o.spec);
  const target = o.mock ? 'mock' : o.sandbox ? 'sandbox' : 'live';
  if (target === 'live') {
    const missing = (
      [
        ['--base-url or CONTRACT_BASE_URL', o.baseUrl],
        ['--client-id or CONTRACT_CLIENT_ID', o.clientId],
        ['CONTRACT_CLIENT_SECRET', process.env.CONTRACT_CLIENT_SECRET],
      ] as [string, string | undefined][]
    ).filter(([, v]) => !v);
    if (missing.length)
      die(2, `give ${missing.map(([n]) => n).join(', ')} (or --sandbox to check the bundled sandbox).`);
    // The one reading of a target's address (@hosting-api/openapi/target), as the client, the CLI
    // and the MCP server read it: --auth-url defaults to the base URL without /v1.
    let addresses: ReturnType<typeof resolveTarget>;
    try {
      addresses = resolveTarget({ baseUrl: o.baseUrl, authUrl: o.authUrl });
    } catch (error) {
      die(2, (error as Error).message);
    }
    set('CONTRACT_BASE_URL', addresses.baseUrl);
    set('CONTRACT_AUTH_URL', addresses.authUrl);
    set('CONTRACT_CLIENT_ID', o.clientId);
    env.CONTRACT_ALLOW_WRITES = o.allowWrites || process.env.CONTRACT_ALLOW_WRITES === '1' ? '1' : '0';
  }
  return { env, target };
}

/** Live targets: one token request first, so a wrong URL or credentials give one line and exit 3. */
async function preflight(env: NodeJS.ProcessEnv, tokenProblems: (answer: CappedAnswer) => string[]) {
  const url = `${env.CONTRACT_AUTH_URL}/auth/token`;
  const setup = { deadline: SETUP_TIMEOUT_MS, maxBytes: 1024 * 1024 };
  let res: CappedAnswer;
  try {
    res = await cappedFetch(
      url,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: env.CONTRACT_CLIENT_ID,
          client_secret: env.CONTRACT_CLIENT_SECRET,
        } as Record<string, string>),
      },
      setup,
    );
  } catch (error) {
    throw new Stop(3, `cannot reach ${url} (${(error as Error).message}): check --auth-url and that the server is up.`);
  }
  const type = res.headers['content-type'] ?? '';
  if (!/json/i.test(type))
    throw new Stop(
      3,
      `${url} answered ${res.statusCode} with ${type || 'no Content-Type'}, not the API's JSON: check --auth-url (the root that serves POST /auth/token).`,
    );
  if (res.statusCode === 400 || res.statusCode === 401 || res.statusCode === 403)
    throw new Stop(
      3,
      `${url} refused the credentials (${res.statusCode}): check CONTRACT_CLIENT_ID and CONTRACT_CLIENT_SECRET.`,
    );
  let token: unknown;
  try {
    token = JSON.parse(res.body)?.data?.access_token;
  } catch {}
  if (res.statusCode !== 200 || typeof token !== 'string')
    throw new Stop(3, `${url} answered ${res.statusCode} without data.access_token: check --auth-url.`);
  // Every phase asks for tokens the same way: an answer that breaks the spec would fail each of them.
  const problems = tokenProblems(res);
  if (problems.length) throw new Stop(3, `the token answer of ${url} does not match the spec: ${problems.join('; ')}`);
  const account = `${env.CONTRACT_BASE_URL}/account`;
  let probe: CappedAnswer;
  try {
    probe = await cappedFetch(
      account,
      { headers: { Accept: 'application/json', Authorization: `Bearer ${token}` } },
      setup,
    );
  } catch (error) {
    throw new Stop(3, `cannot reach ${account} (${(error as Error).message}): check --base-url.`);
  }
  const probeType = probe.headers['content-type'] ?? '';
  // A wrong base URL answers a page that is not the API's (a 404 page, a login page). A 2xx in
  // another media type is an answer of the API that drifted: the checks report it, the run goes on.
  const ok = probe.statusCode >= 200 && probe.statusCode < 300;
  if (!/json/i.test(probeType) && !ok)
    throw new Stop(
      3,
      `${account} answered ${probe.statusCode} with ${probeType || 'no Content-Type'}, not the API's JSON: check --base-url.`,
    );
}

/**
 * Live targets: every resource that exists before the run is read (every GET with ids found
 * through the lists, live-plan.ts) before the first phase and again after the last; `finish()`
 * answers the state diff as a report case (check state_unchanged).
 */
async function stateDiff(env: NodeJS.ProcessEnv, phases: string[]) {
  const { loadModel } = await import('@hosting-api/openapi/model');
  const model = await loadModel(specFile((message: string) => die(2, message)));
  const timeout = Number(env.CONTRACT_REQUEST_TIMEOUT) || DEFAULT_REQUEST_TIMEOUT_MS;
  // The ledger every phase appends to (ledger.ts): what the run created, deleted, changed and put back.
  const ledger = openLedger(env.CONTRACT_LEDGER);
  const observe = createObserver(model.operations, ledger);
  let stage = 'set-up';
  let token: string | undefined;
  const api = createApi({
    baseUrl: env.CONTRACT_BASE_URL as string,
    token: async () =>
      (token ??= await obtainToken(env.CONTRACT_AUTH_URL as string, model.issueTokenOperation!, {
        client: { client_id: env.CONTRACT_CLIENT_ID, client_secret: env.CONTRACT_CLIENT_SECRET } as Record<
          string,
          string
        >,
      })),
    timeout,
    observe: (method, path, status, sent, answer) => observe(method, path, status, sent, answer, stage),
  });
  const control = env.CONTRACT_CONTROL_URL?.replace(/\/$/, '');
  const clock = (advance: string) =>
    cappedFetch(
      `${control}/__sandbox/clock`,
      { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ advance }) },
      { deadline: timeout },
    );
  const advance = control ? () => clock('30s') : undefined;
  // A run moves the clock by its state waits (30 s each), the workflows' steps and the expired-token
  // probe (an hour); two days covers it, so fields that follow the clock are not the run's doing.
  const moveClock = control
    ? async () => {
        await clock('2d');
        token = undefined; // two days on, the run's token has expired
      }
    : undefined;
  const ids = (list: string | undefined) =>
    (list ?? '')
      .split(',')
      .map((x) => x.trim().split(/\s+/)[0]!)
      .filter(Boolean);
  const [only, exclude] = [ids(env.CONTRACT_ONLY), ids(env.CONTRACT_EXCLUDE)];
  const plan = createPlan({
    model,
    api,
    inScope: (o) => (!only.length || only.includes(o.operationId)) && !exclude.includes(o.operationId),
    writes: env.CONTRACT_ALLOW_WRITES === '1',
    run: `f${Date.now().toString(36)}`,
    advance,
    moveClock,
    ledger,
  });
  const t0 = Date.now();
  const before = await plan.snapshot.before();
  // The fuzz phase reads existing resources too (unless CONTRACT_FUZZ_PARAMS names them).
  if (!env.CONTRACT_FUZZ_PARAMS) env.CONTRACT_FUZZ_PARAMS = JSON.stringify(await plan.existingParams());
  // ... and writes only to what the run created: a site and its children, made here (deleted at the end).
  if (
    env.CONTRACT_ALLOW_WRITES === '1' &&
    phases.length > 1 &&
    phases.includes('fuzz') &&
    !env.CONTRACT_FUZZ_WRITE_PARAMS
  ) {
    await plan.prepare({ ownSites: false, git: true }).catch((error: Error) => plan.notes.push(error.message));
    env.CONTRACT_FUZZ_WRITE_PARAMS = JSON.stringify(plan.fixtures);
    console.log(`Fuzz writes go to what the run created: ${env.CONTRACT_FUZZ_WRITE_PARAMS}`);
  }
  const took = [(Date.now() - t0) / 1000];
  /** For the JSON report: the state diff's figures and lists, and the ledger's (ledger.ts ledgerReport). */
  const summary: Record<string, Json> = {};
  return {
    summary,
    async finish(): Promise<ReportCase[]> {
      const t1 = Date.now();
      token = undefined; // a phase may have revoked tokens of the client
      stage = 'clean-up';
      // What the ledger says the run created and did not delete is deleted; nothing else.
      const left = env.CONTRACT_ALLOW_WRITES === '1' ? await plan.cleanup() : [];
      if (plan.waits.count)
        console.log(
          `\nClean-up: state waits ${plan.waits.count}, ${(plan.waits.ms / 1000).toFixed(1)} s of a budget of ${(plan.waits.budgetMs / 1000).toFixed(0)} s.`,
        );
      const after = await plan.snapshot.after(before);
      took.push((Date.now() - t1) / 1000);
      const entries = ledger.entries();
      const { changed, concurrent } = plan.snapshot.diff(before, after, entries);
      const changes = [...changed, ...left.map((p) => `clean-up: ${p}`)];
      const compared = Object.keys(before.resources).length;
      const budget = Number(env.CONTRACT_SNAPSHOT_BUDGET) || 3000;
      console.log(
        `\nState diff: ${compared} resources that existed before the run (every GET the spec states no effect for, every page of every list, every item listed; ${before.requests} of a budget of ${budget} requests, CONTRACT_SNAPSHOT_BUDGET) read again after it (${took.map((t) => `${t.toFixed(1)} s`).join(' + ')}): ${changes.length ? `${changes.length} changed` : 'all unchanged'}.`,
      );
      if (before.unread.length)
        console.log(
          `  not read (${before.unread.length}): ${before.unread.slice(0, 10).join(', ')}${before.unread.length > 10 ? ', …' : ''}`,
        );
      if (before.volatile.length)
        console.log(
          `  not compared, they changed between two reads before the run (${before.volatile.length}): ${before.volatile.slice(0, 10).join(', ')}${before.volatile.length > 10 ? ', …' : ''}`,
        );
      for (const c of changes.slice(0, 30)) console.log(`  CHANGED ${c}`);
      if (concurrent.length) {
        // One line per list: items others (or the target itself) added or removed meanwhile.
        const byList = new Map<string, number>();
        for (const c of concurrent)
          byList.set(c.split(' ')[0] as string, (byList.get(c.split(' ')[0] as string) ?? 0) + 1);
        console.log(
          `Concurrent activity, not the run's doing (${concurrent.length}; every line in --json stateDiff.concurrent):`,
        );
        for (const [list, n] of [...byList].slice(0, 30)) console.log(`  ${list}: ${n} item(s) appeared or went`);
      }
      summary.stateDiff = {
        compared,
        requests: before.requests,
        budget,
        unread: before.unread,
        volatile: before.volatile,
        changed: changes,
        concurrent,
      };
      summary.ledger = ledgerReport(entries);
      return [
        {
          phase: 'state',
          name: `state diff: ${compared} pre-existing resources unchanged`,
          check: 'state_unchanged',
          outcome: changes.length ? 'fail' : 'pass',
          expected: `${compared} resources as before the run`,
          actual: changes.length ? `${changes.length} changed` : 'unchanged',
          failures: changes.length ? changes.map((message) => ({ check: 'state_unchanged', message })) : undefined,
        },
        {
          phase: 'state',
          name: `concurrent activity: ${concurrent.length} changes by others during the run`,
          check: 'state_unchanged',
          outcome: 'pass',
          actual: concurrent.length ? concurrent.slice(0, 5).join('; ') : 'none',
        },
        ...ledgerCases(ledger.entries()),
      ];
    },
  };
}

/**
 * The ledger as report cases (console, JUnit, JSON): one per resource the run created (passed when
 * it was deleted) and one per setting it changed (passed when it was put back), and a summary line.
 */
function ledgerCases(entries: Entry[]): ReportCase[] {
  const report = ledgerReport(entries);
  console.log(
    `\nLedger: created ${report.created.length}, deleted ${report.deleted.length}, changed ${report.changed.length}, put back ${report.restored.length}${report.notRestored.length ? `, NOT put back ${report.notRestored.length}` : ''}.`,
  );
  for (const [what, lines] of Object.entries(report)) for (const l of lines) console.log(`  ${what} ${l}`);
  const deleted = new Set(entries.filter((e) => e.kind === 'deleted').map((e) => e.path));
  const created = [...new Map(entries.filter((e) => e.kind === 'created').map((e) => [e.path, e])).values()];
  const cases: ReportCase[] = created.map((e) => ({
    phase: 'state',
    name: `clean-up: ${e.path} (created by ${e.by})`,
    check: 'state_unchanged',
    outcome: deleted.has(e.path) ? 'pass' : 'fail',
    expected: 'deleted',
    actual: deleted.has(e.path) ? 'deleted' : 'still there',
    failures: deleted.has(e.path)
      ? undefined
      : [{ check: 'state_unchanged', message: `${e.path}, created by ${e.by}, was not deleted` }],
  }));
  for (const e of entries.filter((x) => x.kind === 'changed')) {
    const end = entries.find(
      (x) =>
        (x.kind === 'restored' || x.kind === 'not restored') &&
        x.path === e.path &&
        x.by === e.by &&
        entries.indexOf(x) > entries.indexOf(e),
    );
    const ok = end?.kind === 'restored';
    cases.push({
      phase: 'state',
      name: `put back: ${e.path} (changed by ${e.by})`,
      check: 'state_unchanged',
      outcome: ok ? 'pass' : 'fail',
      expected: JSON.stringify(e.was)?.slice(0, 200),
      actual: ok ? 'put back' : (end?.why ?? 'not put back'),
      failures: ok
        ? undefined
        : [
            {
              check: 'state_unchanged',
              message: `${e.path}, changed by ${e.by}, was not put back: ${end?.why ?? 'the phase ended first'}`,
            },
          ],
    });
  }
  return cases;
}

/** The live run's coverage floor (percent of documented responses) unless --min-coverage says otherwise. */
const DEFAULT_MIN_COVERAGE = 25;

/**
 * Documented responses exercised by the run: a response counts when a phase sent a request that got
 * it and checked the answer against the spec without a problem (the union over the phases; each
 * phase's share is what it added to those before it).
 */
function responseCoverage(documented: string[], exercisedBy: Record<string, string[]>) {
  const seen = new Set<string>();
  const byPhase: Record<string, number> = {};
  for (const [phase, keys] of Object.entries(exercisedBy)) {
    const added = keys.filter((k) => documented.includes(k) && !seen.has(k));
    for (const k of added) seen.add(k);
    byPhase[phase] = added.length;
  }
  const percent = documented.length ? Math.round((1000 * seen.size) / documented.length) / 10 : 100;
  const missing = documented.filter((k) => !seen.has(k));
  return { documented: documented.length, exercised: seen.size, percent, byPhase, missing };
}

/** Runs one phase script; resolves to its exit code and its results file's contents. */
function phase(script: string, args: string[], env: NodeJS.ProcessEnv, work: string) {
  const results = join(work, `${script}.json`);
  return new Promise<{ code: number; data: PhaseResults | undefined }>((done) => {
    const child = spawn(process.execPath, [join(here, script), ...args, '--results', results], {
      stdio: 'inherit',
      env,
    });
    child.on('exit', (code) => {
      let data: PhaseResults | undefined;
      try {
        data = JSON.parse(readFileSync(results, 'utf8'));
      } catch {}
      done({ code: code ?? 1, data });
    });
  });
}

/** A phase's results as report cases: {phase, name, check, operationId, outcome, failures, …}. */
function casesOf(name: string, data: PhaseResults | undefined) {
  const failuresOf = (r: PhaseResult): Failure[] =>
    r.failures ?? (r.errors ?? []).map((message: string) => ({ check: checkOfProblem(message), message }));
  const cases = (data?.results ?? []).map(
    (r): ReportCase => ({
      phase: name,
      name: r.name && r.name !== r.key && name === 'examples' ? `${r.key} (${r.name})` : (r.name ?? r.key),
      check: r.check,
      operationId: r.operationId,
      outcome: r.outcome,
      expected: r.expected ?? r.status,
      actual: r.actual,
      ms: r.ms,
      reason: r.reason,
      input: r.input,
      statement: r.statement,
      failures: r.outcome === 'fail' || r.outcome === 'flaky' ? failuresOf(r) : undefined,
      curl: r.outcome === 'fail' || r.outcome === 'flaky' ? curlOf(r.request) : undefined,
      observations: r.observations as unknown[] | undefined,
    }),
  );
  for (const problem of data?.problems ?? [])
    cases.push({ phase: name, name: problem.name, check: problem.check, outcome: 'fail', failures: [problem] });
  return cases;
}

async function run(phases: string[], options: RunOptions) {
  const { env, target } = configure(options);
  const ending = { junit: options.junit, json: options.json, target };
  // The spec, the token and the base URL first: one message, and reports that say why (ending.ts).
  try {
    const { loadModel } = await import('@hosting-api/openapi/model');
    const { createChecker } = await import('./spec-check');
    const specPath = specFile((message: string) => {
      throw new Stop(2, message);
    });
    const model = await loadModel(specPath).catch((error: Error) => {
      throw new Stop(2, error.message);
    });
    if (options.only) checkOnly(model, options.only, '--only');
    if (options.exclude) checkOnly(model, options.exclude, '--exclude');
    if (target === 'live') {
      const checker = await createChecker(model);
      const op = model.issueTokenOperation!;
      await preflight(env, (answer) =>
        checker.checkResponse(checker.findOperation(op.method, op.path)!, '200', answer),
      );
    }
  } catch (error) {
    if (error instanceof Stop) stopEarly(error, { ...ending, at: 'preflight' });
    throw error;
  }
  const flag = `--${target}`;
  const work = mkdtempSync(join(tmpdir(), 'hosting-api-contract-'));
  // The run's ledger (ledger.ts): every phase appends what it created, deleted, changed and put back.
  env.CONTRACT_LEDGER = join(work, 'ledger.jsonl');
  const cases: ReportCase[] = [];
  const state =
    target === 'live' &&
    phases.includes('examples') &&
    selectChecks({ checks: options.checks, exclude: options.excludeChecks }).has('state_unchanged')
      ? await stateDiff(env, phases).catch((error: Error) => {
          cases.push({
            phase: 'state',
            name: 'state diff',
            check: 'state_unchanged',
            outcome: 'fail',
            failures: [
              { check: 'state_unchanged', message: `could not read the state before the run: ${error.message}` },
            ],
          });
          return undefined;
        })
      : undefined;
  const seconds: Record<string, number> = {};
  const coverage: Record<string, Json> = {};
  // A live run of several phases: the coverage floor applies to the documented responses that all
  // of them exercised together (below), not to the examples phase alone.
  const ofRun = target === 'live' && phases.length > 1 && phases.includes('examples');
  if (ofRun) env.CONTRACT_COVERAGE_OF_RUN = '1';
  const exercisedBy: Record<string, string[]> = {};
  let documented: string[] | undefined;
  let worst = 0;
  for (const name of phases) {
    if (target === 'mock' && name !== 'examples') {
      cases.push({
        phase: name,
        name: `${name} phase`,
        check: name,
        outcome: 'skip',
        reason: 'the mock keeps no state: run it against the sandbox or a live target',
      });
      continue;
    }
    const args = {
      examples: ['run.js', [flag]],
      workflows: ['workflows.js', [flag, ...(options.workflow ? ['--workflow', options.workflow] : [])]],
      fuzz: [
        'fuzz.js',
        [
          flag,
          ...(options.seed !== undefined ? ['--seed', String(options.seed)] : []),
          '--max-examples',
          String(options.maxExamples ?? 20),
        ],
      ],
    }[name] as [string, string[]];
    const t0 = Date.now();
    const { code, data } = await phase(args[0], args[1], env, work);
    seconds[name] = (Date.now() - t0) / 1000;
    // Usage and reachability errors stop the run: the next phase would fail the same way.
    if (code === 2 || code === 3) {
      rmSync(work, { recursive: true, force: true });
      const why = `the ${name} phase stopped with exit code ${code} (${code === 2 ? 'a configuration error' : 'the target is unreachable or refused the credentials'}): see the line above`;
      stopEarly(new Stop(code, why), { ...ending, at: name, cases: [...cases, ...casesOf(name, data)] });
    }
    if (code !== 0 && !data)
      cases.push({
        phase: name,
        name: `${name} phase`,
        check: name,
        outcome: 'fail',
        failures: [
          { check: name, message: `the phase exited with code ${code} and wrote no results: see its output above` },
        ],
      });
    cases.push(...casesOf(name, data));
    const { responses, ...rest } = data?.coverage ?? {};
    if (Object.keys(rest).length) coverage[name] = rest;
    if (typeof data?.summary?.coverage === 'number') coverage[name] = { responses: { percent: data.summary.coverage } };
    if (responses?.exercised) exercisedBy[name] = responses.exercised;
    if (responses?.documented) documented = responses.documented;
    worst = Math.max(worst, code === 0 ? 0 : 1);
  }
  if (state)
    cases.push(
      ...(await state.finish().catch((error: Error): ReportCase[] => [
        {
          phase: 'state',
          name: 'state diff',
          check: 'state_unchanged',
          outcome: 'fail',
          failures: [{ check: 'state_unchanged', message: `could not read the state after the run: ${error.message}` }],
        },
      ])),
    );
  rmSync(work, { recursive: true, force: true });
  const reported = cases.some((c) => c.phase === 'state') ? [...phases, 'state'] : phases;
  if (ofRun && documented) {
    coverage.responses = responseCoverage(documented, exercisedBy);
    const floor = options.minCoverage ?? DEFAULT_MIN_COVERAGE;
    const selected = selectChecks({ checks: options.checks, exclude: options.excludeChecks });
    if (selected.has('response_coverage') && coverage.responses.percent < floor)
      cases.push({
        phase: 'examples',
        name: 'coverage',
        check: 'response_coverage',
        outcome: 'fail',
        expected: `at least ${floor}% of the documented responses exercised`,
        actual: `${coverage.responses.percent}%`,
        failures: [
          {
            check: 'response_coverage',
            message: `${coverage.responses.percent}% of the documented responses exercised by all phases, below the floor of ${floor}% (--min-coverage)`,
          },
        ],
      });
  }

  const count = (list: ReportCase[], outcome: string) => list.filter((c) => c.outcome === outcome).length;
  const totals: Totals = {
    passed: count(cases, 'pass'),
    failed: count(cases, 'fail'),
    skipped: count(cases, 'skip'),
    flaky: count(cases, 'flaky'),
    phases: {},
  };
  for (const name of reported) {
    const mine = cases.filter((c) => c.phase === name);
    totals.phases[name] = {
      passed: count(mine, 'pass'),
      failed: count(mine, 'fail'),
      skipped: count(mine, 'skip'),
      flaky: count(mine, 'flaky'),
      seconds: seconds[name],
    };
  }
  // Flaky (a failure that passed when sent again, flaky.ts) fails the run only with --fail-on-flaky.
  const red = Boolean(totals.failed || worst || (options.failOnFlaky && totals.flaky));
  const failed = cases.filter((c) => c.outcome === 'fail' || c.outcome === 'flaky');
  if (failed.some((c) => c.curl)) {
    console.log('\nReproduce a failure (get $TOKEN first):');
    console.log(`  ${tokenLine(env.CONTRACT_AUTH_URL ?? 'http://<auth-url>', env.CONTRACT_CLIENT_ID)}`);
    for (const c of failed.filter((x) => x.curl).slice(0, 20))
      console.log(`  # ${c.phase} ${c.failures![0]!.check} ${c.operationId ?? ''}\n  ${c.curl}`);
  }
  const r = coverage.responses;
  const covered = [
    r
      ? `documented responses ${r.percent}% (${r.exercised} of ${r.documented}: ${Object.entries(r.byPhase)
          .map(([p, n], i) => `${p} ${i ? '+' : ''}${n}`)
          .join(', ')})`
      : coverage.examples && `documented responses ${coverage.examples.responses.percent}%`,
    coverage.fuzz && `behaviour statements ${coverage.fuzz.statements.percent}%`,
  ].filter(Boolean);
  if (covered.length) console.log(`\nCoverage: ${covered.join('; ')}`);
  if (r?.missing.length)
    console.log(`Documented responses no phase exercised (${r.missing.length}): ${r.missing.join(', ')}`);
  console.log(
    `\nContract gate (${target}): ${red ? 'FAILED' : 'PASSED'}: ${Object.entries(totals.phases)
      .map(
        ([p, t]) =>
          `${p} ${t.passed} passed, ${t.failed} failed, ${t.flaky ? `${t.flaky} flaky, ` : ''}${t.skipped} skipped`,
      )
      .join('; ')}`,
  );
  if (totals.flaky)
    console.log(
      `${totals.flaky} flaky: failed, then passed when sent again (see FLAKY above); ${options.failOnFlaky ? 'they fail the run (--fail-on-flaky)' : 'reported, not failed (give --fail-on-flaky to fail on them)'}.`,
    );
  const summary = {
    target,
    passed: totals.passed,
    failed: totals.failed,
    skipped: totals.skipped,
    flaky: totals.flaky,
    failOnFlaky: Boolean(options.failOnFlaky),
    phases: totals.phases,
    coverage,
    ...(state?.summary ?? {}),
  };
  if (options.junit) writeJunit(options.junit, reported, cases, { failOnFlaky: options.failOnFlaky });
  if (options.json) writeJson(options.json, summary, cases);
  if (process.env.GITHUB_ACTIONS === 'true') {
    const { loadModel } = await import('@hosting-api/openapi/model');
    githubReport({
      cases,
      totals,
      model: await loadModel(env.HOSTING_API_SPEC ?? require.resolve('@hosting-api/openapi/openapi.json')),
      // Annotations point into the spec the user gave (--spec), else at no file: the package's own
      // copy lives in node_modules, not in the user's repository.
      specGiven: options.spec,
    });
  }
  process.exit(red ? 1 : 0);
}

// Before commander: its "unknown option" would not say where the secret goes.
if (process.argv.some((a) => a.startsWith('--client-secret')))
  die(2, 'the client secret is read only from CONTRACT_CLIENT_SECRET, never from a flag.');
if (process.argv.some((a) => a.startsWith('--limited-client-secret')))
  die(2, 'the limited client secret is read only from CONTRACT_LIMITED_CLIENT_SECRET, never from a flag.');
await program.parseAsync();
