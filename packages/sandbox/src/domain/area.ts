// What an area file exports: handlers keyed by operationId, typed from the spec.
//   export default defineArea({ getSiteNote: (ctx) => ({ data: noteView(ctx.note(...)) }) })
import type { IncomingMessage } from 'node:http';
import type { ActionName } from './actions.js';
import { notFound } from './errors.js';
import type { SandboxRuntime } from './runtime.js';
import type { SandboxState, SiteRecord } from './state.js';
import type { TokenRecord } from './tokens.js';
import type { OpBody, OpData, OperationId, OpPath, OpQuery, Page } from './types.js';

export interface Ctx<K extends OperationId> {
  operationId: K;
  /** Path parameters, coerced (ids are numbers) and validated. */
  params: OpPath<K>;
  /** Query parameters, coerced and validated; absent ones are absent. */
  query: OpQuery<K>;
  /** The validated body (JSON or form-encoded); undefined when none was sent and none is required. */
  body: OpBody<K>;
  rt: SandboxRuntime;
  /** Shorthand for rt.state (read it per call: reset replaces it). */
  state: SandboxState;
  /** The caller's token; null only on the two token operations. */
  token: TokenRecord | null;
  /** The HTTP request (headers; the caller's address is request.socket.remoteAddress). */
  request: IncomingMessage;
  /** The site of the account with that id, or a 404. */
  site(id: number): SiteRecord;
  /** Writes an activity entry attributed to this request (source `api.v1`). */
  /** `name` must be in the registry of src/actions.ts (listed by the action-listing endpoints). */
  activity(name: ActionName, description: string, message: string, siteId?: number | null): void;
}

/** The success envelope's parts; the server adds `errors: null`. */
export interface JsonResult<K extends OperationId> {
  data: OpData<K>;
  message?: string;
  /** Defaults to the spec's success status. */
  status?: number;
  page?: Page;
}
/** A non-envelope answer (no-content token revoke, archive downloads). */
export interface RawResult {
  raw: true;
  status?: number;
  contentType?: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
}
export type Result<K extends OperationId> = JsonResult<K> | RawResult;
/**
 * Synchronous by design: a request's reads and writes of the state happen in one stretch, so no
 * other request can interleave (limits hold, no lost updates, across sites too). An async handler
 * is a type error here and a 500 at run time (see AREAS.md).
 */
export type Handler<K extends OperationId> = (ctx: Ctx<K>) => Result<K>;
export type AreaHandlers = { [K in OperationId]?: Handler<K> };

export const defineArea = <T extends AreaHandlers>(handlers: T): T => handlers;

/**
 * The ctx of one request. A class rather than an object literal with two closures: one allocation
 * per request, methods shared on the prototype (this is on every request's path).
 */
export class RequestCtx<K extends OperationId> implements Ctx<K> {
  readonly params: OpPath<K>;
  readonly query: OpQuery<K>;
  readonly body: OpBody<K>;
  readonly state: SandboxState;

  constructor(
    readonly rt: SandboxRuntime,
    readonly operationId: K,
    readonly request: IncomingMessage,
    readonly token: TokenRecord | null,
    input: { params: unknown; query: unknown; body: unknown },
  ) {
    // Every write passes the state's size budget first (a 400 with a body past it: budget.ts).
    if (request.method !== 'GET') rt.budget.admit(rt.state, operationId, input.body);
    this.params = input.params as OpPath<K>;
    this.query = input.query as OpQuery<K>;
    this.body = input.body as OpBody<K>;
    this.state = rt.state;
  }

  site(id: number): SiteRecord {
    for (const site of this.rt.state.sites) if (site.id === id) return site;
    throw notFound();
  }

  activity(name: ActionName, description: string, message: string, siteId: number | null = null): void {
    this.rt.logActivity({ name, description, message, siteId, request: this.request });
  }
}
