// The client's `fetch` in the CLI (`createClient({ fetch })`): the repository's one reader
// (@hosting-api/openapi/http) with the CLI's size cap. node:http, not the global fetch: Node 20's
// fetch loads undici and compiles its WebAssembly parser on the first request, about 80 ms of a CLI
// run that is over in 200. The client's per-attempt signal ends a request at any point, headers or
// body; no redirect is followed.
import { ReadError, limitedFetch as readerFetch } from '@hosting-api/openapi/http';

/** The answer outgrew the size cap (`--max-size`, HOSTING_API_MAX_SIZE). */
export class ResponseTooLargeError extends Error {
  override name = 'ResponseTooLargeError';
}

/** Default cap on one answer's body: 32 MiB (the largest page of the API is a small fraction of it). */
export const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

export interface FetchLimits {
  /** Largest body read, in bytes; a bigger answer fails as soon as it passes the cap. */
  maxBytes?: number;
}

/** A fetch with a cap on the body's size. */
export function limitedFetch(limits: FetchLimits = {}) {
  const maxBytes = limits.maxBytes ?? DEFAULT_MAX_BYTES;
  const fetch = readerFetch({ maxBytes });
  return (url: string, init: RequestInit = {}): Promise<Response> =>
    fetch(url, init).catch((error: unknown) => {
      if (error instanceof ReadError && error.code === 'TOO_LARGE')
        throw new ResponseTooLargeError(
          `the answer is larger than ${maxBytes} bytes (raise --max-size or HOSTING_API_MAX_SIZE)`,
        );
      throw error;
    });
}
