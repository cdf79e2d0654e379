// Public API: generated zod schemas (see README for the naming rule) and the operationId lookup.
export * from './generated/components';
export * from './generated/endpoints';
export { operations, type OperationId } from './generated/operations';
export type { OperationSchemas } from './types';
