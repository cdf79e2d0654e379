// The gate's one safety rule, read from the spec model (@hosting-api/openapi/model `safe`, the rule the
// MCP server's --read-only and the CLI's confirmation read too): an operation is safe only when its
// method is safe and the spec states no effect for it (`x-effects`: the SSH disconnect GET, the
// database-admin URL GET). A read-only run (the default) sends only safe operations, and the token
// operations, which the run needs for its own token.
import type { Operation, SpecModel } from './types';

/** Sent only with --allow-writes: not safe by the spec, and not a token operation. */
export const needsWrites = (op: Pick<Operation, 'safe' | 'outsideV1'>) => !op.safe && !op.outsideV1;

/** The same by operationId (a workflow's step); ids the spec does not have (the sandbox's control routes) are not judged. */
export const idNeedsWrites = (model: SpecModel, operationId: string) => {
  const op = model.operations.find((o) => o.operationId === operationId);
  return op ? needsWrites(op) : false;
};

/** The skip reason of an operation a read-only run does not send. */
export const READ_ONLY_REASON =
  'not safe by the spec (a write, or a read with an effect); give --allow-writes to run it';
