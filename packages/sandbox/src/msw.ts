// The sandbox as MSW request handlers (`@hosting-api/sandbox/msw`), for front-end tests and pages
// that mock the API with msw: setupServer in Node, setupWorker in the browser. Not a second
// implementation: each intercepted request goes through the sandbox server's own request listener
// (routing, auth, validation, the domain, the error envelope, CORS), handed a request and a
// response object in place of a socket's, so the answers are the server's. The browser build
// (dist/msw.browser.js, the package's `browser` condition) bundles the same code with
// src/browser/platform.ts in place of the Node one.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpResponse, http, type RequestHandler } from 'msw';
import { checkOutcome, type OutcomeSpec } from './domain/outcomes.js';
import type { WebhookDelivery } from './domain/runtime.js';
import { checkFault, type FaultSpec } from './http/faults.js';
import { createSandboxCore, type SandboxOptions, type SandboxState } from './index.js';

/**
 * What the server's listener reads of a request (method, url, headers, and the body through
 * on('data') / on('end')), built from a fetch Request's parts; no Node stream, so it runs in browsers.
 */
function incomingMessage(method: string, url: string, headers: Record<string, string>, body: Buffer): IncomingMessage {
  const listeners: Record<string, ((chunk?: Buffer) => void)[]> = {};
  const req = {
    method,
    url,
    headers,
    socket: { remoteAddress: undefined },
    resume: () => req,
    on(event: string, listener: (chunk?: Buffer) => void) {
      listeners[event] = [...(listeners[event] ?? []), listener];
      // The listener reads the body by registering 'data' then 'end': deliver both after that.
      if (event === 'end')
        queueMicrotask(() => {
          if (body.length) for (const l of listeners.data ?? []) l(body);
          for (const l of listeners.end ?? []) l();
        });
      return req;
    },
  };
  return req as unknown as IncomingMessage;
}

export interface SandboxHandlersOptions
  extends Pick<
    SandboxOptions,
    'seed' | 'speed' | 'startTime' | 'clients' | 'selfCheck' | 'webhookUrl' | 'faults' | 'outcomes' | 'activityLimit'
  > {
  /** Base address of the API the app calls, ending in /v1 (e.g. https://api.example.test/v1). */
  baseUrl: string;
  /** The auth root the app gets its token from (POST {authUrl}/auth/token); control routes too. */
  authUrl: string;
}

export interface SandboxHandlers {
  /** Give these to setupServer(...handlers) (or server.use). */
  handlers: RequestHandler[];
  /**
   * Back to the seed, as POST /__sandbox/reset: the state, queued work, recorded webhooks, armed
   * outcomes and transport faults; the clock keeps its time and tokens stay valid.
   */
  reset(): void;
  /** Moves the virtual clock forward, running the queued work that falls due. */
  advance(ms: number): void;
  /** The current state (the live object: read it, do not change it). */
  state(): SandboxState;
  /**
   * Sets a transport fault, as POST /__sandbox/faults does: a delay, a timeout (no answer until
   * the app aborts), a dropped connection (a network error) or a status. Resolves once set.
   */
  fault(spec: FaultSpec): Promise<void>;
  /** Clears every transport fault. */
  clearFaults(): void;
  /** Arms a documented outcome, as POST /__sandbox/outcomes does (e.g. the next git deploy of a site fails). */
  outcome(spec: OutcomeSpec): void;
  /** The webhook deliveries recorded (event, payload, delivery id). */
  webhooks(): WebhookDelivery[];
}

/** A check's 400 (an ApiError with `errors`) as an Error whose message says what to fix. */
function plain<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    const errors = (error as { errors?: string[] | null }).errors;
    throw new Error(`createSandboxHandlers: ${errors?.join('; ') ?? (error as Error).message}`);
  }
}

/** A URL option without its trailing slash, checked. */
function root(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`createSandboxHandlers: ${name} must be an absolute URL, got "${value}"`);
  }
  if (url.search || url.hash) throw new Error(`createSandboxHandlers: ${name} takes no query or fragment`);
  return url.href.replace(/\/$/, '');
}

export function createSandboxHandlers(options: SandboxHandlersOptions): SandboxHandlers {
  const baseUrl = root('baseUrl', options.baseUrl);
  const authUrl = root('authUrl', options.authUrl);
  if (!baseUrl.endsWith('/v1')) throw new Error(`createSandboxHandlers: baseUrl must end in /v1, got "${baseUrl}"`);
  const { runtime, app, faults } = createSandboxCore(options);

  /** Answers a request as the server does, for the path the server would see (/v1/…, /auth/…). */
  const answer = async (request: Request, path: string): Promise<Response> => {
    const { handle } = await app;
    const body = Buffer.from(await request.arrayBuffer());
    const headers: Record<string, string> = {};
    request.headers.forEach((value, key) => {
      headers[key] = value;
    });
    if (body.length) headers['content-length'] = String(body.length);
    else delete headers['content-length'];
    const req = incomingMessage(request.method, path, headers, body);
    return new Promise<Response>((resolve) => {
      // A timeout fault never answers: the app's abort ends the wait (as a network error).
      request.signal?.addEventListener('abort', () => resolve(HttpResponse.error()), { once: true });
      const out: Record<string, string> = {};
      const setHeaders = (more?: Record<string, string | number>) => {
        for (const [k, v] of Object.entries(more ?? {})) out[k.toLowerCase()] = String(v);
      };
      let status = 200;
      const res = {
        req,
        headersSent: false,
        setHeader: (name: string, value: string) => setHeaders({ [name]: value }),
        writeHead(code: number, more?: Record<string, string | number>) {
          status = code;
          setHeaders(more);
          res.headersSent = true;
          return res;
        },
        end(data?: string | Buffer) {
          delete out['content-length']; // the Response computes its own
          resolve(new HttpResponse(data === undefined || data === '' ? null : data, { status, headers: out }));
        },
        destroy: () => resolve(HttpResponse.error()),
      };
      handle(req, res as unknown as ServerResponse);
    });
  };

  // The path and query the server would see: a fragment never reaches a server.
  const relative = (request: Request, prefix: string) => {
    const url = new URL(request.url);
    url.hash = '';
    return url.href.slice(prefix.length) || '/';
  };
  // Every URL under a root, as a RegExp without groups: msw percent-decodes the parts a string
  // pattern captures and throws on a malformed escape (`/sites/%E0%A4%A`), which the server answers 404.
  const under = (prefix: string) => new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`);
  return {
    handlers: [
      http.all(under(baseUrl), ({ request }) => answer(request, `/v1${relative(request, baseUrl)}`)),
      http.all(under(authUrl), ({ request }) => answer(request, relative(request, authUrl))),
    ],
    reset: () => runtime.reset(),
    advance: (ms) => runtime.clock.advance(ms),
    state: () => runtime.state,
    async fault(spec) {
      const { operationIds } = await app;
      faults.add(plain(() => checkFault(spec, (id) => operationIds.has(id))));
    },
    clearFaults: () => faults.clear(),
    outcome(spec) {
      runtime.outcomes.add(plain(() => checkOutcome(spec, runtime.state)));
    },
    webhooks: () => runtime.webhooks,
  };
}
