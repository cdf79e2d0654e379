// Shared vitest settings: every package writes a JSON report that .ci/run sums into one total.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    testTimeout: 30_000,
    // Starting Prism or building a sandbox can take a while on a loaded 2-core CI machine.
    hookTimeout: 60_000,
  },
});
