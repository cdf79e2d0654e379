// Redocly plugin: conventions that configurable rules cannot express (uniqueness across operations).
function uniqueClientMethod() {
  const seen = new Map();
  return {
    Operation(operation, { report, location }) {
      const name = operation['x-client-method'];
      if (typeof name !== 'string') return;
      if (seen.has(name)) {
        report({
          message: `x-client-method "${name}" is already used by ${seen.get(name)}; each operation needs its own client method.`,
          location: location.child('x-client-method'),
        });
      } else {
        seen.set(name, operation.operationId);
      }
    },
  };
}

// Behaviour statements (CONVENTIONS.md): a list or search states its order (`x-list.order`, or
// `silent` where the documentation says none) and a write states its effect on reads (`x-effects`,
// or `silent`); each statement uses the kinds the checks know.
const LIST_KINDS_ORDER = ['asc', 'desc'];
// The same list as spec/model/statements.js: spec:diff bundles a release's spec with this plugin
// outside the workspace, where an import of the model failed to resolve (test/release/spec-diff.test.ts).
const EFFECT_KINDS = [
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
// Words of a GET's description that name an effect besides reading (CONVENTIONS.md, "Safe").
const NAMES_AN_EFFECT =
  /side effect|terminat|disconnect|time-limited|one-time|single-use|only when about to use|\breset|\brevok|invalidat|expires? (?:the|any)/i;
const OPERATORS = ['equals', 'contains', 'equals-or-contains'];
const UNITS = ['seconds', 'epoch-seconds', 'GiB', 'utc-milliseconds'];
const isList = (id) => /^(list|search)[A-Z]/.test(id ?? '');
const isWrite = (method, id) =>
  ['post', 'put', 'patch', 'delete'].includes(method) && !/^(search|validate|query)[A-Z]/.test(id ?? '');

function behaviourStatements() {
  return {
    // Operations of `paths` only: a webhook is not called by a client.
    Paths: { PathItem: { Operation: checkOperation } },
    Schema(schema, { report, location }) {
      const relation = schema?.['x-relation'];
      const kinds = [relation?.countOf, relation?.lastSegmentOf].filter((f) => typeof f === 'string');
      if (relation !== undefined && !(kinds.length === 1 || relation?.movesOnChange === true))
        report({
          message:
            'x-relation is {countOf: <sibling list field>}, {lastSegmentOf: <sibling URL field>} or {movesOnChange: true, notBefore?: <timestamp field>}.',
          location: location.child('x-relation'),
        });
      const unit = schema?.['x-unit'];
      if (unit !== undefined && !UNITS.includes(unit))
        report({ message: `x-unit is one of ${UNITS.join(', ')}.`, location: location.child('x-unit') });
      // Field rules (CONVENTIONS.md, "Field rules").
      const from = schema?.['x-values-from'];
      if (from !== undefined && !/^list[A-Z]/.test(from?.operation ?? ''))
        report({
          message: 'x-values-from is {operation: <the listing operationId, list…>, field?: <item field>, says}.',
          location: location.child('x-values-from'),
        });
      const special = schema?.['x-special-values'];
      if (
        special !== undefined &&
        !(Array.isArray(special) && special.every((v) => typeof v === 'object' && v !== null && 'value' in v && v.says))
      )
        report({
          message: 'x-special-values is a list of {value, says, scope?: all}.',
          location: location.child('x-special-values'),
        });
      if (schema?.['x-free-text'] !== undefined && schema['x-free-text'] !== true)
        report({ message: 'x-free-text is true, or left out.', location: location.child('x-free-text') });
    },
  };
  function checkOperation(operation, { report, location, key }) {
    const id = operation.operationId;
    const list = operation['x-list'];
    if (isList(id)) {
      if (!list || list.order === undefined)
        report({
          message: `${id} is a list: state its documented order in x-list.order (or order: silent where the documentation states none; see spec/CONVENTIONS.md).`,
          location: location.key(),
        });
      else if (list.order !== 'silent' && !Array.isArray(list.order))
        report({
          message: 'x-list.order is a list of {field, direction} or silent.',
          location: location.child(['x-list', 'order']),
        });
      else if (Array.isArray(list.order))
        list.order.forEach((o, i) => {
          if (!LIST_KINDS_ORDER.includes(o?.direction))
            report({
              message: 'An order statement has direction asc or desc.',
              location: location.child(['x-list', 'order', i]),
            });
        });
      (list?.filters ?? []).forEach((f, i) => {
        if (!f?.field || !OPERATORS.includes(f.operator) || !(f.query || f.body))
          report({
            message: `A filter statement has field, operator (${OPERATORS.join(', ')}) and the query or body that applies it.`,
            location: location.child(['x-list', 'filters', i]),
          });
      });
    }
    if (key === 'get' && operation['x-effects'] === undefined) {
      const named = String(operation.description ?? '').match(NAMES_AN_EFFECT)?.[0];
      if (named)
        report({
          message: `${id} is a GET whose description names an effect ("${named}"): state it in x-effects, so that read-only tools leave it out (see spec/CONVENTIONS.md, "Safe").`,
          location: location.key(),
        });
    }
    if (isWrite(key, id) || (key === 'get' && operation['x-effects'] !== undefined)) {
      const effects = operation['x-effects'];
      if (effects === undefined)
        report({
          message: `${id} is a write: state its effect on the reads in x-effects (or x-effects: silent where the documentation states none; see spec/CONVENTIONS.md).`,
          location: location.key(),
        });
      else if (effects !== 'silent' && !(Array.isArray(effects) && effects.length))
        report({
          message: 'x-effects is a non-empty list of effects or silent.',
          location: location.child('x-effects'),
        });
      else if (Array.isArray(effects))
        effects.forEach((e, i) => {
          if (!EFFECT_KINDS.includes(e?.kind))
            report({
              message: `An effect's kind is one of ${EFFECT_KINDS.join(', ')}.`,
              location: location.child(['x-effects', i]),
            });
        });
    }
  }
}

// States (CONVENTIONS.md, `x-state`): a write that answers a resource with a state field (`state` or
// `status`, a string), or deletes one, states its transition (or `x-state: silent` where part 3's
// table states none); a transition names the read that shows it and only the keys the checks know.
const STATE_KEYS = ['read', 'on', 'match', 'requires', 'refused', 'after', 'settles', 'adds', 'says'];
function stateTransitions() {
  let pathGet; // the GET of the path item being visited
  // Follows a $ref from the file it is written in; returns the node and the file it is in.
  const follow = (node, from, resolve) => {
    if (!node?.$ref) return { node, from };
    const r = resolve(node, from);
    return { node: r.node, from: r.location?.source?.absoluteRef ?? from };
  };
  const stateFieldOf = (operation, from, resolve) => {
    if (!operation) return undefined;
    const success = Object.keys(operation.responses ?? {}).find((s) => /^2/.test(s));
    const response = follow(operation.responses?.[success], from, resolve);
    const envelope = follow(response.node?.content?.['application/json']?.schema, response.from, resolve);
    const data = follow(envelope.node?.properties?.data, envelope.from, resolve);
    return ['state', 'status'].find((f) => {
      const field = follow(data.node?.properties?.[f], data.from, resolve).node;
      return [field?.type].flat().includes('string');
    });
  };
  return {
    Paths: {
      PathItem: {
        enter(pathItem) {
          pathGet = pathItem.get;
        },
        Operation(operation, { report, location, key, resolve }) {
          const id = operation.operationId;
          if (!isWrite(key, id)) return;
          const from = location.source.absoluteRef;
          const field =
            stateFieldOf(operation, from, resolve) ??
            (key === 'delete' ? stateFieldOf(pathGet, from, resolve) : undefined);
          const state = operation['x-state'];
          if (field && state === undefined)
            report({
              message: `${id} writes a resource with a state field (${field}): state its transition in x-state (or x-state: silent where the documentation's states table states none; see spec/CONVENTIONS.md).`,
              location: location.key(),
            });
          if (state === undefined || state === 'silent') return;
          const unknown = Object.keys(state ?? {}).filter((k) => !STATE_KEYS.includes(k));
          if (typeof state !== 'object' || !state.read || !(state.after || state.settles) || unknown.length)
            report({
              message: `x-state is silent or {read, after and/or settles${unknown.length ? `; not ${unknown.join(', ')}` : ''}} (keys: ${STATE_KEYS.join(', ')}).`,
              location: location.child('x-state'),
            });
        },
      },
    },
  };
}

export default function hostingApiPlugin() {
  return {
    id: 'hosting-api',
    rules: {
      oas3: {
        'unique-client-method': uniqueClientMethod,
        'behaviour-statements': behaviourStatements,
        'state-transitions': stateTransitions,
      },
    },
  };
}
