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
    // The hooks import cli.ts and http-cap.ts, which import @hosting-api/openapi/target and /http (ESM only): bundled here, so
    // that the CommonJS hooks do not require() an ES module (Node 20 without require(esm) refuses it).
    // The spec model and check stay external: the hooks load them with import().
    noExternal: ['@hosting-api/openapi/target', '@hosting-api/openapi/http'],
    clean: ['!**/*.js', '!**/*.js.map', '!*.json'],
  },
]);
