import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// Starting Chromium and type-checking 116 samples take longer than a unit test.
export default mergeConfig(shared, defineConfig({ test: { testTimeout: 180_000, hookTimeout: 300_000 } }));
