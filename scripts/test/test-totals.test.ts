// scripts/test-totals.mjs: the CI totals line, skipped tests included.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs script without types
import { line, totals } from '../test-totals.mjs';

let root: string;
const report = (dir: string, value: object) => {
  mkdirSync(join(root, dir, 'test-results'), { recursive: true });
  writeFileSync(join(root, dir, 'test-results', 'report.json'), JSON.stringify(value));
};
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('test-totals', () => {
  it('sums vitest and contract reports, counting skipped and todo tests', () => {
    root = mkdtempSync(join(tmpdir(), 'totals-'));
    report('a', { numPassedTests: 3, numFailedTests: 1, numPendingTests: 2, numTodoTests: 1, testResults: [] });
    report('b/c', { passed: 10, failed: 0, skipped: 4 });
    report('node_modules/x', { numPassedTests: 100 });
    expect(line(totals(root))).toBe('13 passed, 1 failed, 7 skipped');
  });

  it('shows a wholly skipped suite, and never a green line for a failed run', () => {
    root = mkdtempSync(join(tmpdir(), 'totals-'));
    report('portal', { numPassedTests: 0, numFailedTests: 0, numPendingTests: 5, testResults: [] });
    expect(line(totals(root))).toBe('0 passed, 0 failed, 5 skipped');
    expect(line(totals(root, 2))).toBe('0 passed, 1 failed, 5 skipped');
  });

  it('counts a suite that failed to load as a failure', () => {
    root = mkdtempSync(join(tmpdir(), 'totals-'));
    report('a', { numPassedTests: 1, numFailedTests: 0, testResults: [{ status: 'failed', assertionResults: [] }] });
    expect(totals(root)).toEqual({ passed: 1, failed: 1, skipped: 0 });
  });
});
