// The Fastify app: every operation of the spec as a route (501 until an area implements it),
// auth and scopes, validation, the error envelope for everything Fastify itself rejects, and
// the control routes under /__sandbox.
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
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

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const PLAIN_BEARER = /^Bearer [^\s]+$/;

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
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

/** The reply of a handler's result: the success envelope, or a raw answer. */
function respond(reply: FastifyReply, op: SpecOperation, result: JsonResult<OperationId> | RawResult) {
  if ('raw' in result) {
    reply.code(result.status ?? op.successStatus);
    if (result.headers) reply.headers(result.headers);
    if (result.contentType) reply.type(result.contentType);
    return reply.send(result.body ?? '');
  }
  const envelope: Record<string, unknown> = {
    message: result.message ?? 'Success',
    data: result.data,
    errors: null,
  };
  if (result.page) envelope.page = result.page;
  return reply.code(result.status ?? op.successStatus).send(envelope);
}

export function buildServer(options: ServerOptions): FastifyInstance {
  const { rt, operations, handlers, validators, onError } = options;
  const app = Fastify({ logger: false, bodyLimit: options.bodyLimit, forceCloseConnections: true });
  // Two GETs of the spec take a JSON body (the log reads): Fastify treats GET as bodyless unless
  // told otherwise. Routes whose operation declares no requestBody ignore any body sent.
  app.addHttpMethod('GET', { hasBody: true, overrideExisting: true });

  // Bodies: JSON and form-encoded (the seed uses both); anything else is a 400.
  app.removeAllContentTypeParsers();
  /** Operations without a requestBody ignore whatever body arrives (it is never parsed). */
  const ignoresBody = (req: FastifyRequest) => (req.routeOptions.config as { acceptsBody?: boolean }).acceptsBody === false;
  // Whether the route ignores bodies is only asked when a body fails to parse: `routeOptions`
  // builds an object on every read, and a parsed body of such a route is dropped by validation.
  const parseJson = (req: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
    const text = String(body);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      if (ignoresBody(req) || text.trim() === '') return done(null, undefined);
      return done(badRequest(`body: malformed JSON (${(error as Error).message})`), undefined);
    }
    done(null, parsed);
  };
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJson);
  app.addContentTypeParser(/^application\/[\w.+-]*\+json$/, { parseAs: 'string' }, parseJson);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (req, body, done) => {
    if (ignoresBody(req)) return done(null, undefined);
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (req, body, done) => {
    if ((body as Buffer).length === 0 || ignoresBody(req)) return done(null, undefined);
    done(
      badRequest(
        `Content-Type ${req.headers['content-type'] ?? '(none)'} is not supported: send application/json or application/x-www-form-urlencoded`,
      ),
      undefined,
    );
  });

  app.setErrorHandler((error: FastifyError | ApiError, _request, reply) => {
    if (error instanceof ApiError) return reply.code(error.status).send(envelopeOf(error));
    const status = (error as FastifyError).statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const detail =
        error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? `body: larger than the ${options.bodyLimit} bytes allowed`
          : error.message;
      return reply.code(400).send(envelopeOf(badRequest(detail)));
    }
    onError('request failed', error);
    return reply.code(500).send({ message: MESSAGES.internal, data: null, errors: null });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send(envelopeOf(notFound())));

  // Queued work that fell due since the last request happens before this one is answered: every
  // API handler and control route starts with rt.clock.runDue() (cheaper than a hook).

  for (const op of operations) {
    const run = handlers[op.operationId as OperationId] as ((ctx: RequestCtx<OperationId>) => unknown) | undefined;
    const url = (op.root === 'v1' ? '/v1' : '') + toRoutePath(op.path);
    const opValidators = validators[op.operationId];
    app.route({
      method: op.method,
      url,
      config: { acceptsBody: op.hasBody },
      // Synchronous unless the area handler (or a queued write to the same site) is async: most
      // requests are answered without a promise in between (Fastify catches a thrown ApiError
      // either way).
      handler: (request: FastifyRequest, reply: FastifyReply) => {
        rt.clock.runDue();
        let token: TokenRecord | null = null;
        if (op.requiresToken) {
          const value = bearer(request);
          if (!value) throw unauthorized('Send Authorization: Bearer <ACCESS_TOKEN>.');
          const checked = rt.tokens.check(value, rt.clock.now());
          if (typeof checked === 'string') throw unauthorized(checked);
          token = checked;
          const missing = missingScopes(op.requiredScopes, checked.scopes);
          if (missing) throw forbidden(`The access token lacks the ${missing.join(', ')} scope.`);
        }
        const input = validateRequest(op, opValidators, request.params as Record<string, string>, request.query as Record<string, unknown> | undefined, request.body);
        if (!run) {
          throw new ApiError(501, MESSAGES.notImplemented, [
            `${op.operationId} (${op.method} ${op.path}) is not implemented in the sandbox yet.`,
          ]);
        }
        const ctx = new RequestCtx(rt, op.operationId as OperationId, request, token, input);
        // Writes to one site (or to the account) are serialised: no lost updates, limits hold.
        const siteId = input.params.site_id;
        const out = op.method === 'GET' ? run(ctx) : rt.locks.run(siteId ? `site:${siteId}` : 'account', run, ctx);
        return out instanceof Promise
          ? out.then((result) => respond(reply, op, result as JsonResult<OperationId> | RawResult))
          : respond(reply, op, out as JsonResult<OperationId> | RawResult);
      },
    });
  }

  registerControlRoutes(app, options);
  return app;
}

function registerControlRoutes(root: FastifyInstance, options: ServerOptions) {
  // A scope of their own, so their hook (due work runs first: what they show is up to date) does
  // not run for the API routes, which call runDue themselves.
  root.register(async (app) => {
    app.addHook('onRequest', (_request, _reply, done) => {
      options.rt.clock.runDue();
      done();
    });
    controlRoutes(app, options);
  });
}

function controlRoutes(app: FastifyInstance, { rt, operations, handlers }: ServerOptions) {
  const ok = (data: unknown) => ({ message: 'Success', data, errors: null });
  const clockView = () => ({
    now: rt.clock.nowIso(),
    speed: rt.clock.speed,
    pending: rt.clock.pending().map((t) => ({ label: t.label, due: new Date(t.due).toISOString() })),
  });

  app.post('/__sandbox/reset', async () => {
    rt.reset();
    return ok(null);
  });
  app.get('/__sandbox/clock', async () => ok(clockView()));
  // Body: {"advance_ms": 30000} or {"advance": "30s"} (ms, s, m, h, d) or {"to": "<ISO time>"}.
  app.post('/__sandbox/clock', async (request) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    let ms: number | undefined;
    if (typeof body.advance_ms === 'number') ms = body.advance_ms;
    else if (typeof body.advance === 'string') ms = parseDuration(body.advance);
    else if (typeof body.to === 'string') ms = Date.parse(body.to) - rt.clock.now();
    if (ms === undefined || !Number.isFinite(ms) || ms < 0) {
      throw badRequest('send {"advance_ms": <ms>}, {"advance": "30s"} or {"to": "<ISO time in the future>"}');
    }
    rt.clock.advance(ms);
    return ok(clockView());
  });
  app.get('/__sandbox/webhooks', async () => {
    await rt.settle();
    return ok(rt.webhooks);
  });
  app.delete('/__sandbox/webhooks', async () => {
    rt.webhooks = [];
    return ok(null);
  });
  app.get('/__sandbox/state', async () => ok(rt.state));
  app.put('/__sandbox/state', async (request) => {
    const problems = fixtureProblems(request.body);
    if (problems.length) throw badRequest(...problems);
    rt.reset(structuredClone(request.body) as SandboxState);
    return ok(null);
  });
  // JSON merge patch (RFC 7386) of the state, e.g. {"account": {"highTrafficPlan": false}}:
  // objects merge, anything else (arrays included) replaces, null deletes a key.
  app.patch('/__sandbox/state', async (request) => {
    const patch = request.body;
    if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
      throw badRequest('send a JSON object (a merge patch of the state, e.g. {"account": {"highTrafficPlan": false}})');
    }
    const problems = fixtureProblems(mergePatch(structuredClone(rt.state), patch));
    if (problems.length) throw badRequest(...problems);
    // In place: the state stays the same object, so queued work still applies to it.
    mergePatch(rt.state, patch);
    return ok(null);
  });
  app.get('/__sandbox/operations', async () =>
    ok(
      operations.map((op) => ({
        operationId: op.operationId,
        method: op.method,
        path: op.path,
        implemented: Boolean(handlers[op.operationId as OperationId]),
      })),
    ),
  );
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
