// Preloaded into the Dredd process (`node --require`, by run.mjs) to make it do less. Dredd is
// pinned (14.1.0), and only what its bin and its addHooks.js require is wrapped.
// - Dredd's addHooks deep-clones its whole configuration for the hooks' `configuration`, the parsed
//   API descriptions included: that clone was 3.4 s of a 9 s run of 396 transactions. Here the
//   descriptions are shared (hooks.cjs only reads them) and the rest is cloned as before.
// - Dredd's CLI spawns `npm --version` at every start for a debug line (0.3 s of CPU); the line,
//   and so the spawn, is left out unless Dredd logs at debug level.
'use strict';
const Module = require('node:module');
const { sep } = require('node:path');

const addHooks = `${sep}dredd${sep}build${sep}addHooks.js`;
const bin = `${sep}dredd${sep}bin${sep}dredd`;
const load = Module._load;
Module._load = function loadDreddLighter(request, parent, ...rest) {
  const loaded = load.call(this, request, parent, ...rest);
  if (request === '../build/CLI' && parent?.filename?.endsWith(bin) && loaded?.default?.prototype?.logDebuggingInfo) {
    const CLI = loaded.default;
    const logDebuggingInfo = CLI.prototype.logDebuggingInfo;
    CLI.prototype.logDebuggingInfo = function logDebuggingInfoAtDebugOnly(config) {
      if (config?.loglevel === 'debug') return logDebuggingInfo.call(this, config);
    };
    return loaded;
  }
  if (request !== 'clone' || !parent?.filename?.endsWith(addHooks)) return loaded;
  const clone = (value, ...options) => {
    if (!value || typeof value !== 'object' || !('apiDescriptions' in value)) return loaded(value, ...options);
    const { apiDescriptions, ...others } = value;
    return Object.assign(loaded(others, ...options), { apiDescriptions });
  };
  return Object.assign(clone, loaded);
};
