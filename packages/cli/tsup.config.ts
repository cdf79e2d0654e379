import { defineConfig } from 'tsup';
import { binConfig } from '../../scripts/tsup-bin.mjs';

// commander is bundled in: a run loads one file of ours instead of commander's seven CommonJS
// modules (about 40 ms of a cold start here). It stays a dependency for the types of `buildProgram`
// (which returns a commander Command).
export default defineConfig(binConfig(['commander']));
