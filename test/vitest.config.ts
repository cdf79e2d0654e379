// The contract deviation tests (test/) and the release gates (release/) in one run.
import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../vitest.shared.ts';

export default mergeConfig(
  shared,
  defineConfig({ test: { include: ['test/**/*.test.ts', 'release/**/*.test.ts'], testTimeout: 120_000 } }),
);
