#!/usr/bin/env node
// Sums the JSON reports that the test runs wrote (vitest's --reporter=json format, or
// {"passed": n, "failed": n, "skipped": n} from other runners) and prints one line:
// "N passed, N failed, N skipped". Skipped and todo tests are counted, so a suite that was skipped
// (a packaging or portal suite without its browser, say) shows in the totals instead of vanishing.
// Usage: test-totals.mjs [root] [exit status of the test run]; a failed run that left no failing
// report (a build error, say) counts as one failure, so the totals never hide a red run.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ignored = new Set(['node_modules', '.git', '.turbo', 'dist']);

function* reports(dir) {
  for (const name of readdirSync(dir)) {
    if (ignored.has(name)) continue;
    const path = join(dir, name);
    if (!statSync(path).isDirectory()) continue;
    if (name === 'test-results') {
      for (const file of readdirSync(path)) if (file.endsWith('.json')) yield join(path, file);
    } else {
      yield* reports(path);
    }
  }
}

/** The summed totals of every report under `root`; `runStatus` is the exit status of the run. */
export function totals(root, runStatus = 0) {
  const sum = { passed: 0, failed: 0, skipped: 0 };
  for (const file of reports(root)) {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    sum.passed += report.numPassedTests ?? report.passed ?? 0;
    sum.failed += report.numFailedTests ?? report.failed ?? 0;
    sum.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0) + (report.skipped ?? 0);
    // A suite that failed to load counts as a failure even when it reported no test.
    sum.failed += (report.testResults ?? []).filter(
      (r) => r.status === 'failed' && r.assertionResults?.length === 0,
    ).length;
  }
  if (runStatus !== 0 && sum.failed === 0) sum.failed = 1;
  return sum;
}

export const line = ({ passed, failed, skipped }) => `${passed} passed, ${failed} failed, ${skipped} skipped`;

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(line(totals(process.argv[2] ?? process.cwd(), Number(process.argv[3] ?? 0))));
}
