// orval's mutator: every generated function ends here. The per-client context travels in the
// RequestInit under a symbol (orval spreads `options` into the init, which keeps symbol keys).
import type { CallOptions, ClientContext, OperationMeta } from './operation';

export const CALL = Symbol.for('@hosting-api/client.call');

interface CallContext {
  ctx: ClientContext;
  meta: OperationMeta;
  options: CallOptions;
}

// Not `async`: it hands back the core's promise as is (orval types it as the envelope, but the
// operation wrapper receives the core's CallResult).
export const hostingFetch = <T>(url: string, init: RequestInit): Promise<T> => {
  const call = (init as { [CALL]?: CallContext })[CALL];
  if (!call) return Promise.reject(new Error('@hosting-api/client: operations must be called through a client from createClient()'));
  return call.ctx.call(call.meta, url, init, call.options) as unknown as Promise<T>;
};
