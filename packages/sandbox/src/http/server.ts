// The HTTP server: every operation of the spec as a route (501 until an area implements it),
// auth and scopes, validation, the error envelope for every failure, and the control routes
// under /__sandbox.
//
// Plain node:http with find-my-way (the router Fastify uses), not Fastify itself: on the
// benchmark's POST route Fastify's own per-request work (hooks, reply object, content-type parser
// in an async resource) cost more than issue 7's target (0.6x a bare node:http server) leaves for
// the sandbox. What Fastify did for us is here, in a few functions: routing, query parsing, body
// limit and content types, the error envelope, closing open connections on stop.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import FindMyWay from 'find-my-way';
import { RequestCtx, type AreaHandlers, type JsonResult, type RawResult } from '../domain/area.js';
import type { TokenRecord } from '../domain/tokens.js';
import { ApiError, MESSAGES, badRequest, envelopeOf, forbidden, notFound, unauthorized } from '../domain/errors.js';
import type { SandboxRuntime } from '../domain/runtime.js';
import { toRoutePath, type SpecOperation } from './spec.js';
import { createSelfCheck } from './self-check.js';
import { fixtureProblems } from '../domain/fixture.js';
import type { SandboxState } from '../domain/state.js';
import type { OperationId } from '../domain/types.js';
import { validateRequest, type ValidatorMap } from './validation.js';

export interface ServerOptions {
  rt: SandboxRuntime;
  operations: SpecOperation[];
  handlers: AreaHandlers;
  validators: ValidatorMap;
  bodyLimit: number;
  onError: (message: string, error: unknown) => void;
  /** The bundled spec: with `selfCheck`, every answer of an operation is checked against it. */
  spec?: Record<string, any>;
  selfCheck?: boolean;
}

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
  /** The envelope to send (or a raw answer); may throw an ApiError. */
  run(incoming: Incoming): JsonResult<OperationId> | RawResult | Promise<JsonResult<OperationId> | RawResult>;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const PLAIN_BEARER = /^Bearer [^\s]+$/;

function bearer(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  // The usual `Bearer <token>` without a capture (a slice is cheaper); the regex for the rest.
  if (PLAIN_BEARER.test(header)) return header.slice(7);
  const match = BEARER.exec(header);
  return match?.[1] ?? null;
}

/** The lacking scopes, or null (no array on the usual path). */
function missingScopes(required: readonly string[], granted: readonly string[]): string[] | null {
  let missing: string[] | null = null;
  for (const scope of required) if (!granted.includes(scope)) (missing ??= []).push(scope);
  return missing;
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
    headers['content-type'] = result.contentType ?? (typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream');
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

/** `application/json; charset=utf-8` → `application/json`. */
function mediaType(header: string | undefined): string {
  if (header === undefined) return '';
  const semicolon = header.indexOf(';');
  return (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
}

/**
 * The body by its Content-Type, which must be one the operation declares (JSON, or form-encoded
 * for the token operations); anything else is a 400. Only routes that take a body get here.
 */
function parseBody(route: Route, contentType: string | undefined, raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  const type = mediaType(contentType);
  if (!route.mediaTypes.includes(type)) {
    throw badRequest(`Content-Type ${contentType ?? '(none)'} is not accepted here: send ${route.mediaTypes.join(' or ')}`);
  }
  if (type === 'application/json') {
    const text = raw.toString();
    if (text.trim() === '') return undefined;
    try {
      return JSON.parse(text);
    } catch (error) {
      throw badRequest(`body: malformed JSON (${(error as Error).message})`);
    }
  }
  return Object.fromEntries(new URLSearchParams(raw.toString()));
}

/** Reads the request body (any method: two GETs of the spec take one), at most `limit` bytes. */
function readBody(req: IncomingMessage, limit: number, done: (error: ApiError | null, raw?: Buffer) => void): void {
  const tooLarge = () => badRequest(`body: larger than the ${limit} bytes allowed`);
  if (Number(req.headers['content-length']) > limit) {
    req.resume();
    return done(tooLarge());
  }
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  let size = 0;
  let failed = false;
  req.on('data', (chunk: Buffer) => {
    if (failed) return;
    size += chunk.length;
    if (size > limit) {
      failed = true;
      return done(tooLarge());
    }
    if (first === undefined) first = chunk;
    else (more ??= [first]).push(chunk);
  });
  req.on('end', () => {
    if (!failed) done(null, more ? Buffer.concat(more, size) : (first ?? Buffer.alloc(0)));
  });
  // A client that goes away mid-body gets no answer; nothing else to do.
  req.on('error', () => {});
}

export interface SandboxServer {
  server: http.Server;
  listen(port: number, host: string): Promise<number>;
  close(): Promise<void>;
}

export function buildServer(options: ServerOptions): SandboxServer {
  const { rt, operations, handlers, validators, onError } = options;
  if (options.selfCheck && !options.spec) throw new Error('selfCheck needs the spec');
  const check = options.selfCheck ? createSelfCheck(options.spec!) : null;

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
    if (error instanceof ApiError) return send(res, errorAnswer(error, res.req.headers.authorization !== undefined), route?.operationId);
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
  const run = (route: Route, res: ServerResponse, incoming: Incoming) => {
    try {
      const out = route.run(incoming);
      if (out instanceof Promise) {
        out
          .then((result) => send(res, answerOf(route.successStatus, result), route.operationId))
          .catch((error: unknown) => fail(res, error, route));
      } else send(res, answerOf(route.successStatus, out), route.operationId);
    } catch (error) {
      fail(res, error, route);
    }
  };

  const dispatch = (req: IncomingMessage, res: ServerResponse) => {
    const found = router.find(req.method as FindMyWay.HTTPMethod, req.url ?? '/');
    if (found === null) return fail(res, notFound());
    const route = found.store as Route | null;
    if (route === null) return (found.handler as (req: IncomingMessage, res: ServerResponse) => void)(req, res);
    const incoming: Incoming = { req, params: found.params, query: found.searchParams, body: undefined };
    const headers = req.headers;
    // A body is there when a length above 0 or a chunked transfer is announced. An operation
    // without a requestBody ignores whatever arrives (drained unread, whatever its size or type).
    if (headers['transfer-encoding'] === undefined && (headers['content-length'] === undefined || headers['content-length'] === '0')) {
      return run(route, res, incoming);
    }
    if (!route.acceptsBody) {
      req.resume();
      return run(route, res, incoming);
    }
    readBody(req, options.bodyLimit, (error, raw) => {
      if (error) return fail(res, error, route);
      try {
        incoming.body = parseBody(route, headers['content-type'], raw!);
      } catch (parseError) {
        return fail(res, parseError, route);
      }
      run(route, res, incoming);
    });
  };
  const server = http.createServer((req, res) => {
    try {
      dispatch(req, res);
    } catch (error) {
      fail(res, error);
    }
  });
  // A request Node cannot parse as HTTP still gets the envelope (then the connection closes).
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') return socket.destroy();
    const body = JSON.stringify(envelopeOf(badRequest(`malformed HTTP request (${error.code ?? error.message})`)));
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });

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
          throw new Error(`the handler of ${op.operationId} returned a promise: handlers must stay synchronous (AREAS.md)`);
        }
        return out;
      },
    };
    router.on(op.method, (op.root === 'v1' ? '/v1' : '') + toRoutePath(op.path), noop, route);
  }
  for (const [method, path, fn] of controlRoutes(options)) {
    router.on(method, path, noop, {
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

  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return {
    server,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const address = server.address();
          resolve(typeof address === 'object' && address ? address.port : port);
        });
      }),
    // Open keep-alive connections are closed too: stop() must not wait for clients to hang up.
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        for (const socket of sockets) socket.destroy();
      }),
  };
}

const noop = () => {};
const ok = (data: unknown): JsonResult<OperationId> => ({ data: data as never });

type ControlRoute = [method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, run: (incoming: Incoming) => unknown];

/** Routes outside the API that let tests drive the sandbox; each answers `{message, data, errors}`. */
function controlRoutes({ rt, operations, handlers }: ServerOptions): ControlRoute[] {
  const clockView = () => ({
    now: rt.clock.nowIso(),
    speed: rt.clock.speed,
    pending: rt.clock.pending().map((t) => ({ label: t.label, due: new Date(t.due).toISOString() })),
  });
  return [
    [
      'POST',
      '/__sandbox/reset',
      () => {
        rt.reset();
        return null;
      },
    ],
    ['GET', '/__sandbox/clock', clockView],
    // Body: {"advance_ms": 30000} or {"advance": "30s"} (ms, s, m, h, d) or {"to": "<ISO time>"}.
    [
      'POST',
      '/__sandbox/clock',
      ({ body: raw }) => {
        const body = (raw ?? {}) as Record<string, unknown>;
        let ms: number | undefined;
        if (typeof body.advance_ms === 'number') ms = body.advance_ms;
        else if (typeof body.advance === 'string') ms = parseDuration(body.advance);
        else if (typeof body.to === 'string') ms = Date.parse(body.to) - rt.clock.now();
        if (ms === undefined || !Number.isFinite(ms) || ms < 0) {
          throw badRequest('send {"advance_ms": <ms>}, {"advance": "30s"} or {"to": "<ISO time in the future>"}');
        }
        rt.clock.advance(ms);
        return clockView();
      },
    ],
    [
      'GET',
      '/__sandbox/webhooks',
      async () => {
        await rt.settle();
        return rt.webhooks;
      },
    ],
    [
      'DELETE',
      '/__sandbox/webhooks',
      () => {
        rt.webhooks = [];
        return null;
      },
    ],
    ['GET', '/__sandbox/state', () => rt.state],
    [
      'PUT',
      '/__sandbox/state',
      ({ body }) => {
        refuseProtoKeys(body);
        const problems = fixtureProblems(body);
        if (problems.length) throw badRequest(...problems);
        rt.reset(structuredClone(body) as SandboxState);
        return null;
      },
    ],
    // JSON merge patch (RFC 7386) of the state, e.g. {"account": {"highTrafficPlan": false}}:
    // objects merge, anything else (arrays included) replaces, null deletes a key.
    [
      'PATCH',
      '/__sandbox/state',
      ({ body: patch }) => {
        if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
          throw badRequest('send a JSON object (a merge patch of the state, e.g. {"account": {"highTrafficPlan": false}})');
        }
        refuseProtoKeys(patch);
        const problems = fixtureProblems(mergePatch(structuredClone(rt.state), patch));
        if (problems.length) throw badRequest(...problems);
        // In place: the state stays the same object, so queued work still applies to it.
        mergePatch(rt.state, patch);
        return null;
      },
    ],
    [
      'GET',
      '/__sandbox/operations',
      () =>
        operations.map((op) => ({
          operationId: op.operationId,
          method: op.method,
          path: op.path,
          implemented: Boolean(handlers[op.operationId as OperationId]),
        })),
    ],
  ];
}

/**
 * A `__proto__` key (JSON.parse keeps it as an own key) would reach Object.prototype through a
 * merge: refused anywhere in a state or patch, with its path.
 */
function refuseProtoKeys(value: unknown, path = 'body'): void {
  if (typeof value !== 'object' || value === null) return;
  for (const key of Object.keys(value)) {
    if (key === '__proto__') throw badRequest(`${path}.__proto__: not allowed (a state has no such key)`);
    refuseProtoKeys((value as Record<string, unknown>)[key], `${path}.${key}`);
  }
}

function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target) ? (target as Record<string, unknown>) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) return undefined;
  const unit = { ms: 1, s: 1e3, m: 6e4, h: 3.6e6, d: 8.64e7 }[match[2] as 'ms' | 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}
