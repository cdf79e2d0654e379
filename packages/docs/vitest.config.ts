import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// Starting Chromium and type-checking 116 samples take longer than a unit test. One worker (vitest's
// default on 2 cores): with two, the portal's Chromium took both cores from the task turbo runs beside
// it (the browser example's tests 21.9 s -> 46.6 s, the CLI's 34 -> 56.6 s, in two clean clones).
export default mergeConfig(shared, defineConfig({ test: { testTimeout: 180_000, hookTimeout: 300_000 } }));
