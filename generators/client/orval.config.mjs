// orval: one fetch function per operation, each routed through the client runtime's mutator
// (packages/client/src/runtime/mutator.ts), which adds base URL, auth, retries, timeouts and errors.
// Paths are relative to this file.
export default {
  hostingApi: {
    input: { target: '../../spec/dist/openapi.json' },
    output: {
      target: '../../packages/client/src/generated/orval/endpoints.ts',
      schemas: '../../packages/client/src/generated/orval/model',
      client: 'fetch',
      mode: 'single',
      clean: true,
      prettier: false,
      override: {
        mutator: { path: '../../packages/client/src/runtime/mutator.ts', name: 'hostingFetch' },
        fetch: { includeHttpResponseReturnType: false },
      },
    },
  },
};
