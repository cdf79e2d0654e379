// The gate's one safety rule, read from the spec model (@hosting-api/openapi/model `safe`, the rule the
// MCP server's --read-only and the CLI's confirmation read too): an operation is safe only when its
// method is safe and the spec states no effect for it (`x-effects`: the SSH disconnect GET, the
// database-admin URL GET). A read-only run (the default) sends only safe operations, and the token
// operations, which the run needs for its own token. Every phase asks here (the examples phase's
// read-only mode, the workflows' write detection, the fuzz phase, the live plan, the state diff),
// never a rule of its own.
import type { Operation, SpecModel } from './types';

/** Operations whose answer is what they check, by their operationId, although some are POSTs (searches, validation, metric queries). */
const READ_VERBS = /^(get|list|search|validate|query)[A-Z]/;

/** Whether `op` reads (its answer is what a check compares): a GET, or a POST whose operationId says it reads. Not whether it may be sent: that is `needsWrites`. */
const isRead = (op: Operation) => op.method === 'get' || READ_VERBS.test(op.operationId);

/** Whether `op` is safe to send to anything, as often as wanted (the spec model's rule). The state diff reads exactly these. */
const isSafe = (op: Pick<Operation, 'safe'>) => op.safe;

/** Sent only with --allow-writes: not safe by the spec, and not a token operation. */
const needsWrites = (op: Pick<Operation, 'safe' | 'outsideV1'>) => !op.safe && !op.outsideV1;

/** The same by operationId (a workflow's step); ids the spec does not have (the sandbox's control routes) are not judged. */
const idNeedsWrites = (model: SpecModel, operationId: string) => {
  const op = model.operations.find((o) => o.operationId === operationId);
  return op ? needsWrites(op) : false;
};

/** The skip reason of an operation a read-only run does not send. */
const READ_ONLY_REASON = 'not safe by the spec (a write, or a read with an effect); give --allow-writes to run it';

export { idNeedsWrites, isRead, isSafe, needsWrites, READ_ONLY_REASON, READ_VERBS };
