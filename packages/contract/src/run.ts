#!/usr/bin/env node
// The gate's examples phase: runs Dredd with hooks.cjs against the mock or a live target and
// prints what was tested. Started by main.ts (hosting-api-contract examples); see README.md.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadModel, METHODS, type SpecModel } from '@hosting-api/openapi/model';
import { obtainToken, parseCommandLine, REQUEST_TIMEOUT_MS, requireLiveVars, specFile, startGateSandbox } from './cli';
import { guardOutput } from './redact';
import type { ExampleResult, Json } from './types';

// Nothing a target sent is printed verbatim: tokens redacted, long lines cut (redact.ts).
guardOutput();

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

/** Live runs fail when they exercise less than this share (percent) of the documented responses. */
const DEFAULT_MIN_COVERAGE = 25;
const HELP = `Usage: node dist/run.js (--mock | --sandbox | --live) [--only IDS] [--report FILE] [--results FILE]

  --mock          run against the Prism mock (started here, or CONTRACT_MOCK_URL if set);
                  every documented response must be exercised and pass
  --sandbox       run against @hosting-api/sandbox (started here, frozen clock) as a live
                  target with writes allowed and src/sandbox-target.json as target data
                  (or CONTRACT_TARGET_DATA); every documented response must have a transaction
  --live          run against CONTRACT_BASE_URL / CONTRACT_AUTH_URL with CONTRACT_CLIENT_ID /
                  CONTRACT_CLIENT_SECRET; read-only unless CONTRACT_ALLOW_WRITES=1
  --only IDS      comma-separated operationIds or "<operationId> <status>" (also CONTRACT_ONLY)
  --report FILE   write {"passed": N, "failed": N, "skipped": N} (for CI totals)
  --results FILE  write every transaction's outcome as JSON

Live runs print their coverage (documented responses exercised / documented responses) and fail
below CONTRACT_MIN_COVERAGE percent (default ${DEFAULT_MIN_COVERAGE}).
Live runs (the sandbox included) repeat every 401 transaction with invalid tokens (garbage,
malformed, another scheme, revoked); CONTRACT_AUTH_PROBES=0 turns that off.
Other variables: CONTRACT_TARGET_DATA (JSON file with ids and requests that fit the target),
HOSTING_API_SPEC (spec file instead of the bundle), CONTRACT_DREDD_LOGLEVEL (default "error").`;

const { values, usage } = parseCommandLine('contract', HELP, {
  mock: { type: 'boolean', default: false },
  live: { type: 'boolean', default: false },
  sandbox: { type: 'boolean', default: false },
  only: { type: 'string' },
  report: { type: 'string' },
  results: { type: 'string' },
});
if ([values.mock, values.live, values.sandbox].filter(Boolean).length !== 1)
  usage('say which target: --mock, --sandbox or --live.');
// The sandbox is a live target (real requests, real state) that this script starts.
const target = values.live ? 'live' : values.sandbox ? 'sandbox' : 'mock';
const mode = target === 'mock' ? 'mock' : 'live';
const only = values.only ?? process.env.CONTRACT_ONLY ?? '';
const minCoverage = Number(process.env.CONTRACT_MIN_COVERAGE ?? DEFAULT_MIN_COVERAGE);
// `hosting-api-contract check` applies the floor to what every phase exercised (main.ts), not here.
const floorHere = process.env.CONTRACT_COVERAGE_OF_RUN !== '1';
if (!(minCoverage >= 0 && minCoverage <= 100))
  usage(`CONTRACT_MIN_COVERAGE must be a percentage from 0 to 100, got "${process.env.CONTRACT_MIN_COVERAGE}"`);

const specJson = specFile(usage, 'json');
const specForDredd = specFile(usage, 'yaml');
// The spec model (@hosting-api/openapi/model): operations, responses, the token operation's path.
let model!: SpecModel;
try {
  model = await loadModel(specJson);
} catch (error) {
  usage((error as Error).message);
}
if (target === 'sandbox') {
  process.env.CONTRACT_TARGET_DATA ??= join(here, 'sandbox-target.json');
  process.env.CONTRACT_ALLOW_WRITES = '1';
}
const targetData = process.env.CONTRACT_TARGET_DATA;
if (targetData && !existsSync(targetData))
  usage(`CONTRACT_TARGET_DATA names a file that does not exist: ${targetData}`);

const started = Date.now();
let baseUrl: string | undefined;
let authUrl: string | undefined;
let mock: { baseUrl: string; authUrl: string; stop(): Promise<void> } | undefined;
let sandbox: Awaited<ReturnType<typeof startGateSandbox>> | undefined;
if (target === 'sandbox') {
  sandbox = await startGateSandbox(usage);
  baseUrl = sandbox.url;
  authUrl = sandbox.authUrl;
} else if (mode === 'live') {
  requireLiveVars('contract:live', 'Writes (create, change, delete) run only with CONTRACT_ALLOW_WRITES=1.');
  baseUrl = process.env.CONTRACT_BASE_URL;
  authUrl = process.env.CONTRACT_AUTH_URL;
} else if (process.env.CONTRACT_MOCK_URL) {
  authUrl = process.env.CONTRACT_MOCK_URL.replace(/\/$/, '');
  baseUrl = `${authUrl}/v1`;
} else {
  const { startMock } = await import('@hosting-api/mock');
  mock = await startMock({ port: 0, spec: specJson });
  ({ baseUrl, authUrl } = mock);
}
for (const [name, value] of [
  ['base URL', baseUrl],
  ['auth URL', authUrl],
]) {
  try {
    new URL(value as string);
  } catch {
    usage(`the ${name} is not a URL: "${value}"`);
  }
}

// A live target that gives no token would fail every transaction: say so once instead.
if (mode === 'live') {
  if (!model.issueTokenOperation)
    usage('the spec has no token operation with the client-credentials grant (grant_type).');
  try {
    await obtainToken(authUrl as string, model.issueTokenOperation!);
  } catch (error) {
    process.stderr.write(
      `contract:live: ${(error as Error).message}\nCheck CONTRACT_AUTH_URL, CONTRACT_CLIENT_ID and CONTRACT_CLIENT_SECRET.\n`,
    );
    process.exit(3); // the target is unreachable or refuses the credentials
  }
}

const work = mkdtempSync(join(tmpdir(), 'contract-'));
const resultsFile = join(work, 'results.json');
console.log(`Contract gate: ${target} target, base URL ${baseUrl}, auth URL ${authUrl}`);
if (targetData) console.log(`Target data: ${targetData}`);
if (mode === 'live') {
  console.log(
    process.env.CONTRACT_ALLOW_WRITES === '1'
      ? 'Writes allowed (CONTRACT_ALLOW_WRITES=1).'
      : 'Read-only: operations that change the target are skipped.',
  );
}

// With --only, Dredd gets a copy of the spec that holds only the selected operations: parsing the
// whole description is most of a short run's time.
const onlyIds = only
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
let dreddInput = specForDredd;
if (onlyIds.length) {
  const full = model.document;
  const selected = model.operations.filter((o) => onlyIds.some((id: string) => id.split(' ')[0] === o.operationId));
  const paths: Record<string, Json> = {};
  for (const [path, item] of Object.entries<Json>(full.paths)) {
    const kept = Object.fromEntries(
      Object.entries<Json>(item).filter(
        ([method]) =>
          !(METHODS as readonly string[]).includes(method) ||
          selected.some((o) => o.path === path && o.method === method),
      ),
    );
    if (METHODS.some((m) => kept[m])) paths[path] = kept;
  }
  dreddInput = join(work, 'selected.json');
  writeFileSync(
    dreddInput,
    JSON.stringify({ ...full, paths, webhooks: undefined, components: reachable(full, paths) }),
  );
}

/** The components that `paths` reach through $refs (transitively): Dredd parses all it is given. */
function reachable(document: Json, paths: Record<string, Json>) {
  const kept: Record<string, Record<string, Json>> = {};
  const seen = new Set<string>();
  const walk = (node: Json) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const ref = node.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/') && !seen.has(ref)) {
      seen.add(ref);
      const [, , kind, name] = ref.split('/') as [string, string, string, string];
      const target = document.components[kind][name];
      kept[kind] ??= {};
      kept[kind][name] = target;
      walk(target);
    }
    for (const value of Object.values(node)) walk(value);
  };
  walk(paths);
  walk(document.security);
  // Security schemes are referenced by name, not by $ref.
  kept.securitySchemes = document.components.securitySchemes;
  return kept;
}

const dredd = join(dirname(require.resolve('dredd/package.json')), 'bin', 'dredd');
const args = [
  '--require',
  join(here, 'dredd-preload.cjs'),
  dredd,
  dreddInput,
  baseUrl as string,
  `--hookfiles=${join(here, 'hooks.cjs')}`,
  '--language=nodejs',
  '--reporter=dot',
  `--loglevel=${process.env.CONTRACT_DREDD_LOGLEVEL ?? 'error'}`,
  // Colour codes only on a terminal: a CI log or a file gets plain lines.
  process.stdout.isTTY ? '--color' : '--no-color',
];
const code = await new Promise<number>((done) => {
  const child = spawn(process.execPath, args, {
    stdio: 'inherit',
    env: {
      ...process.env,
      CONTRACT_MODE: mode,
      CONTRACT_BASE_URL: baseUrl,
      CONTRACT_AUTH_URL: authUrl,
      CONTRACT_SPEC_JSON: specJson,
      CONTRACT_RESULTS: resultsFile,
      CONTRACT_ONLY: only,
      CONTRACT_REQUEST_TIMEOUT: String(REQUEST_TIMEOUT_MS),
      NODE_NO_WARNINGS: '1',
    },
  });
  child.on('exit', (status) => done(status ?? 1));
});
await mock?.stop();
await sandbox?.stop();

// ---- what was tested ------------------------------------------------------------------------
const documented = model.operations.flatMap((o) =>
  Object.keys(o.responses).map((status) => `${o.operationId} ${status}`),
);
const operationIds = new Set(documented.map((k) => k.split(' ')[0]));
const results: ExampleResult[] = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')).results : [];
rmSync(work, { recursive: true, force: true });

const by = (outcome: string) => results.filter((r) => r.outcome === outcome);
const passed = by('pass');
const failed = by('fail');
const skipped = by('skip');
const passedKeys = new Set(passed.map((r) => r.key));
const skippedKeys = new Set(skipped.map((r) => r.key));
const seenKeys = new Set(results.map((r) => r.key));
// Documented responses Dredd made no transaction for, or that were neither passed nor skipped.
const notGenerated = documented.filter((k) => !seenKeys.has(k));
const exercisedOps = new Set(passed.map((r) => r.operationId));
// Coverage: documented responses (of the selected operations) with a passing transaction that
// checked something (a list that came back empty checked no item).
const inScope = onlyIds.length
  ? documented.filter((k) => onlyIds.some((id: string) => id === k || id === k.split(' ')[0]))
  : documented;
const exercised = new Set(passed.filter((r) => !r.empty).map((r) => r.key));
const covered = inScope.filter((k) => exercised.has(k)).length;
const coverage = inScope.length ? (100 * covered) / inScope.length : 100;
const emptyKeys = [...new Set(passed.filter((r) => r.empty).map((r) => r.key))].filter((k) => !exercised.has(k));
const gaps = target !== 'live' && onlyIds.length === 0 ? notGenerated : [];

const lines = [''];
lines.push(
  `Operations: ${operationIds.size} in the spec, ${exercisedOps.size} exercised with at least one passing transaction.`,
  `Responses: ${documented.length} documented, ${passedKeys.size} passed, ${new Set(failed.map((r) => r.key)).size} failed, ${[...skippedKeys].filter((k) => !passedKeys.has(k)).length} skipped.`,
  `Transactions: ${results.length} made by Dredd: ${passed.length} passed, ${failed.length} failed, ${skipped.length} skipped.`,
);
lines.push(
  `Coverage: ${covered} of ${inScope.length} documented responses exercised (${coverage.toFixed(1)}%)` +
    (target !== 'live'
      ? '.'
      : floorHere
        ? `; the floor is ${minCoverage}% (CONTRACT_MIN_COVERAGE).`
        : '; the floor applies to all phases together.'),
);
if (emptyKeys.length)
  lines.push(`Passed with an empty list, so not counted as exercised (${emptyKeys.length}): ${emptyKeys.join(', ')}`);
const probes = results.filter((r) => r.probed || r.name?.startsWith('auth probe')).length;
if (probes)
  lines.push(
    `Auth probes: ${probes} transactions also tried with invalid tokens (garbage, malformed, revoked${results.some((r) => r.name === 'auth probe: expired token') ? ', expired' : ''}).`,
  );
const reasons = new Map<string | undefined, string[]>();
for (const r of skipped) reasons.set(r.reason, [...(reasons.get(r.reason) ?? []), r.key]);
for (const [reason, keys] of reasons) {
  lines.push(`Skipped (${keys.length}): ${reason}`);
  let line = ' ';
  for (const key of keys) {
    if (line.length + key.length > 100) {
      lines.push(line);
      line = ' ';
    }
    line += ` ${key},`;
  }
  lines.push(line.replace(/,$/, ''));
}
if (notGenerated.length && !onlyIds.length) {
  lines.push(`Documented responses with no Dredd transaction (${notGenerated.length}):`);
  for (const key of notGenerated) lines.push(`  - ${key}`);
}
for (const r of failed) lines.push(`FAILED ${r.key} (${r.name}):\n    ${r.errors!.join('\n    ')}`);
let failures = failed.length + gaps.length;
if (target === 'live' && floorHere && coverage < minCoverage) {
  lines.push(
    `COVERAGE ${coverage.toFixed(1)}% is below the floor of ${minCoverage}%: give ids and requests that fit the target (CONTRACT_TARGET_DATA), allow writes on a test account (CONTRACT_ALLOW_WRITES=1), or lower CONTRACT_MIN_COVERAGE.`,
  );
  failures += 1;
}
if (code !== 0 && failures === 0) {
  lines.push(`Dredd exited with code ${code} without a failing transaction: see its output above.`);
  failures = 1;
}
lines.push(`Took ${((Date.now() - started) / 1000).toFixed(1)} s.`);
lines.push(
  `Contract (${target}): ${failures === 0 ? 'PASSED' : 'FAILED'}: ${passed.length} passed, ${failures} failed, ${skipped.length} skipped`,
);
console.log(lines.join('\n'));

const summary = {
  passed: passed.length,
  failed: failures,
  skipped: skipped.length,
  coverage: Number(coverage.toFixed(1)),
};
// For main.ts: the documented responses in scope and those exercised (the run's coverage is the union over phases).
const responses = { documented: inScope, exercised: inScope.filter((k) => exercised.has(k)) };
if (values.report) {
  mkdirSync(dirname(resolve(values.report)), { recursive: true });
  writeFileSync(values.report, `${JSON.stringify(summary)}\n`);
}
// Failures that belong to no transaction, for the reports.
const problems = gaps.map((key) => ({
  name: `${key}: no transaction`,
  check: 'response_coverage',
  message: `${key} is documented, but Dredd made no transaction for it`,
}));
if (target === 'live' && floorHere && coverage < minCoverage)
  problems.push({
    name: 'coverage',
    check: 'response_coverage',
    message: `${coverage.toFixed(1)}% of the documented responses exercised, below the floor of ${minCoverage}%`,
  });
if (code !== 0 && failed.length + problems.length === 0)
  problems.push({ name: 'dredd', check: 'status_code_conformance', message: `Dredd exited with code ${code}` });
if (values.results)
  writeFileSync(
    values.results,
    JSON.stringify({ mode: target, summary, coverage: { responses }, gaps, results, problems }, null, 1),
  );
process.exit(failures === 0 ? 0 : 1);
