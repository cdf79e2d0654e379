import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// Starting Chromium and type-checking 116 samples take longer than a unit test. Two workers on the
// 2-core CI machine (vitest's default there is one): the other files (their own tsc, redocly and
// docs:serve processes) run while portal.test.ts waits on Chromium, not after it.
export default mergeConfig(
  shared,
  defineConfig({ test: { testTimeout: 180_000, hookTimeout: 300_000, maxWorkers: 2 } }),
);
