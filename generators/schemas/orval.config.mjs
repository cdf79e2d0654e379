// orval configuration of @hosting-api/schemas, one project per output: orval's zod client, once on
// the operations and once on a synthetic document with one operation per component schema (its zod
// mode emits per-operation schemas only). Both documents come from the spec model through the
// transformers of prepare.mjs. generate.mjs runs them; postprocess.mjs finishes the output.
import { join } from 'node:path';
import { specPath } from '@hosting-api/openapi/model';
import { componentsDocument, operationsDocument } from './prepare.mjs';

/** orval's options for each output, written to `outDir/<name>.ts`; `pkg` is the package's directory. */
export const projects = (model, outDir, pkg) => ({
  endpoints: project(model, join(outDir, 'endpoints.ts'), pkg, operationsDocument),
  components: project(model, join(outDir, 'components.ts'), pkg, componentsDocument),
});

const project = (model, target, pkg, transformer) => ({
  input: {
    target: specPath(),
    // orval's validator rejects 3.1 server variables; the transformed documents have no servers.
    parserOptions: { validate: false },
    override: { transformer: () => transformer(model) },
  },
  output: {
    target,
    client: 'zod',
    mode: 'single',
    // orval picks zod 3 or 4 syntax from this file's zod version.
    packageJson: join(pkg, 'package.json'),
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
