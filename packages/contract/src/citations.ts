// Where a failure's statement is written. The spec package cites `spec/<file>:<line>` of the
// repository the spec is kept in; a team's repository has no such file, so there a statement is
// cited by its JSON pointer in the spec the run reads (--spec, else the package's bundle).
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { SpecModel } from './types';

export function citeForThisRepository(model: SpecModel) {
  const spec = process.env.HOSTING_API_SPEC
    ? relative(process.cwd(), resolve(process.env.HOSTING_API_SPEC))
    : '@hosting-api/openapi/openapi.json';
  // Statement objects are shared with the operations' `list` and `effects`: set once, read everywhere.
  for (const statement of [...model.statements, ...model.operations.flatMap((o) => o.rules ?? [])])
    if (!existsSync(resolve(statement.source.replace(/:\d+$/, '')))) statement.source = `${spec}#${statement.pointer}`;
}
