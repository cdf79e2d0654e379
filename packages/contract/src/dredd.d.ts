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
