// The one way the repository's Node code reads an HTTP answer (`@hosting-api/openapi/http`). A peer
// is not trusted to end its answers, so every read has
//   - a byte cap on the body as sent (`maxBytes`): reading stops there and the read fails;
//   - a cap on the inflated size when it decompresses (`maxInflated`, default `maxBytes`): a small
//     gzip that inflates to gigabytes fails at the cap, not after;
//   - a deadline for the whole exchange, headers and body (`deadline`, ms, wall clock: a trickle
//     of one byte a second cannot stretch it, as it would an idle timeout), and/or a `signal`;
//   - no redirect followed unless asked (`redirects`: how many, GET and HEAD only): a 3xx is the answer.
// node:http, not fetch: a GET may carry a body (the spec documents some), no agent pools a
// connection that a hostile answer left half-read, and Node 20's fetch loads undici on first use.
// The lint test scripts/test/reader.test.ts fails any other read of a response body in the repo.
import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';

/** Default byte cap of one answer: 32 MiB. */
export const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

/** A read that failed; `code` says why: TOO_LARGE, DEADLINE, ABORTED, BROKEN (the answer broke off), CONNECT, REDIRECT. */
export class ReadError extends Error {
  constructor(code, message, options) {
    super(message, options);
    this.name = 'ReadError';
    this.code = code;
  }
}

const INFLATERS = {
  gzip: zlib.createGunzip,
  'x-gzip': zlib.createGunzip,
  deflate: zlib.createInflate,
  br: zlib.createBrotliDecompress,
};

/** Inflates a whole buffer (`encoding`: gzip, deflate or br) to at most `maxBytes`; throws a ReadError TOO_LARGE past it. */
export function inflate(bytes, { encoding = 'gzip', maxBytes = DEFAULT_MAX_BYTES } = {}) {
  const sync = {
    gzip: zlib.gunzipSync,
    'x-gzip': zlib.gunzipSync,
    deflate: zlib.inflateSync,
    br: zlib.brotliDecompressSync,
  }[encoding];
  if (!sync) throw new ReadError('BROKEN', `unknown encoding ${encoding}`);
  try {
    return sync(bytes, { maxOutputLength: maxBytes });
  } catch (error) {
    if (error?.code === 'ERR_BUFFER_TOO_LARGE')
      throw new ReadError(
        'TOO_LARGE',
        `the ${encoding} content inflates to over ${maxBytes} bytes: inflating stopped there`,
      );
    throw new ReadError('BROKEN', `the ${encoding} content is not valid: ${error.message}`, { cause: error });
  }
}

const flatten = (headers) => {
  const flat = {};
  for (const [name, value] of Object.entries(headers)) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
};

/**
 * One HTTP exchange. `init`: method, headers, body (string, Buffer or URLSearchParams), signal.
 * `limits`: maxBytes, maxInflated, decompress (inflate a gzip/deflate/br Content-Encoding),
 * deadline (ms), redirects (default 0). Answers `{ status, statusText, headers, url, bytes, text }`
 * (headers: lower-case names, one string each; text: the bytes as UTF-8); throws a ReadError whose
 * message says what went wrong in one line.
 */
export async function request(url, init = {}, limits = {}) {
  let target = new URL(String(url));
  for (let hops = 0; ; hops++) {
    const answer = await exchange(target, init, limits);
    const location = answer.headers.location;
    const method = (init.method ?? 'GET').toUpperCase();
    if (answer.status < 300 || answer.status > 399 || !location || hops >= (limits.redirects ?? 0)) return answer;
    if (method !== 'GET' && method !== 'HEAD') return answer;
    target = new URL(location, target);
    if (target.protocol !== 'http:' && target.protocol !== 'https:')
      throw new ReadError('REDIRECT', `a redirect to ${target.protocol} is not followed`);
  }
}

function exchange(target, init, limits) {
  const maxBytes = limits.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxInflated = limits.maxInflated ?? maxBytes;
  const { deadline, decompress = false } = limits;
  const client = target.protocol === 'https:' ? https : http;
  let body = init.body;
  const headers = { ...(init.headers ?? {}) };
  if (body instanceof URLSearchParams) {
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/x-www-form-urlencoded';
    body = body.toString();
  }
  if (body !== undefined && body !== null) {
    body = typeof body === 'string' ? Buffer.from(body) : body;
    headers['content-length'] = String(body.length);
  }
  const signal = init.signal ?? undefined;
  return new Promise((resolve, reject) => {
    let size = 0;
    let settled = false;
    let timer;
    let inflater;
    const chunks = [];
    const settle = () => {
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const fail = (code, message, cause) => {
      if (settled) return;
      settle();
      chunks.length = 0; // what was read goes at once, not when the promise is collected
      req.destroy();
      inflater?.destroy();
      reject(code instanceof Error ? code : new ReadError(code, message, cause === undefined ? undefined : { cause }));
    };
    const onAbort = () => fail(signal.reason instanceof Error ? signal.reason : new ReadError('ABORTED', 'aborted'));
    const req = client.request(target, { method: init.method ?? 'GET', headers }, (res) => {
      const declared = Number(res.headers['content-length']);
      if (declared > maxBytes)
        return fail('TOO_LARGE', `the answer is over ${maxBytes} bytes (Content-Length ${declared})`);
      const encoding = String(res.headers['content-encoding'] ?? '')
        .trim()
        .toLowerCase();
      inflater = decompress && INFLATERS[encoding] ? INFLATERS[encoding]() : undefined;
      let inflated = 0;
      const finish = () => {
        if (settled) return;
        settle();
        const bytes = Buffer.concat(chunks);
        const status = res.statusCode ?? 0;
        resolve({
          status,
          statusText: res.statusMessage ?? '',
          headers: flatten(res.headers),
          url: target.href,
          bytes,
          text: bytes.toString('utf8'),
        });
      };
      if (inflater) {
        inflater.on('data', (chunk) => {
          inflated += chunk.length;
          if (inflated > maxInflated)
            return fail('TOO_LARGE', `the answer inflates to over ${maxInflated} bytes: inflating stopped there`);
          chunks.push(chunk);
        });
        inflater.on('error', (error) => fail('BROKEN', `the ${encoding} answer is not valid: ${error.message}`, error));
        inflater.on('end', finish);
      }
      res.on('data', (chunk) => {
        size += chunk.length;
        if (size > maxBytes) return fail('TOO_LARGE', `the answer is over ${maxBytes} bytes: reading stopped there`);
        if (inflater) inflater.write(chunk);
        else chunks.push(chunk);
      });
      res.on('error', (error) => fail('BROKEN', `the answer broke off: ${error.code ?? error.message}`, error));
      res.on('aborted', () => fail('BROKEN', 'the answer broke off'));
      res.on('close', () => {
        if (!res.complete) fail('BROKEN', 'the connection closed before the answer was complete');
      });
      res.on('end', () => (inflater ? inflater.end() : finish()));
    });
    if (deadline !== undefined && deadline > 0 && deadline < 2 ** 31)
      timer = setTimeout(
        () =>
          fail(
            'DEADLINE',
            size
              ? `no complete answer within ${deadline} ms (${size} bytes of the body came)`
              : `no answer within ${deadline} ms`,
          ),
        deadline,
      );
    req.on('error', (error) => fail('CONNECT', `no answer: ${error.code ?? error.message}`, error));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    req.end(body ?? undefined);
  });
}

class AnswerHeaders {
  #flat;
  constructor(flat) {
    this.#flat = flat;
  }
  get(name) {
    return this.#flat[name.toLowerCase()] ?? null;
  }
  has(name) {
    return this.#flat[name.toLowerCase()] !== undefined;
  }
  forEach(fn) {
    for (const [name, value] of Object.entries(this.#flat)) fn(value, name);
  }
}

/**
 * A `fetch` for `createClient({ fetch })` and the like, over `request()` with these limits: it
 * answers what a client reads of a Response (`ok`, `status`, `statusText`, `url`, `headers.get()`,
 * `text()`, `json()`, `arrayBuffer()`), the body already read within the cap.
 */
export function limitedFetch(limits = {}) {
  return async (url, init = {}) => {
    const answer = await request(url, init, limits);
    const noBody = [204, 205, 304].includes(answer.status);
    return {
      ok: answer.status >= 200 && answer.status < 300,
      status: answer.status,
      statusText: answer.statusText,
      url: answer.url,
      redirected: false,
      headers: new AnswerHeaders(answer.headers),
      body: null,
      text: async () => (noBody ? '' : answer.text),
      json: async () => JSON.parse(answer.text),
      arrayBuffer: async () =>
        answer.bytes.buffer.slice(answer.bytes.byteOffset, answer.bytes.byteOffset + answer.bytes.length),
    };
  };
}
