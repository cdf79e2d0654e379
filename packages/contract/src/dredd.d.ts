// The module Dredd hands its hook files (proxyquire stubs `require('hooks')`): only what hooks.ts uses.
declare module 'hooks' {
  // biome-ignore lint/suspicious/noExplicitAny: Dredd's transactions are plain JSON objects of its own
  type Hook = (...args: any[]) => unknown;
  const hooks: {
    beforeAll(fn: Hook): void;
    beforeEach(fn: Hook): void;
    beforeEachValidation(fn: Hook): void;
    afterEach(fn: Hook): void;
    afterAll(fn: Hook): void;
  };
  export default hooks;
}

// Why a request of Dredd's got no answer (dredd-preload sets it, the hooks' afterEach reads it), by
// the transaction's request object.
declare var contractNoAnswer: WeakMap<object, string> | undefined;
