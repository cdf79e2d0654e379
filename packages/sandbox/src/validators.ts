// Loads the per-operation zod schemas of @hosting-api/schemas (`operations[operationId]` with
// `params`, `query`, `body`). Loaded lazily so the sandbox also starts where that package has
// not been built; `validationSource` says which one is in force.
import type { ValidatorMap } from './validation.js';

export let validationSource: 'schemas' | 'none' = 'none';

export async function loadValidators(): Promise<ValidatorMap> {
  try {
    const specifier = '@hosting-api/schemas';
    const mod = (await import(specifier)) as { operations?: ValidatorMap };
    if (mod.operations) {
      validationSource = 'schemas';
      return mod.operations;
    }
  } catch {
    // fall through
  }
  validationSource = 'none';
  return {};
}
