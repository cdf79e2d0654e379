/**
 * A dereferenced copy of a bundled document, as Redocly's `bundle({ dereference: true })` builds it,
 * or undefined when Redocly must do it (a $ref that is not local, names nothing, loops, or sits in a literal).
 */
export function dereferenceLocal(document: object): Json | undefined;

/** The keys of a local $ref's JSON pointer (`#/paths/~1sites/get`), unescaped (RFC 6901). */
export function pointerKeys(ref: string): string[];

/** Redocly's bundler with dereference (`ref`: the document's name in its errors); throws on an error it reports. */
export function redoclyDereference(document: object, ref: string): Promise<Json>;

// biome-ignore lint/suspicious/noExplicitAny: a JSON document of any shape
type Json = any;
