// Programmatic mock: Prism serves the bundled spec on a private port; a small node:http front
// exposes it the way the real service is laid out (`<url>/v1/...` for the API, `<url>/auth/...`
// for the two token operations) and turns Prism's own problem+json answers into the API's
// error envelope.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ReadError, request } from '@hosting-api/openapi/http';
import { limitServer, type ServerTimeouts, serverOptions } from '@hosting-api/openapi/http/server';
import { loadModel, type SpecModel } from '@hosting-api/openapi/model';

const require = createRequire(import.meta.url);

export interface MockOptions {
  /** Port of the front server; 0 picks a free one. Default 4010. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** Generated data instead of the spec's static examples. */
  dynamic?: boolean;
  /** Prism `--errors`: request and response violations answer as errors. */
  errors?: boolean;
  /** The OpenAPI file to serve. Default: HOSTING_API_SPEC or the bundle of @hosting-api/openapi. */
  spec?: string;
  /** Called with one line per request (`GET /v1/sites → 200`). */
  onRequest?: (line: string) => void;
  /** Request body limit in bytes, as the sandbox's (default 1 MiB): a larger body is a 400, answered before it is read. */
  bodyLimit?: number;
  /** The front's timeouts in ms (the sandbox's: headers 10 s, request 30 s, keep-alive 5 s, idle 30 s). */
  timeouts?: Partial<ServerTimeouts>;
  /** Called if Prism exits while the mock runs (not through stop()): from then on every request gets a 502 that says so. */
  onPrismExit?: (message: string) => void;
}

export interface RunningMock {
  /** Root URL; the API base is `${url}/v1`, the auth URL is `url` itself. */
  url: string;
  baseUrl: string;
  authUrl: string;
  stop(): Promise<void>;
}

/** What the front needs from the spec: where the token operations live, and its message texts. */
interface Routes {
  /** Paths of the token operations, served at the auth root outside /v1 (per the spec's servers). */
  authPaths: string[];
  /** `POST /auth/token and POST /auth/revoke`. */
  tokenOperations: string;
  badRequest: string;
  notFound: string;
  /** Each operation's method, path pattern and whether it declares a request body. */
  operations: { method: string; pattern: RegExp; literal: number; takesBody: boolean }[];
}

function routesOf(model: SpecModel): Routes {
  return {
    authPaths: model.authPaths,
    tokenOperations: model.tokenOperations.map((o) => `${o.method.toUpperCase()} ${o.path}`).join(' and '),
    // The shared responses' texts; a spec without them gets the HTTP reason phrase.
    badRequest: model.messages.BadRequest ?? 'Bad Request',
    notFound: model.messages.NotFound ?? 'Not Found',
    operations: model.operations.map((o) => ({
      method: o.method.toUpperCase(),
      pattern: new RegExp(`^${o.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      // A literal segment wins over a parameter (`/sites/search` before `/sites/{site_id}`).
      literal: o.path.replace(/\{[^}]+\}/g, '').length,
      takesBody: Boolean(o.requestBody),
    })),
  };
}

export function defaultSpecPath(): string {
  if (process.env.HOSTING_API_SPEC) return process.env.HOSTING_API_SPEC;
  try {
    return require.resolve('@hosting-api/openapi/openapi.json');
  } catch {
    throw new Error(
      'The bundled spec was not found. Run `pnpm --filter @hosting-api/openapi bundle` (or `pnpm mock` at the root), or set HOSTING_API_SPEC.',
    );
  }
}

export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const spec = options.spec ?? defaultSpecPath();
  if (!existsSync(spec)) {
    throw new Error(`Spec file not found: ${spec}. Run \`pnpm --filter @hosting-api/openapi bundle\` first.`);
  }
  const model = await loadModel(spec);
  const routes = routesOf(model);
  const prism = await startPrism(model.document, options);
  const prismPort = prism.port;
  let stopped: Promise<void> | undefined;
  let prismGone: string | undefined;
  // Set when the mock stops Prism itself (stop(), or a start that failed: a busy port): its exit
  // is then no news, and the caller hears the real reason.
  let stopping = false;
  prism.child.once('exit', (code, signal) => {
    if (stopped || stopping) return;
    prismGone = `Prism, which answers for the mock, exited (${signal ?? `code ${code}`}): restart the mock`;
    options.onPrismExit?.(prismGone);
  });
  const front = http.createServer(
    // The sandbox's header, request, keep-alive and idle timeouts (limitServer below), shared.
    serverOptions(options.timeouts),
    (req, res) => {
      if (prismGone) return send(res, 502, envelope('Mock error', [prismGone]));
      handle(req, res, prismPort, routes, options.onRequest, options.bodyLimit ?? BODY_LIMIT).catch(
        (error: unknown) => {
          if (!res.headersSent) send(res, 502, envelope('Mock error', [String(error)]));
          else res.destroy();
        },
      );
    },
  );
  limitServer(front, options.timeouts);
  // A request Node cannot parse as HTTP (headers too large, say) still gets the envelope, as the sandbox answers it.
  front.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') return socket.destroy();
    const body = JSON.stringify(
      envelope(routes.badRequest, [`malformed HTTP request (${error.code ?? error.message})`]),
    );
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  try {
    await listen(front, options.port ?? 4010, options.host ?? '127.0.0.1');
  } catch (error) {
    stopping = true;
    await prism.stop();
    throw error;
  }
  const address = front.address() as net.AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  return {
    url,
    baseUrl: `${url}/v1`,
    authUrl: url,
    stop() {
      stopped ??= (async () => {
        front.closeAllConnections();
        await new Promise<void>((resolve) => front.close(() => resolve()));
        await prism.stop();
      })();
      return stopped;
    },
  };
}

/** The largest answer of Prism the front reads (the spec's examples are a small fraction of it), and how long it waits. */
const UPSTREAM_MAX_BYTES = 32 * 1024 * 1024;
const SERVER_REQUEST_MS = 30_000;

/** The sandbox's body limit (1 MiB) and JSON nesting limit (64 levels): Prism never sees more. */
export const BODY_LIMIT = 1024 * 1024;
export const MAX_JSON_DEPTH = 64;

async function handle(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  prismPort: number,
  routes: Routes,
  onRequest: ((line: string) => void) | undefined,
  bodyLimit: number,
): Promise<void> {
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', 'http://mock');
  const log = (status: number) => onRequest?.(`${method} ${url.pathname}${url.search} → ${status}`);
  let target: string | undefined;
  if (routes.authPaths.includes(url.pathname)) target = url.pathname;
  else if (url.pathname.startsWith('/v1/') && !routes.authPaths.includes(url.pathname.slice(3))) {
    target = url.pathname.slice(3);
  }
  if (target?.startsWith(PROBE_PREFIX)) target = undefined;
  // Prism exits on a path it cannot percent-decode; such a path names no resource (as in the sandbox).
  if (target !== undefined && !decodable(target)) {
    log(404);
    send(res, 404, envelope(routes.notFound, null));
    return;
  }
  if (target === undefined) {
    const hint = url.pathname.startsWith('/v1')
      ? `The token operations are served at the auth root, outside /v1: ${routes.tokenOperations}.`
      : `API operations are served under /v1 (for example GET /v1/sites); the token operations at ${routes.tokenOperations}.`;
    log(404);
    send(res, 404, envelope(routes.notFound, [`No operation at ${method} ${url.pathname}. ${hint}`]));
    return;
  }
  const body = await readBody(req, bodyLimit);
  if (body === TOO_LARGE) {
    log(400);
    // Answered before the body is read, as the sandbox does: the rest is drained unread (bounded) and
    // the connection stays open until the client has sent it, so the answer is not lost to a reset
    // (closing while the client still writes makes its kernel drop the unread answer).
    drain(req);
    send(res, 400, envelope(routes.badRequest, [`body: larger than the ${bodyLimit} bytes allowed`]));
    return;
  }
  const request = prepareBody(req.headers, body, takesBody(routes, method, target));
  if ('problem' in request) {
    log(400);
    send(res, 400, envelope(routes.badRequest, [request.problem]));
    return;
  }
  // Query values are read leniently (URLSearchParams), as the sandbox reads them; Prism gets them
  // re-encoded when the raw query would not percent-decode.
  const query = decodable(url.search) ? url.search : `?${url.searchParams}`;
  const upstream = await forward(prismPort, method, target + query, request.headers, request.body);
  const rewritten = rewrite(method, url.pathname, upstream, routes);
  log(rewritten.status);
  res.writeHead(rewritten.status, rewritten.headers);
  res.end(rewritten.body);
}

function decodable(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

function takesBody(routes: Routes, method: string, path: string): boolean {
  const matches = routes.operations.filter((o) => o.method === method && o.pattern.test(path));
  return matches.sort((a, b) => b.literal - a.literal)[0]?.takesBody ?? false;
}

/**
 * The body as Prism can take it, read as the sandbox reads it: Prism never answers a malformed
 * JSON body and exits on a malformed form body, so a body the operation does not declare is
 * dropped (ignored, as the sandbox ignores it), malformed JSON is refused here with the sandbox's
 * words, and a form body is re-encoded (decoded leniently, as URLSearchParams does).
 */
function prepareBody(
  headers: http.IncomingHttpHeaders,
  body: Buffer,
  declared: boolean,
): { headers: http.IncomingHttpHeaders; body: Buffer } | { problem: string } {
  const { 'content-length': _length, 'transfer-encoding': _chunked, ...rest } = headers;
  if (!declared) {
    const { 'content-type': _type, ...bodiless } = rest;
    return { headers: bodiless, body: Buffer.alloc(0) };
  }
  const mediaType = String(headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (/^application\/([\w.-]+\+)?json$/.test(mediaType) && body.length) {
    // Prism parses and walks the body recursively: deep nesting would take it down.
    if (nestingExceeds(body.toString('utf8'), MAX_JSON_DEPTH)) {
      return { problem: `body: JSON nested deeper than ${MAX_JSON_DEPTH} levels` };
    }
    try {
      JSON.parse(body.toString('utf8'));
    } catch (error) {
      return { problem: `body: malformed JSON (${(error as Error).message})` };
    }
  }
  if (mediaType === 'application/x-www-form-urlencoded') {
    body = Buffer.from(new URLSearchParams(body.toString('utf8')).toString());
  }
  return { headers: { ...rest, 'content-length': String(body.length) }, body };
}

interface Upstream {
  status: number;
  headers: http.OutgoingHttpHeaders;
  body: Buffer;
}

/** Prism's answer, through the one reader: at most UPSTREAM_MAX_BYTES within the request timeout. */
async function forward(
  port: number,
  method: string,
  path: string,
  headers: http.IncomingHttpHeaders,
  body: Buffer,
): Promise<Upstream> {
  const sent: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) sent[name] = value;
  sent.host = `127.0.0.1:${port}`;
  try {
    const answer = await request(
      `http://127.0.0.1:${port}${path}`,
      { method, headers: sent, body },
      { maxBytes: UPSTREAM_MAX_BYTES, deadline: SERVER_REQUEST_MS },
    );
    return { status: answer.status, headers: answer.headers, body: answer.bytes };
  } catch (error) {
    throw error instanceof ReadError ? new Error(`Prism: ${error.message}`) : error;
  }
}

interface Problem {
  type?: string;
  title?: string;
  detail?: string;
  validation?: { location?: string[]; message?: string }[];
}

interface Violation {
  location?: string[];
  severity?: string;
  message?: string;
}

/** Prism's own answers (problem+json) become the API's envelope; everything else passes as is. */
function rewrite(method: string, path: string, up: Upstream, routes: Routes): Upstream {
  const type = String(up.headers['content-type'] ?? '');
  if (type.includes('application/problem+json')) {
    let problem: Problem = {};
    try {
      problem = JSON.parse(up.body.toString('utf8')) as Problem;
    } catch {
      // keep the empty problem: the status still says what happened
    }
    const kind = (problem.type ?? '').split(/[#/]/).pop() ?? '';
    if (kind === 'NO_PATH_MATCHED_ERROR') {
      return json(up, 404, envelope(routes.notFound, [`No operation at ${method} ${path} in the API description.`]));
    }
    if (kind === 'NO_METHOD_MATCHED_ERROR') {
      return json(
        up,
        405,
        envelope('Method Not Allowed', [`${path} has no ${method} operation in the API description.`]),
      );
    }
    if (up.status === 422 || kind === 'UNPROCESSABLE_ENTITY') {
      const errors = (problem.validation ?? []).map(describe);
      return json(
        up,
        400,
        envelope(routes.badRequest, errors.length ? errors : [problem.detail ?? 'Invalid request.']),
      );
    }
    return prismError(up, routes, [problem.detail || problem.title || kind]);
  }
  // Prism's server answers input it cannot read (a media type parameter it does not know) in a
  // format of its own: `{"error": {"code", "message"}}`.
  if (up.status >= 400 && type.includes('json')) {
    try {
      const body = JSON.parse(up.body.toString('utf8')) as { error?: { message?: string } };
      if (body?.error && typeof body.error === 'object')
        return prismError(up, routes, [body.error.message ?? 'invalid']);
    } catch {
      // not JSON: pass it on unchanged
    }
  }
  // An invalid body gets the spec's own 400 example from Prism; name what was wrong in `errors`.
  if (up.status === 400 && type.includes('application/json')) {
    const violations = parseViolations(up.headers['sl-violations']);
    if (violations.length) {
      try {
        const body = JSON.parse(up.body.toString('utf8')) as Record<string, unknown>;
        if (body && typeof body === 'object' && body.errors === null) {
          body.errors = violations.map(describe);
          return json(up, 400, body);
        }
      } catch {
        // not JSON after all: pass it on unchanged
      }
    }
  }
  return up;
}

/**
 * Prism's own error, as the API's envelope. A 5xx here is Prism failing on the request it was given
 * (a Prefer header it cannot satisfy, a malformed media type): the spec documents no 5xx, and the
 * request is what to fix, so it is a 400.
 */
function prismError(up: Upstream, routes: Routes, errors: string[]): Upstream {
  const status = up.status >= 500 ? 400 : up.status;
  const message =
    status === 400 ? routes.badRequest : status === 404 ? routes.notFound : (http.STATUS_CODES[status] ?? 'Error');
  return json(up, status, envelope(message, errors));
}

function parseViolations(header: http.OutgoingHttpHeader | undefined): Violation[] {
  if (typeof header !== 'string') return [];
  try {
    const list = JSON.parse(header) as Violation[];
    return list.filter((v) => v.severity === 'Error' && v.location?.[0] === 'request');
  } catch {
    return [];
  }
}

function describe(v: { location?: string[]; message?: string }): string {
  const where = (v.location ?? []).filter((p) => p !== 'request').join('.');
  return where ? `${where}: ${v.message ?? 'invalid'}` : (v.message ?? 'invalid');
}

function envelope(message: string, errors: string[] | null) {
  return { message, data: null, errors };
}

function json(up: Upstream, status: number, value: unknown): Upstream {
  const body = Buffer.from(JSON.stringify(value));
  const headers = { ...up.headers, 'content-type': 'application/json', 'content-length': String(body.length) };
  delete headers['transfer-encoding'];
  return { status, headers, body };
}

function send(res: http.ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const TOO_LARGE = Symbol('too large');

/** The body, or TOO_LARGE as soon as it is announced or read past `limit` bytes (nothing more is kept). */
function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer | typeof TOO_LARGE> {
  if (Number(req.headers['content-length']) > limit) return Promise.resolve(TOO_LARGE);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.off('data', onData);
        chunks.length = 0;
        resolve(TOO_LARGE);
        return;
      }
      chunks.push(c);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Reads and drops the rest of a refused body, so the client can read the answer; at most 64 MiB or 10 s. */
function drain(req: http.IncomingMessage): void {
  let left = 64 * 1024 * 1024;
  const timer = setTimeout(() => req.destroy(), 10_000);
  timer.unref();
  req.on('data', (c: Buffer) => {
    left -= c.length;
    if (left < 0) req.destroy();
  });
  req.on('close', () => clearTimeout(timer));
  req.on('error', () => {});
  req.resume();
}

/** Whether JSON text nests arrays and objects deeper than `max` (one pass, strings skipped, no recursion). */
export function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
    } else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`Port ${port} on ${host} is in use. Pick another with --port, or stop what is listening there.`)
          : error,
      );
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface RunningPrism {
  child: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

export interface PrismStartOptions {
  /** Picks the port to try (default: a port the OS reports free). */
  pickPort?: () => Promise<number>;
  /** How many ports to try when the one picked is taken before Prism binds it. Default 5. */
  attempts?: number;
}

/** The path of the readiness probe: only this Prism knows its token. */
const PROBE_PREFIX = '/__hosting-api-mock/ready/';

/**
 * Starts Prism on a private port. A free port can be taken by someone else before Prism binds it
 * (parallel runs): Prism then exits with EADDRINUSE and another port is tried. Prism is ready when it
 * answers an HTTP probe on a path added to its copy of the spec with a random token, so an answer
 * from another server on that port never counts.
 */
export async function startPrism(
  document: object,
  options: Pick<MockOptions, 'dynamic' | 'errors'> = {},
  { pickPort = freePort, attempts = 5 }: PrismStartOptions = {},
): Promise<RunningPrism> {
  const dir = mkdtempSync(join(tmpdir(), 'hosting-api-mock-'));
  // The spec's copy goes with stop(), a failed start, or the process exiting without stop().
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', removeDir);
  const token = randomUUID();
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(withProbe(document, token)));
  try {
    for (let attempt = 1; ; attempt++) {
      const port = await pickPort();
      try {
        const child = await launchPrism(file, port, token, options);
        return {
          child,
          port,
          async stop() {
            await stopChild(child);
            process.off('exit', removeDir);
            removeDir();
          },
        };
      } catch (error) {
        if (!(error instanceof PortTaken) || attempt >= attempts) throw error;
      }
    }
  } catch (error) {
    process.off('exit', removeDir);
    removeDir();
    throw error;
  }
}

class PortTaken extends Error {}

/** The preload of Prism's process (see launchPrism): exit when the parent's end of stdin closes. */
const PARENT_GUARD = `'use strict';
const { rmSync } = require('node:fs');
const { dirname } = require('node:path');
const spec = process.argv[process.argv.indexOf('mock') + 1];
const gone = () => {
  try { if (spec) rmSync(dirname(spec), { recursive: true, force: true }); } catch {}
  process.exit(0);
};
process.stdin.on('end', gone);
process.stdin.on('close', gone);
process.stdin.on('error', gone);
process.stdin.resume();
`;

function withProbe(document: object, token: string): object {
  const doc = document as { paths?: Record<string, unknown> };
  const probe = {
    get: {
      operationId: 'hostingApiMockReady',
      security: [],
      responses: { '200': { description: 'ready', content: { 'application/json': { example: { ready: token } } } } },
    },
  };
  return { ...doc, paths: { ...doc.paths, [PROBE_PREFIX + token]: probe } };
}

function launchPrism(
  file: string,
  port: number,
  token: string,
  options: Pick<MockOptions, 'dynamic' | 'errors'>,
): Promise<ChildProcess> {
  const cli = require.resolve('@stoplight/prism-cli/dist/index.js');
  // Prism dies with its parent, however the parent ends (kill -9 included): it is started with a
  // preload that watches its stdin, a pipe only the parent holds; when the pipe closes, Prism exits
  // (and removes its copy of the spec, which no exit handler of a killed parent removes).
  const guard = join(dirname(file), 'parent-guard.cjs');
  writeFileSync(guard, PARENT_GUARD);
  const args = ['--require', guard, cli, 'mock', file, '--port', String(port), '--host', '127.0.0.1'];
  if (options.dynamic) args.push('--dynamic');
  if (options.errors) args.push('--errors');
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  // The parent never writes; the pipe must not keep the parent's event loop alive.
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  child.stdin?.on('error', () => {});
  // Prism must not outlive the process that started it (one that exits without stop() included):
  // an orphaned Prism goes on holding its port and burning CPU.
  const killPrism = () => child.kill('SIGKILL');
  process.once('exit', killPrism);
  child.once('exit', () => process.off('exit', killPrism));
  let output = '';
  const keep = (chunk: Buffer) => {
    // Prism logs every request; keep only enough of the start-up output to report a failure.
    if (output.length < 20_000) output += chunk.toString('utf8');
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        reject(error);
      } else resolve(child);
    };
    const timer = setTimeout(
      () => finish(new Error(`Prism did not answer within 60 s:\n${output.slice(-2000)}`)),
      60_000,
    );
    child.once('exit', (code) =>
      finish(
        output.includes('EADDRINUSE')
          ? new PortTaken(`port ${port} is in use`)
          : new Error(`Prism exited (code ${code}) before it was ready:\n${output.slice(-2000)}`),
      ),
    );
    const probe = () => {
      if (settled) return;
      const req = http.get({ host: '127.0.0.1', port, path: PROBE_PREFIX + token }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => (res.statusCode === 200 && body.includes(token) ? finish() : setTimeout(probe, 100)));
      });
      req.on('error', () => setTimeout(probe, 100));
    };
    probe();
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
