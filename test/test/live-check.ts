// `hosting-api-contract check --allow-writes` (or one phase) against a sandbox reached only as a live URL
// (no control URL, no target data, the clock running at --speed 60), as a platform team runs the
// gate against its own server: the installed gate (gate.ts), its JSON report read back.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { contractPackage } from './gate';

export interface Case {
  phase: string;
  check: string;
  name: string;
  operation?: string;
  outcome: 'passed' | 'failed' | 'skipped' | 'flaky';
  expected?: string;
  actual?: string;
  failures?: { check: string; message: string }[];
}
export interface CheckRun {
  code: number;
  output: string;
  summary: {
    failed: number;
    flaky?: number;
    passed: number;
    phases: Record<string, { passed: number; failed: number }>;
    /** The state diff's figures (main.ts): what it read, what changed, what others did meanwhile. */
    stateDiff?: {
      compared: number;
      requests: number;
      budget: number;
      changed: string[];
      concurrent: string[];
      volatile?: string[];
    };
    /** The ledger (ledger.ts ledgerReport): what the run created, deleted, changed and put back. */
    ledger?: { created: string[]; deleted: string[]; changed: string[]; restored: string[]; notRestored: string[] };
    coverage?: {
      responses?: { documented: number; exercised: number; percent: number; byPhase: Record<string, number> };
      fuzz?: { statements: { statements: number; exercised: number; percent: number } };
    };
  };
  cases: Case[];
}

export function liveCheck(
  sandbox: { authUrl: string; url: string },
  command: 'check' | 'examples' = 'check',
  env: Record<string, string> = {},
): Promise<CheckRun> {
  const json = join(mkdtempSync(join(tmpdir(), 'gate-live-')), 'check.json');
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CONTRACT_')));
  const child = spawn(
    process.execPath,
    [
      join(contractPackage, 'bin/hosting-api-contract.js'),
      command,
      '--base-url',
      sandbox.url,
      '--auth-url',
      sandbox.authUrl,
      '--client-id',
      'sandbox-client',
      // The sandbox's second application (scope authorized only): the documented 403s of the scopes.
      '--limited-client-id',
      'sandbox-limited',
      '--allow-writes',
      ...(command === 'check' ? ['--max-examples', '3'] : []),
      '--json',
      json,
    ],
    {
      env: {
        ...clean,
        CONTRACT_CLIENT_SECRET: 'sandbox-secret',
        CONTRACT_LIMITED_CLIENT_SECRET: 'sandbox-limited-secret',
        // The sandbox at --speed 60 lands queued work within 0.2 s (10 s of its clock): a quiet
        // read of 0.3 s is enough there, where a real server's default is 1 s.
        CONTRACT_QUIET_MS: '300',
        ...env,
      },
    },
  );
  let output = '';
  child.stdout.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    output += c.toString();
  });
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      let report = { checks: [] as Case[] } as { checks: Case[] } & CheckRun['summary'];
      try {
        report = JSON.parse(readFileSync(json, 'utf8'));
      } catch {}
      resolve({ code: code ?? 1, output, summary: report, cases: report.checks });
    }),
  );
}

/** The failures of a run, one line each, for an assertion message. */
export const failuresOf = (run: CheckRun) =>
  run.cases
    .filter((c) => c.outcome === 'failed' || c.outcome === 'flaky')
    .map((c) => `${c.outcome} ${c.phase} ${c.name}: ${(c.failures ?? []).map((f) => f.message).join('; ')}`)
    .join('\n');

/**
 * The floor for a live `check`: at least 90% of the documented responses exercised by all
 * phases together, and of the behaviour statements; the statements the run can reach only on what
 * it made or caused (an alert of its own site, the git connection it made, the deploy history of
 * two deploys) were checked, not skipped.
 */
export function expectCoverage(run: CheckRun) {
  const { responses, fuzz } = run.summary.coverage ?? {};
  expect(responses?.percent, JSON.stringify(responses)).toBeGreaterThanOrEqual(90);
  expect(responses?.byPhase.fuzz, 'the fuzz phase adds the 4xx it provoked and checked').toBeGreaterThan(0);
  expect(fuzz?.statements.percent, JSON.stringify(fuzz)).toBeGreaterThanOrEqual(90);
  expect(run.output).toMatch(
    /Coverage: documented responses \d+(\.\d)?% \(\d+ of \d+: examples \d+, workflows \+\d+, fuzz \+\d+\)/,
  );
  const outcome = (name: RegExp) =>
    run.cases
      .filter((c) => c.phase === 'fuzz' && name.test(c.name))
      .map((c) => c.outcome)
      .join();
  for (const name of [
    /^write_read_back markAlertRead /,
    /^write_read_back dismissAlert /,
    /^write_read_back connectSiteGitRepository /,
    /^write_read_back updateSiteGitConfiguration /,
    /^list_order listSiteGitDeployHistory /,
    /^paging_consistency listSiteGitDeployHistory /,
  ])
    expect(outcome(name), String(name)).toBe('passed');
  // A git read's 422 comes from an existing site that is not enrolled, found by reading (live-plan).
  const examples = run.cases.filter((c) => c.phase === 'examples' && c.outcome === 'passed').map((c) => c.name);
  for (const operationId of ['getSiteGitConfiguration', 'listSiteGitBranches', 'listSiteGitDeployHistory'])
    expect(
      examples.some((n) => n.startsWith(`${operationId} 422`)),
      `${operationId} 422 passed in the examples phase`,
    ).toBe(true);
}
