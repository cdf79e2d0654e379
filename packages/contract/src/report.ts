// The gate's reports: one list of cases from every phase, written as JUnit XML (one testsuite per
// phase, one testcase per transaction, workflow or generated case), as JSON, and under GitHub
// Actions as ::error annotations at the operation's place in the spec and a step summary table.
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import junit from 'junit-report-builder';
import { describeObservation, type Observation } from './flaky';
import { shown } from './redact';
import type { Operation, ReportCase, Req, SpecModel, Totals } from './types';

/** A shell-quoted word. */
const q = (s: unknown) => `'${String(s).replaceAll("'", `'\\''`)}'`;

/** A curl command that sends the request again; the token stays `$TOKEN` (and the secret `$CONTRACT_CLIENT_SECRET`). */
export function curlOf(request: Req | undefined) {
  if (!request) return undefined;
  const parts = ['curl', '-sS', '-i', '-X', request.method, q(request.url)];
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    const text = `${name}: ${value}`;
    // Double quotes where the shell must expand $TOKEN.
    parts.push(
      '-H',
      /\$TOKEN|\$CONTRACT_CLIENT_SECRET/.test(text) ? `"${text.replace(/(["`\\])/g, '\\$1')}"` : q(text),
    );
  }
  if (request.body !== undefined)
    parts.push(
      '--data-raw',
      /\$TOKEN|\$CONTRACT_CLIENT_SECRET/.test(request.body)
        ? `"${request.body.replace(/(["`\\])/g, '\\$1')}"`
        : q(request.body),
    );
  return parts.join(' ');
}

/**
 * How to get $TOKEN for the reproducers: with the client id the run used (`--client-id`; not secret),
 * else `$CONTRACT_CLIENT_ID`; the secret stays `$CONTRACT_CLIENT_SECRET`.
 */
export const tokenLine = (authUrl: string, clientId?: string) =>
  `TOKEN=$(curl -sS -X POST ${q(`${authUrl.replace(/\/$/, '')}/auth/token`)} -d grant_type=client_credentials ${clientId ? `--data-urlencode ${q(`client_id=${clientId}`)}` : '-d "client_id=$CONTRACT_CLIENT_ID"'} -d "client_secret=$CONTRACT_CLIENT_SECRET" | node -pe 'JSON.parse(require("fs").readFileSync(0)).data.access_token')`;

const line = (c: ReportCase) => {
  const f = c.failures?.[0];
  const where = c.operationId ? ` ${c.operationId}` : '';
  const ea =
    c.expected !== undefined || c.actual !== undefined
      ? ` (expected ${c.expected ?? '—'}, actual ${c.actual ?? '—'})`
      : '';
  return `[${f?.check ?? c.check}]${where}${ea}: ${f?.message ?? c.errors?.[0] ?? ''}`;
};

/**
 * JUnit has no flaky outcome: a flaky case is a testcase named `[flaky]` with its observations in
 * its output, passing, or failing with --fail-on-flaky (`failOnFlaky`).
 */
export function writeJunit(file: string, phases: string[], reported: ReportCase[], { failOnFlaky = false } = {}) {
  const cases = shown(reported);
  const builder = junit.newBuilder();
  const reasons: string[] = [];
  for (const phase of phases) {
    const suite = builder.testSuite().name(phase);
    for (const c of cases.filter((x) => x.phase === phase)) {
      const t = suite
        .testCase()
        .className(`${phase}.${c.operationId ?? c.check ?? 'gate'}`)
        .name(c.outcome === 'flaky' ? `${c.name} [flaky]` : c.name);
      if (c.ms !== undefined) t.time(c.ms / 1000);
      if (c.outcome === 'flaky') {
        if (failOnFlaky) t.failure(line(c), 'flaky');
        t.standardOutput(
          [
            ...(c.failures ?? []).map((f) => `[${f.check}] ${f.message}`),
            ...((c.observations ?? []) as Observation[]).map(describeObservation),
            ...(c.curl ? [`reproduce: ${c.curl}`] : []),
          ].join('\n'),
        );
      } else if (c.outcome === 'fail') {
        t.failure(line(c), c.failures?.[0]?.check ?? c.check);
        const details = [
          ...(c.failures ?? []).map((f) => `[${f.check}] ${f.message}`),
          ...(c.curl ? [`reproduce: ${c.curl}`] : []),
        ];
        t.standardOutput(details.join('\n'));
      } else if (c.outcome === 'skip') {
        t.skipped();
        reasons.push(c.reason ?? 'skipped');
      }
    }
  }
  // junit-report-builder writes <skipped/> without a message: each gets its reason.
  const parts = builder.build().split('<skipped/>');
  const escapeXml = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const xml = parts
    .map((p, i) => (i === 0 ? p : `<skipped message="${escapeXml(reasons[i - 1] ?? '')}"/>${p}`))
    .join('');
  mkdirSync(dirname(resolve(file)), { recursive: true });
  writeFileSync(file, xml);
}

/**
 * The checks a passing transaction of the examples phase ran: the response checks (a failing one
 * names the check that failed, and every other case carries its own).
 */
const RESPONSE_CHECKS = [
  'status_code_conformance',
  'content_type_conformance',
  'response_headers_conformance',
  'response_schema_conformance',
];

export function writeJson(file: string, summary: object, reported: ReportCase[]) {
  const cases = shown(reported);
  const checks = cases.map((c) => ({
    phase: c.phase,
    // Every case carries a check: a transaction that passed ran the response checks, the schema last.
    check: c.failures?.[0]?.check ?? c.check ?? RESPONSE_CHECKS.at(-1),
    checks: c.check || c.failures ? undefined : RESPONSE_CHECKS,
    statement: c.statement,
    name: c.name,
    operation: c.operationId,
    outcome: { pass: 'passed', fail: 'failed', skip: 'skipped', flaky: 'flaky' }[c.outcome],
    expected: c.expected,
    actual: c.actual,
    duration_ms: c.ms,
    failures: c.failures,
    reason: c.reason,
    input: c.input,
    curl: c.curl,
    observations: c.observations,
  }));
  mkdirSync(dirname(resolve(file)), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ ...shown(summary), checks }, null, 1)}\n`);
}

/** The line of an operation in the spec file the user gave (YAML or JSON), relative to the working directory. */
function placeOf(operation: Operation, specGiven: string) {
  let lines: string[];
  try {
    lines = readFileSync(specGiven, 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const keys = [`${operation.path}:`, `'${operation.path}':`, `"${operation.path}":`];
  const at = lines.findIndex((l) => keys.some((k) => l.trim().startsWith(k)));
  if (at < 0) return undefined;
  const method = new RegExp(`^\\s+"?${operation.method}"?:`);
  const found = lines.findIndex((l, i) => i > at && method.test(l));
  return { file: relative(process.cwd(), resolve(specGiven)), line: (found >= 0 ? found : at) + 1 };
}

/** GitHub Actions: ::error annotations and the step summary. */
export function githubReport({
  cases: reported,
  totals,
  model,
  specGiven,
}: {
  cases: ReportCase[];
  totals: Totals;
  model: SpecModel;
  /** The spec file the user gave (--spec), if any: annotations name no file otherwise. */
  specGiven?: string | undefined;
}) {
  const cases = shown(reported);
  const esc = (s: unknown) => String(s).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  // A flaky case is a warning: it fails the run only with --fail-on-flaky, and then the run says so.
  for (const c of cases.filter((x) => x.outcome === 'fail' || x.outcome === 'flaky')) {
    const op = c.operationId && model.operations.find((o) => o.operationId === c.operationId);
    const place = op && specGiven ? placeOf(op, specGiven) : undefined;
    const at = place ? ` file=${esc(place.file)},line=${place.line},` : ' ';
    const level = c.outcome === 'flaky' ? 'warning' : 'error';
    process.stdout.write(
      `::${level}${at}title=${esc(`${c.phase}: ${c.failures?.[0]?.check ?? c.check}`)}::${esc(line(c))}\n`,
    );
  }
  if (!process.env.GITHUB_STEP_SUMMARY) return;
  const rows = Object.entries(totals.phases).map(([p, t]) => `| ${p} | ${t.passed} | ${t.failed} | ${t.skipped} |`);
  const failed = cases.filter((x) => x.outcome === 'fail').slice(0, 50);
  const cell = (s: unknown) =>
    String(s ?? '')
      .replace(/\|/g, '\\|')
      .replace(/\n/g, ' ');
  const summary = [
    `## Contract gate: ${totals.failed ? 'FAILED' : 'PASSED'}`,
    '',
    '| Phase | Passed | Failed | Skipped |',
    '|---|---:|---:|---:|',
    ...rows,
    '',
    ...(failed.length
      ? [
          '| Phase | Check | Operation | Expected | Actual | Problem |',
          '|---|---|---|---|---|---|',
          ...failed.map(
            (c) =>
              `| ${c.phase} | ${cell(c.failures?.[0]?.check ?? c.check)} | ${cell(c.operationId ?? c.name)} | ${cell(c.expected)} | ${cell(c.actual)} | ${cell(c.failures?.[0]?.message ?? c.errors?.[0])} |`,
          ),
        ]
      : []),
    '',
  ];
  appendFileSync(process.env.GITHUB_STEP_SUMMARY, summary.join('\n'));
}
