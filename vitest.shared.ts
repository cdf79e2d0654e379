// Shared vitest settings: every package writes a JSON report that .ci/run sums into one total.
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * A sequencer that starts the named files first, in the order given, then the rest in vitest's
 * order. On a clean clone (CI) vitest knows no durations and starts the largest files first, so a
 * short file that runs for minutes (three whole gate checks) started last and ran alone at the end.
 */
export function startFirst(files: string[]): typeof BaseSequencer {
  return class extends BaseSequencer {
    override async sort(specs: TestSpecification[]) {
      const rank = (spec: TestSpecification) => {
        const i = files.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
        return i < 0 ? files.length : i;
      };
      return (await super.sort(specs)).sort((a, b) => rank(a) - rank(b));
    }
  };
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    globalSetup: [join(import.meta.dirname, 'vitest.tmpdir.ts')],
    testTimeout: 30_000,
    // One module graph per worker instead of one per test file: re-importing the packages' sources
    // for every file was most of the suites' time on a 2-core machine. Test files share no mutable
    // module state (each starts its own sandbox, mock or server).
    isolate: false,
    // Worker threads rather than child processes: cheaper to start, and no suite needs a process of
    // its own (servers and CLIs the tests start are child processes of their own anyway).
    pool: 'threads',
    // Starting Prism or building a sandbox can take a while on a loaded 2-core CI machine.
    hookTimeout: 60_000,
    // The workspace packages' builds (dist/) load as Node loads them, untransformed: through the
    // pnpm symlinks they sit outside node_modules, and vitest would otherwise transform every
    // built file (the schemas' 600 KB included) in every run.
    server: { deps: { external: [/\/dist\//] } },
  },
});
