/**
 * A dereferenced copy of a bundled document, as Redocly's `bundle({ dereference: true })` builds it,
 * or undefined when Redocly must do it (a $ref that is not local, names nothing, loops, or sits in a literal).
 */
export function dereferenceLocal(document: object): Json | undefined;

// biome-ignore lint/suspicious/noExplicitAny: a JSON document of any shape
type Json = any;
