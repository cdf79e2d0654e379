// The local $refs of a bundled document resolved without Redocly's bundler, which costs about
// 0.6 s in every process that loads the model (openapi-core's modules, then its walk of the
// document): each sandbox, mock and gate phase start paid it. This walk takes tens of milliseconds.
// It builds what `bundle({ dereference: true })` builds (openapi-core's replaceRef): a $ref node
// keeps its own object, loses `$ref` and takes the target's keys after its own sibling keys
// (a sibling wins); the target's nested values are shared, not copied. test/model.test.ts compares
// the two on the spec. Anything else gives undefined, and loadModel asks Redocly, whose answer and
// errors stay the reference: a $ref that is not local, names nothing or loops (a recursive schema
// included), or one inside a literal value (an example, a default, an extension), where Redocly's
// own walk decides.

const isObject = (value) => typeof value === 'object' && value !== null;

/** The keys of a local $ref's JSON pointer (`#/paths/~1sites/get`), unescaped (RFC 6901). */
export const pointerKeys = (ref) =>
  ref
    .slice(2)
    .split('/')
    .map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'));

/** Whether the value at `key` is literal JSON data, not OpenAPI objects (`grandKey`: two levels up). */
const isLiteral = (key, value, grandKey) =>
  key === 'example' ||
  key === 'default' ||
  key === 'const' ||
  key === 'enum' ||
  key.startsWith('x-') ||
  (key === 'examples' && Array.isArray(value)) || // JSON Schema's examples
  (key === 'value' && grandKey === 'examples'); // an Example object's value

/** Whether a value holds a `$ref` key anywhere. */
const holdsRef = (value) => isObject(value) && (Object.hasOwn(value, '$ref') || Object.values(value).some(holdsRef));

/** A dereferenced copy of `document`, or undefined when Redocly must do it. */
export function dereferenceLocal(document) {
  const doc = structuredClone(document);
  const done = new Set();
  const path = new Set(); // the objects being visited, outermost first: a $ref to one of them loops
  const REDOCLY = Symbol('for Redocly');

  const target = (ref) => {
    if (!ref.startsWith('#/')) throw REDOCLY;
    let node = doc;
    for (const raw of pointerKeys(ref)) {
      let key;
      try {
        key = decodeURIComponent(raw);
      } catch {
        throw REDOCLY;
      }
      if (!isObject(node) || !Object.hasOwn(node, key)) throw REDOCLY;
      node = node[key];
    }
    return node;
  };
  /** Resolves parent[key] in place, and everything under it, once per object. */
  const visit = (parent, key, parentKey) => {
    const node = parent[key];
    if (!isObject(node) || done.has(node)) return;
    path.add(node);
    if (typeof node.$ref === 'string') {
      const holder = { node: target(node.$ref) };
      // A recursive schema: Redocly's answer holds cycles, which it alone shapes.
      if (path.has(holder.node)) throw REDOCLY;
      visit(holder, 'node', parentKey); // a target that is a $ref itself first
      if (!isObject(holder.node) || Array.isArray(holder.node)) {
        parent[key] = holder.node;
        path.delete(node);
        return;
      }
      delete node.$ref;
      Object.assign(node, Object.assign({}, holder.node, node));
    }
    done.add(node);
    for (const k of Object.keys(node)) {
      if (!isLiteral(k, node[k], parentKey)) visit(node, k, key);
      else if (holdsRef(node[k])) throw REDOCLY;
    }
    path.delete(node);
  };
  try {
    visit({ doc }, 'doc', undefined);
  } catch (error) {
    if (error === REDOCLY) return undefined;
    throw error;
  }
  return doc;
}

/** Redocly's bundler with dereference, for what dereferenceLocal leaves (openapi-core is loaded only then). */
export async function redoclyDereference(document, ref) {
  const { bundle, createConfig, Source } = await import('@redocly/openapi-core');
  const parsed = structuredClone(document);
  const { bundle: result, problems } = await bundle({
    doc: { source: new Source(ref, JSON.stringify(parsed)), parsed },
    config: await createConfig({}),
    dereference: true,
  });
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length)
    throw new Error(`the spec cannot be dereferenced:\n  - ${errors.map((p) => p.message).join('\n  - ')}`);
  return result.parsed;
}
