// Public API: generated zod schemas (see README for the naming rule) and the operationId lookup.
export * from './generated/schemas';
export { type OperationId, operations } from './operations';
export type { OperationSchemas } from './types';
