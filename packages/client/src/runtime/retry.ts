// When to retry and how long to wait.

export interface RetryOptions {
  /** First backoff delay in ms (doubled per attempt, with jitter). Default 500. */
  initialDelayMs?: number;
  /** Largest backoff delay in ms. Default 8000. */
  maxDelayMs?: number;
  /** Largest wait a `Retry-After` header may ask for, in ms; longer asks are cut to this. Default 60000. */
  maxRetryAfterMs?: number;
}

export const DEFAULT_RETRY = {
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
} satisfies Required<RetryOptions>;

/** Statuses worth another try: timeout, rate limit, server errors. */
export const isRetryableStatus = (status: number): boolean => status === 408 || status === 429 || status >= 500;

/** `Retry-After` as milliseconds (seconds or an HTTP date), or undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Delay before retry number `attempt` (0-based): the server's `Retry-After` if it gave one, else backoff with jitter. */
export function retryDelay(
  attempt: number,
  headers: Headers | undefined,
  options: Required<RetryOptions>,
  random = Math.random,
): number {
  const asked = parseRetryAfter(headers?.get('retry-after'));
  if (asked !== undefined) return Math.min(asked, options.maxRetryAfterMs);
  const backoff = Math.min(options.initialDelayMs * 2 ** attempt, options.maxDelayMs);
  return Math.round(backoff * (0.75 + random() * 0.25)); // jitter: 75–100 % of the backoff
}

/** Waits `ms`; rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
