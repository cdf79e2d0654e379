// orval configuration of @hosting-api/schemas: orval's zod client over one document that prepare.mjs
// makes from the spec model — the operations, plus one synthetic GET per component schema (orval's zod
// mode emits per-operation schemas only). generate.mjs runs it and finishes the output.
import { specPath } from '@hosting-api/openapi/model';

/** orval's options: read `document` (prepare.mjs), write `target`; `packageJson` is @hosting-api/schemas' own. */
export const orvalOptions = (document, target, packageJson) => ({
  input: {
    target: specPath(),
    // orval's validator rejects 3.1 server variables; the transformed document has no servers.
    parserOptions: { validate: false },
    override: { transformer: () => document },
  },
  output: {
    target,
    client: 'zod',
    mode: 'single',
    // orval picks zod 3 or 4 syntax from this file's zod version.
    packageJson,
    override: {
      header: false,
      zod: {
        // Path and query values arrive as strings on a server: coerce numbers only
        // (z.coerce.boolean would turn "false" into true).
        coerce: { param: ['number'], query: ['number'] },
        // RFC 3339 allows offsets (`+02:00`) as well as `Z`.
        dateTimeOptions: { offset: true },
      },
    },
  },
});
