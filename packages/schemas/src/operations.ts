// The operationId lookup (generated/operations.ts), checked against OperationSchemas.
import { operations } from './generated/operations';
import type { OperationSchemas } from './types';

operations satisfies Record<string, OperationSchemas>;

export { operations };
/** An operationId of the API. */
export type OperationId = keyof typeof operations;
