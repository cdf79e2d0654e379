// Request bodies: read with a size limit (any method: two GETs of the spec take a body), then
// parsed by Content-Type, which must be one the operation declares.
import type { IncomingMessage } from 'node:http';
import { type ApiError, badRequest } from '../domain/errors.js';

/** `application/json; charset=utf-8` → `application/json`. */
function mediaType(header: string | undefined): string {
  if (header === undefined) return '';
  const semicolon = header.indexOf(';');
  return (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
}

/**
 * The body by its Content-Type, which must be one the operation declares (JSON, or form-encoded
 * for the token operations); anything else is a 400. Only routes that take a body get here.
 */
export function parseBody(mediaTypes: readonly string[], contentType: string | undefined, raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  const type = mediaType(contentType);
  if (!mediaTypes.includes(type)) {
    throw badRequest(`Content-Type ${contentType ?? '(none)'} is not accepted here: send ${mediaTypes.join(' or ')}`);
  }
  if (type === 'application/json') {
    const text = raw.toString();
    if (text.trim() === '') return undefined;
    // Deep nesting is refused before anything walks the value: every walk after this (validation,
    // the control routes' merge patch) is then bounded, and none can overflow the stack.
    if (nestingExceeds(text, MAX_JSON_DEPTH)) {
      throw badRequest(`body: JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
    }
    try {
      return JSON.parse(text);
    } catch (error) {
      throw badRequest(`body: malformed JSON (${(error as Error).message})`);
    }
  }
  return Object.fromEntries(new URLSearchParams(raw.toString()));
}

/** Deepest nesting of arrays and objects a JSON body may have (the state's fixtures need under 10). */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON text nests arrays and objects deeper than `max`: one pass over the characters, no
 * recursion, strings skipped (a bracket inside a string does not count).
 */
export function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i++;
        else if (d === 34) break;
      }
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}

/** Reads the request body (any method: two GETs of the spec take one), at most `limit` bytes. */
export function readBody(
  req: IncomingMessage,
  limit: number,
  done: (error: ApiError | null, raw?: Buffer) => void,
): void {
  const tooLarge = () => badRequest(`body: larger than the ${limit} bytes allowed`);
  if (Number(req.headers['content-length']) > limit) {
    req.resume();
    done(tooLarge());
    return;
  }
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  let size = 0;
  let failed = false;
  req.on('data', (chunk: Buffer) => {
    if (failed) return;
    size += chunk.length;
    if (size > limit) {
      failed = true;
      done(tooLarge());
      return;
    }
    if (first === undefined) first = chunk;
    else {
      more ??= [first];
      more.push(chunk);
    }
  });
  req.on('end', () => {
    if (!failed) done(null, more ? Buffer.concat(more, size) : (first ?? Buffer.alloc(0)));
  });
  // A client that goes away mid-body gets no answer; nothing else to do.
  req.on('error', () => {});
}
