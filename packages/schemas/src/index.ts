// Public API: generated zod schemas (see README for the naming rule) and the operationId lookup.
export * from './generated/components';
export * from './generated/endpoints';
export { type OperationId, operations } from './generated/operations';
export type { OperationSchemas } from './types';
