// The gate's one safety rule: which operations only read. Every phase asks here (the examples
// phase's read-only mode, the workflows' write detection, the fuzz phase, the live plan, the
// state diff), never a rule of its own.
import type { Operation } from './types';

/** Operations that only read, by their operationId, although some are POSTs (searches, validation, metric queries). */
const READ_VERBS = /^(get|list|search|validate|query)[A-Z]/;

/** Whether `op` only reads: a GET, or a POST whose operationId says it reads. */
const isRead = (op: Operation) => op.method === 'get' || READ_VERBS.test(op.operationId);

/**
 * Whether the state diff reads `op` before and after the run: a GET of a resource or a list that
 * answers JSON (not aggregates: counts, reports, logs, usage, one-time URLs, SSH).
 */
const snapshotReadable = (op: Operation) =>
  op.method === 'get' &&
  !/(Counts|Report|Logs|Url|Ssh|Status)$/.test(op.operationId) &&
  Object.keys(op.operation.responses?.['200']?.content ?? {}).includes('application/json');

export { isRead, READ_VERBS, snapshotReadable };
