// The per-operation zod schemas of @hosting-api/schemas (`operations[operationId]` with
// `params`, `query`, `body`), used by validation.ts.
import { operations } from '@hosting-api/schemas';
import type { ValidatorMap } from './validation.js';

export const validationSource = 'schemas' as const;

export async function loadValidators(): Promise<ValidatorMap> {
  return operations as unknown as ValidatorMap;
}
