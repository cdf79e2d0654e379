// Every request the gate sends to a target goes through here (or through the same limits in
// dredd-preload.ts), on top of the repository's one reader (@hosting-api/openapi/http): a target
// is not trusted to end its answers. Each request has
//   - a wall-clock deadline for the whole exchange, headers and body (a trickle of one byte a
//     second cannot stretch it, as it would an idle timeout);
//   - a cap on the answer's size (CONTRACT_MAX_RESPONSE_BYTES, default 8 MiB): reading stops there
//     and the request fails, so an endless or huge body costs at most the cap in memory;
//   - no redirect followed (a redirect is an answer to check, not a place to go).
import { ReadError, request } from '@hosting-api/openapi/http';
import { addSecretsOf } from './redact';
import type { CappedAnswer, FetchInit } from './types';

/** The largest answer the gate reads, in bytes (CONTRACT_MAX_RESPONSE_BYTES). */
const MAX_RESPONSE_BYTES = Number(process.env.CONTRACT_MAX_RESPONSE_BYTES) || 8 * 1024 * 1024;
/** The largest size a compressed download is inflated to, in bytes (CONTRACT_MAX_INFLATED_BYTES). */
const MAX_INFLATED_BYTES = Number(process.env.CONTRACT_MAX_INFLATED_BYTES) || 64 * 1024 * 1024;

class CappedError extends Error {}

/**
 * One HTTP exchange with a deadline (ms, wall clock, body included) and a size cap (a GET may
 * carry a body, as the spec allows for some reads). Answers `{statusCode, headers, bytes, body}`
 * (body: the bytes as UTF-8 text); throws a CappedError whose message says what went wrong in one
 * line ("no complete answer within 5000 ms", "the answer is over 8388608 bytes", the connection error).
 */
async function cappedFetch(
  url: string | URL,
  init: FetchInit = {},
  { deadline, maxBytes = MAX_RESPONSE_BYTES }: { deadline: number; maxBytes?: number },
): Promise<CappedAnswer> {
  // What it sends as credentials is never printed, whatever the target echoes (redact.ts).
  addSecretsOf(init.headers as Record<string, unknown> | undefined, init.body);
  try {
    const answer = await request(url, init, { deadline, maxBytes });
    return { statusCode: answer.status, headers: answer.headers, bytes: answer.bytes, body: answer.text };
  } catch (error) {
    throw error instanceof ReadError ? new CappedError(error.message) : error;
  }
}

export { CappedError, cappedFetch, MAX_INFLATED_BYTES, MAX_RESPONSE_BYTES };
