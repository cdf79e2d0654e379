// The contract deviation tests (test/) and the release gates (release/) in one run.
import { defineConfig, mergeConfig } from 'vitest/config';
import shared, { startFirst } from '../vitest.shared.ts';

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
      // The longest files (a clean-clone CI run: 167, 65-83, 64-91, 63, 62 and 44-47 s), first, so
      // that neither worker is left with one of them alone at the end.
      sequence: {
        sequencer: startFirst([
          'test/contract-live-variant.test.ts',
          'release/tools.test.ts',
          'release/install-lines.test.ts',
          'test/contract-fuzz.test.ts',
          'test/contract-deviations.test.ts',
          'release/engines.test.ts',
        ]),
      },
    },
  }),
);
