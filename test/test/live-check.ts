// `hosting-api-contract check --allow-writes` (or one phase) against a sandbox reached only as a live URL
// (no control URL, no target data, the clock running at --speed 60), as a platform team runs the
// gate against its own server: the installed gate (gate.ts), its JSON report read back.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contractPackage } from './gate';

export interface Case {
  phase: string;
  check: string;
  name: string;
  operation?: string;
  outcome: 'passed' | 'failed' | 'skipped';
  expected?: string;
  actual?: string;
  failures?: { check: string; message: string }[];
}
export interface CheckRun {
  code: number;
  output: string;
  summary: { failed: number; passed: number; phases: Record<string, { passed: number; failed: number }> };
  cases: Case[];
}

export function liveCheck(
  sandbox: { authUrl: string; url: string },
  command: 'check' | 'examples' = 'check',
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
      '--allow-writes',
      ...(command === 'check' ? ['--max-examples', '3'] : []),
      '--json',
      json,
    ],
    { env: { ...clean, CONTRACT_CLIENT_SECRET: 'sandbox-secret' } },
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
    .filter((c) => c.outcome === 'failed')
    .map((c) => `${c.phase} ${c.name}: ${(c.failures ?? []).map((f) => f.message).join('; ')}`)
    .join('\n');
