// The spec document the sandbox runs on: undefined means the bundled spec file of
// @hosting-api/openapi, read at start. The browser build swaps in src/browser/spec-document.ts,
// which bundles that document (a page has no file system).
export const specDocument: object | undefined = undefined;
