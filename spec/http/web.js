// The one way browser-safe code reads a fetch Response's body (`@hosting-api/openapi/http/web`):
// through its stream, counting bytes, and cancelling it once past `maxBytes` (a ReadError
// TOO_LARGE), so an endless answer costs at most the cap. The time limit is the caller's signal,
// which ends the stream. Node code reads through `@hosting-api/openapi/http` (node.js) instead.

/** A read that failed; `code` says why (TOO_LARGE here). */
export class ReadError extends Error {
  constructor(code, message, options) {
    super(message, options);
    this.name = 'ReadError';
    this.code = code;
  }
}

/** The body of `response` as UTF-8 text, at most `maxBytes` of it. */
export async function readText(response, { maxBytes }) {
  // A Response-like object without a stream (the Node reader's limitedFetch) was read within its own cap.
  if (!response.body?.getReader) return response.text();
  const declared = Number(response.headers?.get?.('content-length'));
  if (declared > maxBytes) {
    await response.body.cancel().catch(() => {});
    throw new ReadError('TOO_LARGE', `the answer is over ${maxBytes} bytes (Content-Length ${declared})`);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new ReadError('TOO_LARGE', `the answer is over ${maxBytes} bytes: reading stopped there`);
    }
    text += decoder.decode(value, { stream: true });
  }
}
