// The gate's one safety rule: which operations only read. Every phase asks here (the examples
// phase's read-only mode, the workflows' write detection, the fuzz phase, the live plan, the
// state diff), never a rule of its own.
import type { Operation } from './types';

/** Operations that only read, by their operationId, although some are POSTs (searches, validation, metric queries). */
const READ_VERBS = /^(get|list|search|validate|query)[A-Z]/;

/** Whether `op` only reads: a GET, or a POST whose operationId says it reads. */
const isRead = (op: Operation) => op.method === 'get' || READ_VERBS.test(op.operationId);

/**
 * Whether `op` is safe to send to anything, as often as wanted: a GET for which the spec states no
 * effect (`x-effects`). The state diff reads exactly these.
 */
const isSafe = (op: Operation) => op.method === 'get' && !(op.effects ?? []).length;

export { isRead, isSafe, READ_VERBS };
