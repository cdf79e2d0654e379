// Preloaded into the Dredd process (`node --require`, by run.ts) to make it do less and say no
// secret. Dredd is pinned (14.1.0), and only modules that its own files require are wrapped.
// - Dredd's addHooks deep-clones its whole configuration for the hooks' `configuration`, the parsed
//   API descriptions included: that clone was 3.4 s of a 9 s run of 396 transactions. Here the
//   descriptions are shared (hooks.ts only reads them) and the rest is cloned as before.
// - Dredd's CLI spawns `npm --version` at every start for a debug line (0.3 s of CPU); the line,
//   and so the spawn, is left out unless Dredd logs at debug level.
// - Dredd's dot reporter lists failed tests with their requests and answers: the Authorization
//   header, a client secret or token in a body, and an access token in an answer are masked
//   there, so no secret reaches the output (or a CI log).
// - Dredd waits for an answer for ever, and reads any amount of it: a target that stops answering,
//   trickles or sends an endless body hung the gate or took its memory. Each request goes through
//   http-cap.ts: CONTRACT_REQUEST_TIMEOUT ms for the whole answer (wall clock), at most
//   CONTRACT_MAX_RESPONSE_BYTES read, and a request that fails is reported in one line.
import Module from 'node:module';
import { sep } from 'node:path';
import { cappedFetch } from './http-cap';
import { guardOutput } from './redact';
import type { DreddMessage, Json } from './types';

// Nothing a target sent is printed verbatim: tokens redacted, long lines cut (redact.ts).
guardOutput();

const addHooks = `${sep}dredd${sep}build${sep}addHooks.js`;
const transactionRunner = `${sep}dredd${sep}build${sep}TransactionRunner.js`;
const reporters = `${sep}dredd${sep}build${sep}configureReporters.js`;
const timeout = Number(process.env.CONTRACT_REQUEST_TIMEOUT) || undefined;
const bin = `${sep}dredd${sep}bin${sep}dredd`;
// Node's module loader (internal: not in @types/node's Module).
type Load = (this: unknown, request: string, parent: { filename?: string } | undefined, ...rest: unknown[]) => Json;
const loader = Module as unknown as { _load: Load };
const load = loader._load;
loader._load = function loadDreddLighter(request, parent, ...rest) {
  const loaded = load.call(this, request, parent, ...rest);
  if (request === '../build/CLI' && parent?.filename?.endsWith(bin) && loaded?.default?.prototype?.logDebuggingInfo) {
    const CLI = loaded.default;
    const logDebuggingInfo = CLI.prototype.logDebuggingInfo;
    CLI.prototype.logDebuggingInfo = function logDebuggingInfoAtDebugOnly(this: unknown, config: Json) {
      if (config?.loglevel === 'debug') return logDebuggingInfo.call(this, config);
    };
    return loaded;
  }
  if (request === './performRequest' && parent?.filename?.endsWith(transactionRunner)) {
    // Dredd's `request` library reads an answer to its end, however long it is and however slowly
    // it comes (its timeout is an idle timeout): an endless or trickling body held the gate for
    // ever and past 2 GiB. The request goes through http-cap.ts instead: a wall-clock deadline
    // for the whole answer, a cap on its size, no redirect followed.
    loaded.default = (
      uri: string,
      req: DreddMessage,
      _options: unknown,
      callback: (error: Error | null, answer?: DreddMessage) => void,
    ) => {
      const headers = Object.fromEntries(
        Object.entries(req.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'content-length'),
      );
      const body = req.body ? Buffer.from(String(req.body), req.bodyEncoding === 'base64' ? 'base64' : 'utf8') : null;
      cappedFetch(
        uri,
        { method: req.method, headers, body: body?.length ? body : undefined },
        { deadline: timeout ?? 30_000 },
      ).then(
        (real) => {
          const binary = real.bytes.toString('utf8').includes('\ufffd');
          const answer: DreddMessage = { statusCode: real.statusCode, headers: real.headers };
          if (real.bytes.length) {
            answer.bodyEncoding = binary ? 'base64' : 'utf-8';
            answer.body = real.bytes.toString(binary ? 'base64' : 'utf8');
          }
          callback(null, answer);
        },
        (error) => {
          // Dredd's reporters print a failed request's stack trace; the reason and the URL say it all.
          const failure: NodeJS.ErrnoException = new Error(`${error.message}: ${uri}`);
          // Why, for hooks-check.ts's checkAnswer (the request object is the transaction's).
          globalThis.contractNoAnswer ??= new WeakMap();
          globalThis.contractNoAnswer.set(req, error.message);
          failure.stack = failure.message;
          failure.code = 'CONTRACT_NO_ANSWER';
          callback(failure);
        },
      );
    };
    return loaded;
  }
  if (request === './reporters/DotReporter' && parent?.filename?.endsWith(reporters)) {
    const configureEmitter = loaded.default.prototype.configureEmitter;
    loaded.default.prototype.configureEmitter = function configureEmitterWithoutSecrets(
      this: { errors: DreddTest[] },
      emitter: unknown,
    ) {
      configureEmitter.call(this, emitter);
      // The failed tests it lists at the end show each request and answer: not their secrets.
      this.errors.push = (...tests: DreddTest[]) => Array.prototype.push.apply(this.errors, tests.map(withoutSecrets));
    };
    return loaded;
  }
  if (request !== 'clone' || !parent?.filename?.endsWith(addHooks)) return loaded;
  const clone = (value: unknown, ...options: unknown[]) => {
    if (!value || typeof value !== 'object' || !('apiDescriptions' in value)) return loaded(value, ...options);
    const { apiDescriptions, ...others } = value;
    return Object.assign(loaded(others, ...options), { apiDescriptions });
  };
  return Object.assign(clone, loaded);
};

/** A body with its secrets as `***`: form fields and JSON properties named like credentials. */
const maskBody = (body: unknown) =>
  typeof body !== 'string'
    ? body
    : body
        .replace(/\b((?:client_secret|access_token|refresh_token|token)=)[^&\s]*/g, '$1***')
        .replace(/("(?:client_secret|access_token|refresh_token|token)"\s*:\s*)"[^"]*"/g, '$1"***"');

/** A failed test as Dredd's reporters hold it: the request sent and the answer read. */
interface DreddTest {
  request?: DreddMessage;
  actual?: DreddMessage;
  [field: string]: unknown;
}

function withoutSecrets(test: DreddTest) {
  const request = test?.request;
  const actual = test?.actual;
  const headers = Object.fromEntries(
    Object.entries(request?.headers ?? {}).map(([name, value]) =>
      name.toLowerCase() === 'authorization' ? [name, String(value).replace(/^(\S+\s+).+$/, '$1***')] : [name, value],
    ),
  );
  return {
    ...test,
    ...(request && { request: { ...request, headers, body: maskBody(request.body) } }),
    ...(actual && { actual: { ...actual, body: maskBody(actual.body) } }),
  };
}
