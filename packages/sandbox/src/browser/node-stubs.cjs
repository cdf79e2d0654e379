// Browser build: what the bundled code takes from Node builtins it never uses in a page. The
// server (node:http), fixture files (node:fs) and find-my-way's argument checks (node:assert).
'use strict';
const notInBrowser = (what) => () => {
  throw new Error(`${what} is not available in a browser: use createSandboxHandlers from @hosting-api/sandbox/msw`);
};
function assert(value, message) {
  if (!value) throw new Error(message);
}
module.exports = assert;
module.exports.createServer = notInBrowser('startSandbox (node:http)');
module.exports.readFileSync = notInBrowser('loadFixture (node:fs)');
