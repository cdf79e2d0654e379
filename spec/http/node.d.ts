// Types of @hosting-api/openapi/http (node.js).
export declare const DEFAULT_MAX_BYTES: number;
export type ReadErrorCode = 'TOO_LARGE' | 'DEADLINE' | 'ABORTED' | 'BROKEN' | 'CONNECT' | 'REDIRECT';
export declare class ReadError extends Error {
  constructor(code: ReadErrorCode, message: string, options?: { cause?: unknown });
  code: ReadErrorCode;
}
export interface ReadInit {
  method?: string;
  headers?: Record<string, string | number | readonly string[] | undefined>;
  body?: string | Uint8Array | URLSearchParams | null;
  signal?: AbortSignal | null;
}
export interface ReadLimits {
  /** Largest body read as sent, in bytes (default 32 MiB). */
  maxBytes?: number;
  /** Largest body once inflated (default maxBytes); only with `decompress`. */
  maxInflated?: number;
  /** Inflate a gzip, deflate or br Content-Encoding. */
  decompress?: boolean;
  /** Milliseconds for the whole exchange, body included. */
  deadline?: number;
  /** Redirects followed (GET and HEAD only); default 0. */
  redirects?: number;
}
export interface Answer {
  status: number;
  statusText: string;
  /** Lower-case names, one string each. */
  headers: Record<string, string | undefined>;
  url: string;
  bytes: Buffer;
  text: string;
}
export declare function request(url: string | URL, init?: ReadInit, limits?: ReadLimits): Promise<Answer>;
export declare function inflate(bytes: Uint8Array, options?: { encoding?: string; maxBytes?: number }): Buffer;
/** A fetch-compatible function over request(); its answers are read already (body: null). */
export declare function limitedFetch(limits?: ReadLimits): (url: string, init?: RequestInit) => Promise<Response>;
