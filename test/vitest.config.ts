// The contract deviation tests (test/) and the release gates (release/) in one run.
import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../vitest.shared.ts';

export default mergeConfig(
  shared,
  defineConfig({
    test: {
      include: ['test/**/*.test.ts', 'release/**/*.test.ts'],
      // The published packages, packed and installed once outside the workspace for every file that runs them.
      globalSetup: ['release/packed-install.ts'],
      testTimeout: 120_000,
      // The files mostly wait on the servers and gate runs they start: two at a time, even on a
      // 2-core machine (vitest's default there is one), keeps this package off the critical path.
      maxWorkers: 2,
    },
  }),
);
