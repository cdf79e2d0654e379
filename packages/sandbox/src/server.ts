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
import { RequestCtx, type AreaHandlers, type JsonResult, type RawResult } from './area.js';
import type { TokenRecord } from './auth.js';
import { ApiError, MESSAGES, badRequest, envelopeOf, forbidden, notFound, unauthorized } from './errors.js';
import type { SandboxRuntime } from './runtime.js';
import { toRoutePath, type SpecOperation } from './spec.js';
import { fixtureProblems, type SandboxState } from './state.js';
import type { OperationId } from './types.js';
import { validateRequest, type ValidatorMap } from './validation.js';

export interface ServerOptions {
  rt: SandboxRuntime;
  operations: SpecOperation[];
  handlers: AreaHandlers;
  validators: ValidatorMap;
  bodyLimit: number;
  onError: (message: string, error: unknown) => void;
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
  /** false for operations without a requestBody: whatever body arrives is ignored. */
  acceptsBody: boolean;
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

function sendJson(res: ServerResponse, status: number, payload: unknown): void {
  const body = JSON.stringify(payload);
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** The reply of a handler's result: the success envelope, or a raw answer. */
function respond(res: ServerResponse, successStatus: number, result: JsonResult<OperationId> | RawResult): void {
  if ('raw' in result) {
    const status = result.status ?? successStatus;
    const headers: Record<string, string | number> = { ...result.headers };
    if (status === 204 || status === 304 || status < 200) {
      res.writeHead(status, headers);
      res.end();
      return;
    }
    const body = result.body ?? '';
    headers['content-type'] = result.contentType ?? (typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream');
    headers['content-length'] = Buffer.byteLength(body);
    res.writeHead(status, headers);
    res.end(body);
    return;
  }
  const envelope: Record<string, unknown> = {
    message: result.message ?? 'Success',
    data: result.data,
    errors: null,
  };
  if (result.page) envelope.page = result.page;
  sendJson(res, result.status ?? successStatus, envelope);
}

/** `application/json; charset=utf-8` → `application/json`. */
function mediaType(header: string | undefined): string {
  if (header === undefined) return '';
  const semicolon = header.indexOf(';');
  return (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
}

const JSON_SUFFIX = /^application\/[\w.+-]*\+json$/;

/**
 * The body by its Content-Type: JSON and form-encoded (the seed uses both); anything else is a
 * 400. A route without a requestBody ignores whatever arrives (never a 400 for it).
 */
function parseBody(route: Route, contentType: string | undefined, raw: Buffer): unknown {
  const type = mediaType(contentType);
  if (type === 'application/json' || JSON_SUFFIX.test(type)) {
    const text = raw.toString();
    try {
      return JSON.parse(text);
    } catch (error) {
      if (!route.acceptsBody || text.trim() === '') return undefined;
      throw badRequest(`body: malformed JSON (${(error as Error).message})`);
    }
  }
  if (!route.acceptsBody || raw.length === 0) return undefined;
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(raw.toString()));
  throw badRequest(
    `Content-Type ${contentType ?? '(none)'} is not supported: send application/json or application/x-www-form-urlencoded`,
  );
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

  const fail = (res: ServerResponse, error: unknown) => {
    if (res.headersSent) {
      onError('request failed after its answer started', error);
      res.destroy();
      return;
    }
    if (error instanceof ApiError) return sendJson(res, error.status, envelopeOf(error));
    onError('request failed', error);
    sendJson(res, 500, { message: MESSAGES.internal, data: null, errors: null });
  };

  const router = FindMyWay({
    // A path whose percent-encoding cannot be decoded: a 400 (store null marks it).
    onBadUrl: (path, _req, res) => fail(res as ServerResponse, badRequest(`the path ${path} is not a valid URL path`)),
  });

  // Every way out of a request ends in respond() or fail(): an error anywhere (a bug included) is
  // an answer, never an uncaught exception or an unhandled rejection that would stop the sandbox.
  const run = (route: Route, res: ServerResponse, incoming: Incoming) => {
    try {
      const out = route.run(incoming);
      if (out instanceof Promise) {
        out.then((result) => respond(res, route.successStatus, result)).catch((error: unknown) => fail(res, error));
      } else respond(res, route.successStatus, out);
    } catch (error) {
      fail(res, error);
    }
  };

  const dispatch = (req: IncomingMessage, res: ServerResponse) => {
    const found = router.find(req.method as FindMyWay.HTTPMethod, req.url ?? '/');
    if (found === null) return fail(res, notFound());
    const route = found.store as Route | null;
    if (route === null) return (found.handler as (req: IncomingMessage, res: ServerResponse) => void)(req, res);
    const incoming: Incoming = { req, params: found.params, query: found.searchParams, body: undefined };
    const headers = req.headers;
    // A body is there when a length above 0 or a chunked transfer is announced.
    if (headers['transfer-encoding'] === undefined && (headers['content-length'] === undefined || headers['content-length'] === '0')) {
      return run(route, res, incoming);
    }
    readBody(req, options.bodyLimit, (error, raw) => {
      if (error) return fail(res, error);
      try {
        incoming.body = parseBody(route, headers['content-type'], raw!);
      } catch (parseError) {
        return fail(res, parseError);
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
      acceptsBody: op.hasBody,
      successStatus: op.successStatus,
      // Synchronous unless the area handler (or a queued write to the same site) is async: most
      // requests are answered without a promise in between.
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
        const ctx = new RequestCtx(rt, op.operationId as OperationId, req, token, input);
        // Writes to one site (or to the account) are serialised: no lost updates, limits hold.
        const siteId = input.params.site_id;
        return (op.method === 'GET' ? handler(ctx) : rt.locks.run(siteId ? `site:${siteId}` : 'account', handler, ctx)) as
          | JsonResult<OperationId>
          | RawResult
          | Promise<JsonResult<OperationId> | RawResult>;
      },
    };
    router.on(op.method, (op.root === 'v1' ? '/v1' : '') + toRoutePath(op.path), noop, route);
  }
  for (const [method, path, fn] of controlRoutes(options)) {
    router.on(method, path, noop, {
      acceptsBody: true,
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
