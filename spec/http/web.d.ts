// Types of @hosting-api/openapi/http/web (web.js).
export declare class ReadError extends Error {
  constructor(code: 'TOO_LARGE', message: string, options?: { cause?: unknown });
  code: 'TOO_LARGE';
}
/** The body of `response` as UTF-8 text, at most `maxBytes` of it; past that a ReadError TOO_LARGE. */
export declare function readText(
  response: Pick<Response, 'text'> & {
    headers?: { get(name: string): string | null };
    body?: ReadableStream<Uint8Array> | null;
  },
  options: { maxBytes: number },
): Promise<string>;
