// Preloaded into the Dredd process (`node --require`, by run.mjs). Dredd's addHooks deep-clones its
// whole configuration for the hooks' `configuration`, the parsed API descriptions included: that
// clone was 3.4 s of a 9 s run of 396 transactions. Here the descriptions are shared (hooks.cjs only
// reads them) and the rest is cloned as before. Dredd is pinned (14.1.0), and only the `clone` that
// its build/addHooks.js requires is wrapped.
'use strict';
const Module = require('node:module');
const { sep } = require('node:path');

const addHooks = `${sep}dredd${sep}build${sep}addHooks.js`;
const load = Module._load;
Module._load = function loadWithSharedDescriptions(request, parent, ...rest) {
  const loaded = load.call(this, request, parent, ...rest);
  if (request !== 'clone' || !parent?.filename?.endsWith(addHooks)) return loaded;
  const clone = (value, ...options) => {
    if (!value || typeof value !== 'object' || !('apiDescriptions' in value)) return loaded(value, ...options);
    const { apiDescriptions, ...others } = value;
    return Object.assign(loaded(others, ...options), { apiDescriptions });
  };
  return Object.assign(clone, loaded);
};
