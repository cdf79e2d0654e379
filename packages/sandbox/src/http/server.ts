// The HTTP server: every operation of the spec as a route (501 until an area implements it),
// auth and scopes (auth.ts), bodies (body.ts), validation (validation.ts), the response self-check
// (self-check.ts), the error envelope for every failure, and the control routes under /__sandbox
// (control.ts). The behaviour of each operation is in ../domain/areas.
//
// Plain node:http with find-my-way (the router Fastify uses), not Fastify itself: on the
// benchmark's POST route Fastify's own per-request work (hooks, reply object, content-type parser
// in an async resource) cost more than issue 7's target (0.6x a bare node:http server) leaves for
// the sandbox. What Fastify did for us is here, in a few functions: routing, query parsing, body
// limit and content types, the error envelope, closing open connections on stop
// (`server.closeAllConnections()`).
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { createCheck } from '@hosting-api/openapi/check';
import type { SpecModel } from '@hosting-api/openapi/model';
import FindMyWay from 'find-my-way';
import { type AreaHandlers, type JsonResult, type RawResult, RequestCtx } from '../domain/area.js';
import { ApiError, badRequest, envelopeOf, forbidden, MESSAGES, notFound, unauthorized } from '../domain/errors.js';
import type { SandboxRuntime } from '../domain/runtime.js';
import type { TokenRecord } from '../domain/tokens.js';
import type { OperationId } from '../domain/types.js';
import { bearer, missingScopes } from './auth.js';
import { parseBody, readBody } from './body.js';
import { controlRoutes } from './control.js';
import { type CorsOption, corsHandler, documentedResponseHeaders, routerMethods } from './cors.js';
import { type FaultRule, Faults } from './faults.js';
import { type ControlGuardOptions, controlGuard } from './guard.js';
import { type SpecOperation, toRoutePath } from './spec.js';
import { type ValidatorMap, validateRequest } from './validation.js';

export interface ServerOptions {
  rt: SandboxRuntime;
  operations: SpecOperation[];
  handlers: AreaHandlers;
  validators: ValidatorMap;
  bodyLimit: number;
  onError: (message: string, error: unknown) => void;
  /** The spec model: with `selfCheck`, every answer of an operation is checked against it. */
  model?: SpecModel;
  selfCheck?: boolean;
  /** Cross-origin access (cors.ts): `true` for any origin, or a list of origins. Off by default. */
  cors?: CorsOption;
  /** Origins allowed to call the control routes cross-origin (never implied by `cors`). */
  corsControl?: CorsOption;
  /** The Host and cross-site checks of the control routes (guard.ts); off for the MSW handlers. */
  guard?: ControlGuardOptions;
  /** Transport faults (faults.ts); a new empty set unless given. */
  faults?: Faults;
  /** The node:http server's timeouts (TIMEOUTS unless given). */
  timeouts?: Partial<Timeouts>;
}

export type Timeouts = { -readonly [K in keyof typeof TIMEOUTS]: number };

/** Timeouts of the node:http server (milliseconds). */
export const TIMEOUTS = {
  /** Whole request headers must arrive within this. */
  headers: 10_000,
  /** The whole request (headers and body) must arrive within this. */
  request: 30_000,
  /** An idle keep-alive connection is closed after this. */
  keepAlive: 5_000,
  /** A connection with no traffic either way (a client that stopped reading included) is closed after this. */
  idle: 30_000,
  /** SIGTERM / stop(): in-flight requests get this long to finish. */
  drain: 5_000,
} as const;

const FAULT_HEADER = 'x-sandbox-fault';

/** One matched request, as the route runners get it. */
interface Incoming {
  req: IncomingMessage;
  params: Record<string, string | undefined>;
  query: Record<string, unknown>;
  body: unknown;
}

/** What the router stores per route: whether it reads a body, and what runs it. */
interface Route {
  /** The operation (undefined for control routes). */
  operationId?: string;
  /** false for operations without a requestBody: whatever body arrives is ignored. */
  acceptsBody: boolean;
  /** The request media types the operation declares (`application/json`, form). */
  mediaTypes: readonly string[];
  /** Status of a result that names none (the spec's success status). */
  successStatus: number;
  /** A control route: the guard (Host, cross-site requests) runs before its body is read. */
  control?: boolean;
  /** The spec's path template (operations). */
  path?: string;
  /** The envelope to send (or a raw answer); may throw an ApiError. */
  run(incoming: Incoming): JsonResult<OperationId> | RawResult | Promise<JsonResult<OperationId> | RawResult>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

type Headers = Record<string, string | number>;
/** One answer, before it is sent. */
interface Answer {
  status: number;
  headers: Headers;
  body: string | Buffer | undefined;
}

function jsonAnswer(status: number, payload: unknown, extra?: Headers): Answer {
  const body = JSON.stringify(payload);
  const headers: Headers = { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) };
  if (extra) Object.assign(headers, extra);
  return { status, headers, body };
}

/** RFC 6750 section 3: a 401 names the scheme; `invalid_token` when a token was sent. */
function errorAnswer(error: ApiError, tokenSent: boolean): Answer {
  const extra: Headers | undefined =
    error.status === 401 ? { 'www-authenticate': tokenSent ? 'Bearer error="invalid_token"' : 'Bearer' } : undefined;
  return jsonAnswer(error.status, envelopeOf(error), extra);
}

/** The answer of a handler's result: the success envelope, or a raw answer. */
function answerOf(successStatus: number, result: JsonResult<OperationId> | RawResult): Answer {
  if ('raw' in result) {
    const status = result.status ?? successStatus;
    const headers: Headers = { ...result.headers };
    if (status === 204 || status === 304 || status < 200) return { status, headers, body: undefined };
    const body = result.body ?? '';
    headers['content-type'] =
      result.contentType ?? (typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream');
    headers['content-length'] = Buffer.byteLength(body);
    return { status, headers, body };
  }
  const envelope: Record<string, unknown> = {
    message: result.message ?? 'Success',
    data: result.data,
    errors: null,
  };
  if (result.page) envelope.page = result.page;
  return jsonAnswer(result.status ?? successStatus, envelope);
}

export interface SandboxServer {
  /** The server's request listener: every answer comes from here (msw.ts calls it directly). */
  handle(req: IncomingMessage, res: ServerResponse): void;
  listen(port: number, host: string): Promise<number>;
  /** Stops accepting connections; in-flight requests get up to `drainMs` (default none) to finish. */
  close(drainMs?: number): Promise<void>;
  faults: Faults;
  /** The operationIds of the spec. */
  operationIds: Set<string>;
}

export function buildServer(options: ServerOptions): SandboxServer {
  const { rt, operations, handlers, validators, onError } = options;
  if (options.selfCheck && !options.model) throw new Error('selfCheck needs the spec model');
  // The response self-check (`selfCheck: true`, CLI `--self-check`): every answer of an operation
  // is checked against the spec before it is sent (status, Content-Type, required headers, JSON
  // body against its schema: @hosting-api/openapi/check). An answer that fails is replaced by a 500
  // envelope listing the problems, and onError is called: loud in tests and in the contract gate.
  // Off by default (it costs time per request).
  const check = options.selfCheck ? createCheck(options.model!).response : null;

  /** Sends an answer; with the self-check on, an answer of an operation is checked first. */
  const send = (res: ServerResponse, answer: Answer, operationId?: string) => {
    if (check && operationId) {
      const problems = check(operationId, answer.status, answer.headers, answer.body);
      if (problems.length) {
        onError('self-check: an answer the spec does not document', new Error(problems.join('\n')));
        answer = jsonAnswer(500, {
          message: MESSAGES.internal,
          data: null,
          errors: problems.map((p) => `sandbox self-check: ${p} (original status ${answer.status})`),
        });
      }
    }
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  };

  const fail = (res: ServerResponse, error: unknown, route?: Route) => {
    if (res.headersSent) {
      onError('request failed after its answer started', error);
      res.destroy();
      return;
    }
    if (error instanceof ApiError)
      return send(res, errorAnswer(error, res.req.headers.authorization !== undefined), route?.operationId);
    onError('request failed', error);
    send(res, jsonAnswer(500, { message: MESSAGES.internal, data: null, errors: null }), route?.operationId);
  };

  const router = FindMyWay({
    // A path whose percent-encoding cannot be decoded names no resource: a 404, as an unknown id
    // (every operation with a path parameter documents 404).
    onBadUrl: (_path, _req, res) => fail(res as ServerResponse, notFound()),
  });

  // Every way out of a request ends in send() through respond or fail: an error anywhere (a bug
  // included) is an answer, never an uncaught exception or an unhandled rejection.
  /** A handler's result: without the self-check, an envelope goes out directly (the hot path). */
  const respond = (res: ServerResponse, route: Route, result: JsonResult<OperationId> | RawResult) => {
    if (check === null && !('raw' in result)) {
      const body = JSON.stringify(
        result.page
          ? { message: result.message ?? 'Success', data: result.data, errors: null, page: result.page }
          : { message: result.message ?? 'Success', data: result.data, errors: null },
      );
      // writeHead then end(body): node:http sends the head and the body in one write. (An object,
      // not a flat list: msw.ts's stand-in response takes an object, and the list saved < 0.5%.)
      res.writeHead(result.status ?? route.successStatus, {
        'content-type': JSON_TYPE,
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
      return;
    }
    send(res, answerOf(route.successStatus, result), route.operationId);
  };

  const run = (route: Route, res: ServerResponse, incoming: Incoming) => {
    try {
      const out = route.run(incoming);
      if (out instanceof Promise) {
        out.then((result) => respond(res, route, result)).catch((error: unknown) => fail(res, error, route));
      } else respond(res, route, out);
    } catch (error) {
      fail(res, error, route);
    }
  };

  const faults = options.faults ?? new Faults();
  const guard = options.guard ? controlGuard({ ...options.guard, origins: options.corsControl }) : null;

  /** An injected fault (faults.ts): a status answer marked as injected, a dropped connection, no answer. */
  const inject = (rule: FaultRule, route: Route, res: ServerResponse, go: () => void) => {
    if (rule.fault === 'delay') {
      setTimeout(go, rule.delay_ms ?? 1000);
      return;
    }
    res.req.resume();
    if (rule.fault === 'drop') return res.destroy();
    if (rule.fault === 'timeout') return; // no answer: the client's timeout, or the server's, ends it
    const status = rule.status!;
    // The seed's texts where it has one for the status (no node:http here: the browser build has none).
    const message =
      status === 400
        ? MESSAGES.badRequest
        : status === 401
          ? MESSAGES.unauthorized
          : status === 403
            ? MESSAGES.forbidden
            : status === 404
              ? MESSAGES.notFound
              : status === 422
                ? MESSAGES.unprocessable
                : status >= 500
                  ? MESSAGES.internal
                  : 'Injected fault';
    // 204, 205 and 304 carry no content (RFC 9110): the status and the marking header only.
    if (status === 204 || status === 205 || status === 304) {
      res.writeHead(status, { [FAULT_HEADER]: 'injected' });
      return res.end();
    }
    // Sent as is: the self-check does not replace it (the user asked for it); the header marks it.
    const answer = jsonAnswer(
      status,
      {
        message,
        data: null,
        errors: [`sandbox fault: status ${status} injected for ${route.operationId} (rule ${rule.id})`],
      },
      { [FAULT_HEADER]: 'injected' },
    );
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  };

  const dispatch = (req: IncomingMessage, res: ServerResponse) => {
    const found = router.find(req.method as FindMyWay.HTTPMethod, req.url ?? '/');
    if (found === null) return fail(res, notFound());
    const route = found.store as Route | null;
    if (route === null) return (found.handler as (req: IncomingMessage, res: ServerResponse) => void)(req, res);
    if (route.control && guard) {
      const refused = guard(req);
      if (refused) {
        req.resume();
        return fail(res, refused);
      }
    }
    // With no fault set this is one length check.
    if (faults.rules.length !== 0 && route.operationId !== undefined) {
      const rule = faults.pick(route.operationId, req.method!, route.path!, req.url ?? '/');
      if (rule) return inject(rule, route, res, () => proceed(req, res, route, found));
    }
    proceed(req, res, route, found);
  };
  const proceed = (
    req: IncomingMessage,
    res: ServerResponse,
    route: Route,
    found: { params: Record<string, string | undefined>; searchParams: Record<string, unknown> },
  ) => {
    const incoming: Incoming = { req, params: found.params, query: found.searchParams, body: undefined };
    const headers = req.headers;
    // A body is there when a length above 0 or a chunked transfer is announced. An operation
    // without a requestBody ignores whatever arrives (drained unread, whatever its size or type).
    if (
      headers['transfer-encoding'] === undefined &&
      (headers['content-length'] === undefined || headers['content-length'] === '0')
    ) {
      return run(route, res, incoming);
    }
    if (!route.acceptsBody) {
      req.resume();
      return run(route, res, incoming);
    }
    readBody(req, options.bodyLimit, (error, raw) => {
      if (error) return fail(res, error, route);
      try {
        incoming.body = parseBody(route.mediaTypes, headers['content-type'], raw!);
      } catch (parseError) {
        return fail(res, parseError, route);
      }
      run(route, res, incoming);
    });
  };
  const cors =
    options.cors || options.corsControl
      ? corsHandler(
          options.cors ?? [],
          options.corsControl ?? [],
          options.model ? documentedResponseHeaders(options.model) : [],
          routerMethods((method, url) => router.find(method, url)),
        )
      : null;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    try {
      if (cors?.(req, res)) return;
      dispatch(req, res);
    } catch (error) {
      fail(res, error);
    }
  };
  // The node:http server only when listen() is called: MSW (in Node or a page) needs handle() alone.
  let server: http.Server | undefined;
  const nodeServer = () => {
    const t = { ...TIMEOUTS, ...options.timeouts };
    server = http.createServer(
      {
        headersTimeout: t.headers,
        requestTimeout: t.request,
        keepAliveTimeout: t.keepAlive,
        // How often Node checks the headers and request timeouts (its default, 30 s, is longer than they are).
        connectionsCheckingInterval: Math.min(1_000, t.headers),
      },
      handle,
    );
    // A connection with no traffic either way for this long is closed: a client that stopped
    // reading an answer (its socket buffer full) holds nothing longer than that.
    server.setTimeout(t.idle, (socket) => socket.destroy());
    // A request Node cannot parse as HTTP still gets the envelope (then the connection closes).
    server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
      if (!socket.writable || error.code === 'ECONNRESET') return socket.destroy();
      const body = JSON.stringify(envelopeOf(badRequest(`malformed HTTP request (${error.code ?? error.message})`)));
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    });
    return server;
  };

  // Queued work that fell due since the last request happens before this one is answered: every
  // API route and control route starts with rt.clock.runDue().
  for (const op of operations) {
    const handler = handlers[op.operationId as OperationId] as ((ctx: RequestCtx<OperationId>) => unknown) | undefined;
    const opValidators = validators[op.operationId];
    const route: Route = {
      operationId: op.operationId,
      acceptsBody: op.hasBody,
      mediaTypes: op.bodyContentTypes,
      successStatus: op.successStatus,
      run: ({ req, params, query, body }) => {
        rt.clock.runDue();
        let token: TokenRecord | null = null;
        if (op.requiresToken) {
          const value = bearer(req);
          if (!value) throw unauthorized('Send Authorization: Bearer <ACCESS_TOKEN>.');
          const checked = rt.tokens.check(value, rt.clock.now());
          if (typeof checked === 'string') throw unauthorized(checked);
          token = checked;
          const missing = missingScopes(op.requiredScopes, checked.scopes);
          if (missing) throw forbidden(`The access token lacks the ${missing.join(', ')} scope.`);
        }
        const input = validateRequest(op, opValidators, params as Record<string, string>, query, body);
        if (!handler) {
          throw new ApiError(501, MESSAGES.notImplemented, [
            `${op.operationId} (${op.method} ${op.path}) is not implemented in the sandbox yet.`,
          ]);
        }
        // Handlers are synchronous (AREAS.md): each request reads and writes the state in one
        // stretch that no other request can interleave, so limits hold across sites without a lock.
        const out = handler(new RequestCtx(rt, op.operationId as OperationId, req, token, input)) as
          | JsonResult<OperationId>
          | RawResult;
        if (typeof (out as { then?: unknown }).then === 'function') {
          throw new Error(
            `the handler of ${op.operationId} returned a promise: handlers must stay synchronous (AREAS.md)`,
          );
        }
        return out;
      },
    };
    route.path = op.path;
    router.on(op.method, (op.root === 'v1' ? '/v1' : '') + toRoutePath(op.path), noop, route);
  }
  const webhookEvents = Object.keys((options.model?.document as { webhooks?: object } | undefined)?.webhooks ?? {});
  for (const [method, path, fn] of controlRoutes({ ...options, faults, webhookEvents })) {
    router.on(method, path, noop, {
      control: true,
      acceptsBody: true,
      mediaTypes: ['application/json'],
      successStatus: 200,
      run: (incoming: Incoming) => {
        rt.clock.runDue();
        const out = fn(incoming);
        return out instanceof Promise ? out.then(ok) : ok(out);
      },
    } satisfies Route);
  }

  return {
    handle,
    faults,
    operationIds: new Set(operations.map((op) => op.operationId)),
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        const listening = server ?? nodeServer();
        listening.once('error', reject);
        listening.listen(port, host, () => {
          listening.off('error', reject);
          const address = listening.address();
          resolve(typeof address === 'object' && address ? address.port : port);
        });
      }),
    // Idle keep-alive connections are closed at once: stop() must not wait for clients to hang up.
    // Requests in flight get `drainMs` to finish (their connections close after the answer), then
    // every connection is closed.
    close: (drainMs = 0) =>
      new Promise<void>((resolve, reject) => {
        if (!server) return resolve();
        const timer = setTimeout(() => server?.closeAllConnections(), drainMs);
        server.close((error) => {
          clearTimeout(timer);
          if (error) reject(error);
          else resolve();
        });
        server.closeIdleConnections();
        if (drainMs <= 0) server.closeAllConnections();
      }),
  };
}

const noop = () => {};
const ok = (data: unknown): JsonResult<OperationId> => ({ data: data as never });
