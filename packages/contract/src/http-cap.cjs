// Every request the gate sends to a target goes through here (or through the same limits in
// dredd-preload.cjs): a target is not trusted to end its answers. Each request has
//   - a wall-clock deadline for the whole exchange, headers and body (a trickle of one byte a
//     second cannot stretch it, as it would an idle timeout);
//   - a cap on the answer's size (CONTRACT_MAX_RESPONSE_BYTES, default 8 MiB): reading stops there
//     and the request fails, so an endless or huge body costs at most the cap in memory;
//   - no redirect followed (a redirect is an answer to check, not a place to go).
'use strict';

/** The largest answer the gate reads, in bytes (CONTRACT_MAX_RESPONSE_BYTES). */
const MAX_RESPONSE_BYTES = Number(process.env.CONTRACT_MAX_RESPONSE_BYTES) || 8 * 1024 * 1024;

class CappedError extends Error {}

/**
 * fetch() with a deadline (ms, wall clock, body included) and a size cap. Answers
 * `{statusCode, headers, bytes, body}` (body: the bytes as UTF-8 text); throws a CappedError whose
 * message says what went wrong in one line ("no complete answer within 5000 ms", "the answer is
 * over 8388608 bytes", the connection error).
 */
async function cappedFetch(url, init = {}, { deadline, maxBytes = MAX_RESPONSE_BYTES } = {}) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), deadline);
  try {
    let res;
    try {
      res = await fetch(url, { ...init, redirect: 'manual', signal: controller.signal });
    } catch (error) {
      throw new CappedError(
        controller.signal.aborted
          ? `no answer within ${deadline} ms`
          : `no answer: ${error.cause?.code ?? error.cause?.message ?? error.message}`,
      );
    }
    const declared = Number(res.headers.get('content-length'));
    if (declared > maxBytes) {
      controller.abort();
      throw new CappedError(`the answer is over ${maxBytes} bytes (Content-Length ${declared})`);
    }
    const chunks = [];
    let size = 0;
    try {
      for await (const chunk of res.body ?? []) {
        size += chunk.length;
        if (size > maxBytes) {
          controller.abort();
          throw new CappedError(`the answer is over ${maxBytes} bytes: reading stopped there`);
        }
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof CappedError) throw error;
      throw new CappedError(
        controller.signal.aborted
          ? `no complete answer within ${deadline} ms (${size} bytes of the body came)`
          : `the answer broke off: ${error.cause?.code ?? error.message}`,
      );
    }
    const bytes = Buffer.concat(chunks);
    return { statusCode: res.status, headers: Object.fromEntries(res.headers), bytes, body: bytes.toString('utf8') };
  } finally {
    clearTimeout(timer);
  }
}

module.exports = { cappedFetch, CappedError, MAX_RESPONSE_BYTES };
