// The behaviour statements of the spec (CONVENTIONS.md, "Behaviour statements"): what the API
// documentation states in prose about lists (`x-list`: order, filters, search, paging), about the
// effect of writes on reads (`x-effects`), about units and clocks (`x-unit`, root `x-units`), and
// which response feeds which operation (`links`), and about states (`x-state`: part 3's table). Each statement carries the file and line of
// spec/ where it is written (`source`), so a check that fails can cite it.
import { pointerKeys } from './dereference.js';

export const LIST_KINDS = ['order', 'filter', 'search', 'paging'];
export const EFFECT_KINDS = [
  'created',
  'updated',
  'deleted',
  'set',
  'toggle',
  'queued',
  'credentials',
  'revoked',
  'terminated',
  'issued',
];
export const UNITS = ['seconds', 'epoch-seconds', 'GiB', 'utc-milliseconds'];
/** A list or search operation, by the naming convention: it must state its order. */
export const isListOperation = (operationId) => /^(list|search)[A-Z]/.test(operationId ?? '');
/** A write: a POST, PUT, PATCH or DELETE that is not a search, validation or query; it must state its effect. */
export const isWriteOperation = (method, operationId) =>
  ['post', 'put', 'patch', 'delete'].includes(method) && !/^(search|validate|query)[A-Z]/.test(operationId ?? '');

const escapeKey = (key) => String(key).replaceAll('~', '~0').replaceAll('/', '~1');

/** Reads every statement; sets `list`, `effects` and `links` on each operation of `operations`. */
export function readStatements(document, operations, sources = {}) {
  const cite = (pointer) => sources[pointer] ?? `openapi.json#${pointer}`;
  const statements = [];
  const add = (statement, pointer) => {
    const s = { ...statement, pointer, source: cite(pointer) };
    statements.push(s);
    return s;
  };
  for (const op of operations) {
    const base = `/paths/${escapeKey(op.path)}/${op.method}`;
    const list = op.bundled?.['x-list'];
    op.list = undefined;
    if (list) {
      const at = `${base}/x-list`;
      const on = { operationId: op.operationId, items: list.items ?? 'data' };
      op.list = {
        items: on.items,
        order:
          list.order === 'silent'
            ? add({ ...on, kind: 'order', silent: true }, `${at}/order`)
            : (list.order ?? []).map((o, i) => add({ ...on, ...o, kind: 'order' }, `${at}/order/${i}`)),
        filters: (list.filters ?? []).map((f, i) => add({ ...on, ...f, kind: 'filter' }, `${at}/filters/${i}`)),
        search: list.search && add({ ...on, ...list.search, kind: 'search' }, `${at}/search`),
        paging: list.paging && add({ ...on, ...list.paging, kind: 'paging' }, `${at}/paging`),
      };
    }
    const effects = op.bundled?.['x-effects'];
    op.effects =
      effects === undefined
        ? undefined
        : effects === 'silent'
          ? [add({ operationId: op.operationId, kind: 'effect', silent: true }, `${base}/x-effects`)]
          : effects.map((e, i) => add({ ...e, operationId: op.operationId, effect: e.kind }, `${base}/x-effects/${i}`));
    // States (x-state): one statement, the transition of the write (or silent).
    const state = op.bundled?.['x-state'];
    op.state =
      state === undefined
        ? undefined
        : add(
            state === 'silent'
              ? { operationId: op.operationId, kind: 'state', silent: true }
              : { ...state, operationId: op.operationId, kind: 'state' },
            `${base}/x-state`,
          );
    op.rules = fieldRules(document, op, cite);
    op.links = [];
    const success = op.successStatus === undefined ? undefined : op.bundled?.responses?.[op.successStatus];
    for (const [name, link] of Object.entries(success?.links ?? {}))
      op.links.push({
        name,
        ...link,
        parameters: link.parameters ?? {},
        source: cite(`${base}/responses/${op.successStatus}/links/${escapeKey(name)}`),
      });
  }
  // Units: the document's defaults by format (root x-units), then every x-unit in a schema.
  for (const [format, unit] of Object.entries(document?.['x-units'] ?? {}))
    add({ kind: 'unit', format, unit, default: true }, `/x-units/${escapeKey(format)}`);
  const walk = (node, pointer, schema, path) => {
    if (!node || typeof node !== 'object') return;
    if (typeof node['x-unit'] === 'string')
      add({ kind: 'unit', unit: node['x-unit'], schema, field: path.join('.') }, `${pointer}/x-unit`);
    // Relations (x-relation): a count of a sibling list, a timestamp that moves on every change, the
    // last segment of a URL.
    const relation = node['x-relation'];
    if (relation && typeof relation === 'object')
      add(
        {
          ...relation,
          kind: relation.countOf ? 'count' : relation.lastSegmentOf ? 'segment' : 'timestamp',
          schema,
          field: path.join('.'),
        },
        `${pointer}/x-relation`,
      );
    for (const [name, sub] of Object.entries(node.properties ?? {}))
      walk(sub, `${pointer}/properties/${escapeKey(name)}`, schema, [...path, name]);
    if (node.items) walk(node.items, `${pointer}/items`, schema, [...path, '[]']);
    for (const key of ['anyOf', 'oneOf'])
      (node[key] ?? []).forEach((sub, i) => {
        walk(sub, `${pointer}/${key}/${i}`, schema, path);
      });
  };
  for (const [name, schema] of Object.entries(document?.components?.schemas ?? {}))
    walk(schema, `/components/schemas/${escapeKey(name)}`, name, []);
  const byPointer = new Map(statements.map((s) => [s.pointer, s]));
  return {
    statements,
    /** The statement written at a JSON pointer of the bundle (an `x-unit` node, ...). */
    statementAt: (pointer) => byPointer.get(pointer),
    /** The unit the document states for values of a format (`date-time` → `utc-milliseconds`). */
    unitOfFormat: (format) => statements.find((s) => s.kind === 'unit' && s.default && s.format === format),
  };
}

/** The keywords of a request field that state what it accepts (CONVENTIONS.md, "Field rules"). */
export const RULE_KEYWORDS = ['enum', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum'];

/** Follows a bundle's local `$ref` (`#/components/schemas/Site`): the node and its pointer. */
function followRef(document, node, pointer) {
  const ref = node?.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return { node, pointer };
  const found = pointerKeys(ref).reduce((n, k) => n?.[k], document);
  return followRef(document, found, ref.slice(1));
}

/**
 * The field rules of an operation's JSON request body, one per top-level field and keyword:
 * `{kind: 'rule', rule (a keyword, or values-from: listing, listField; special; free-text), field,
 * value, schema}`,
 * cited at the keyword in the bundle.
 */
function fieldRules(document, op, cite) {
  const base = `/paths/${escapeKey(op.path)}/${op.method}`;
  const body = followRef(document, op.bundled?.requestBody, `${base}/requestBody`);
  const media = body.node?.content?.['application/json'];
  if (!media) return [];
  const schema = followRef(document, media.schema, `${body.pointer}/content/application~1json/schema`);
  const dereferenced = op.requestBody?.content?.['application/json']?.schema?.properties ?? {};
  const rules = [];
  for (const [field, bundled] of Object.entries(schema.node?.properties ?? {})) {
    const prop = followRef(document, bundled, `${schema.pointer}/properties/${escapeKey(field)}`);
    const on = { kind: 'rule', operationId: op.operationId, field, schema: dereferenced[field] ?? prop.node };
    const add = (rule, value, pointer, more = {}) =>
      rules.push({ ...on, rule, value, ...more, pointer, source: cite(pointer) });
    for (const keyword of RULE_KEYWORDS)
      if (prop.node[keyword] !== undefined) add(keyword, prop.node[keyword], `${prop.pointer}/${keyword}`);
    const from = prop.node['x-values-from'];
    if (from)
      add('values-from', undefined, `${prop.pointer}/x-values-from`, {
        listing: from.operation,
        listField: from.field,
        says: from.says,
      });
    (prop.node['x-special-values'] ?? []).forEach((special, i) => {
      add('special', special.value, `${prop.pointer}/x-special-values/${i}`, {
        says: special.says,
        scope: special.scope,
      });
    });
    if (prop.node['x-free-text'] === true) add('free-text', true, `${prop.pointer}/x-free-text`);
  }
  return rules;
}
