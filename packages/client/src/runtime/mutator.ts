// orval's mutator: every generated function ends here. The per-client context travels in the
// RequestInit under a symbol (orval spreads `options` into the init, which keeps symbol keys).
import type { CallOptions, CallResult, ClientContext, OperationMeta } from './operation';

export const CALL = Symbol.for('@hosting-api/client.call');

interface CallContext {
  ctx: ClientContext;
  meta: OperationMeta;
  options: CallOptions;
}

export const hostingFetch = async <T>(url: string, init: RequestInit): Promise<T> => {
  const call = (init as { [CALL]?: CallContext })[CALL];
  if (!call) throw new Error('@hosting-api/client: operations must be called through a client from createClient()');
  const result: CallResult = await call.ctx.call(call.meta, url, init, call.options);
  return result as T;
};
