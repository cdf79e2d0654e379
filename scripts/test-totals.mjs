#!/usr/bin/env node
// Sums the JSON reports that the test runs wrote (vitest's --reporter=json format, or
// {"passed": n, "failed": n} from other runners) and prints one line: "N passed, N failed".
// Usage: test-totals.mjs [root] [exit status of the test run]; a failed run that left no failing
// report (a build error, say) counts as one failure, so the totals never hide a red run.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = process.argv[2] ?? process.cwd();
const runStatus = Number(process.argv[3] ?? 0);
const skip = new Set(['node_modules', '.git', '.turbo', 'dist']);

function* reports(dir) {
  for (const name of readdirSync(dir)) {
    if (skip.has(name)) continue;
    const path = join(dir, name);
    if (!statSync(path).isDirectory()) continue;
    if (name === 'test-results') {
      for (const file of readdirSync(path)) if (file.endsWith('.json')) yield join(path, file);
    } else {
      yield* reports(path);
    }
  }
}

let passed = 0;
let failed = 0;
for (const file of reports(root)) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? report.passed ?? 0;
  failed += report.numFailedTests ?? report.failed ?? 0;
  // A suite that failed to load counts as a failure even when it reported no test.
  failed += (report.testResults ?? []).filter((r) => r.status === 'failed' && r.assertionResults?.length === 0).length;
}
if (runStatus !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
