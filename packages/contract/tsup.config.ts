import { copyFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

// Two builds into dist/. ESM for the bin (main.js) and the phase scripts main spawns (run.js,
// workflows.js, fuzz.js). CommonJS for what Dredd loads: its --hookfiles go through proxyquire,
// which requires them with `hooks` stubbed, and --require preloads a script with node's require.
// Each build cleans only its own files; sandbox-target.json is data the examples phase points at.
const common = { target: 'node20', platform: 'node', sourcemap: true } as const;

export default defineConfig([
  {
    ...common,
    entry: ['src/main.ts', 'src/run.ts', 'src/workflows.ts', 'src/fuzz.ts'],
    format: ['esm'],
    splitting: true,
    clean: ['!**/*.cjs', '!**/*.cjs.map'],
    onSuccess: async () => copyFileSync('src/sandbox-target.json', 'dist/sandbox-target.json'),
  },
  {
    ...common,
    entry: ['src/hooks.ts', 'src/dredd-preload.ts'],
    format: ['cjs'],
    outExtension: () => ({ js: '.cjs' }),
    shims: true,
    external: ['hooks'],
    clean: ['!**/*.js', '!**/*.js.map', '!*.json'],
  },
]);
