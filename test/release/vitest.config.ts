// Release gates (test/release): their own vitest run, so they write their own report
// (test/release/test-results/vitest.json, summed by .ci/run) next to the contract tests' one.
import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

export default mergeConfig(
  shared,
  defineConfig({ root: import.meta.dirname, test: { include: ['*.test.ts'], testTimeout: 120_000 } }),
);
