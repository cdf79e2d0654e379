// Every request the gate sends to a target goes through here (or through the same limits in
// dredd-preload.ts): a target is not trusted to end its answers. Each request has
//   - a wall-clock deadline for the whole exchange, headers and body (a trickle of one byte a
//     second cannot stretch it, as it would an idle timeout);
//   - a cap on the answer's size (CONTRACT_MAX_RESPONSE_BYTES, default 8 MiB): reading stops there
//     and the request fails, so an endless or huge body costs at most the cap in memory;
//   - no redirect followed (a redirect is an answer to check, not a place to go).
// node:http, not fetch: a GET may carry a body (the spec documents some), and no agent pools a
// connection that a hostile answer left half-read.
import http from 'node:http';
import https from 'node:https';
import type { CappedAnswer, FetchInit } from './types';

/** The largest answer the gate reads, in bytes (CONTRACT_MAX_RESPONSE_BYTES). */
const MAX_RESPONSE_BYTES = Number(process.env.CONTRACT_MAX_RESPONSE_BYTES) || 8 * 1024 * 1024;

class CappedError extends Error {}

/**
 * One HTTP exchange with a deadline (ms, wall clock, body included) and a size cap (node:http, so
 * that a GET may carry a body as the spec allows for some reads). Answers
 * `{statusCode, headers, bytes, body}` (body: the bytes as UTF-8 text); throws a CappedError whose
 * message says what went wrong in one line ("no complete answer within 5000 ms", "the answer is
 * over 8388608 bytes", the connection error).
 */
function cappedFetch(
  url: string | URL,
  init: FetchInit = {},
  { deadline, maxBytes = MAX_RESPONSE_BYTES }: { deadline: number; maxBytes?: number },
): Promise<CappedAnswer> {
  const target = new URL(String(url));
  const client = target.protocol === 'https:' ? https : http;
  let body = init.body;
  if (body instanceof URLSearchParams) body = body.toString();
  const headers: http.OutgoingHttpHeaders = { ...(init.headers ?? {}) };
  if (init.body instanceof URLSearchParams && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  if (body !== undefined && body !== null) headers['Content-Length'] = Buffer.byteLength(body);
  return new Promise((resolve, reject) => {
    let size = 0;
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(new CappedError(message));
    };
    const req = client.request(target, { method: init.method ?? 'GET', headers }, (res) => {
      const declared = Number(res.headers['content-length']);
      if (declared > maxBytes) return fail(`the answer is over ${maxBytes} bytes (Content-Length ${declared})`);
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) return fail(`the answer is over ${maxBytes} bytes: reading stopped there`);
        chunks.push(chunk);
      });
      res.on('error', (error: NodeJS.ErrnoException) => fail(`the answer broke off: ${error.code ?? error.message}`));
      res.on('aborted', () => fail('the answer broke off'));
      res.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const bytes = Buffer.concat(chunks);
        const flat: Record<string, string | undefined> = {};
        for (const [name, value] of Object.entries(res.headers))
          flat[name] = Array.isArray(value) ? value.join(', ') : value;
        resolve({ statusCode: res.statusCode as number, headers: flat, bytes, body: bytes.toString('utf8') });
      });
    });
    const timer = setTimeout(
      () =>
        fail(
          size
            ? `no complete answer within ${deadline} ms (${size} bytes of the body came)`
            : `no answer within ${deadline} ms`,
        ),
      deadline,
    );
    req.on('error', (error: NodeJS.ErrnoException) => fail(`no answer: ${error.code ?? error.message}`));
    if (body !== undefined && body !== null) req.write(body);
    req.end();
  });
}

export { CappedError, cappedFetch, MAX_RESPONSE_BYTES };
