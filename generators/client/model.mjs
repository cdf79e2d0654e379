// Reads the bundled spec into a small model of operations and renders the grouped client from it.
// The grouping comes only from each operation's `x-client-method` (e.g. `sites.backups.ondemand.create`).

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
// Names the hand-written client object already uses at its top level.
const RESERVED = new Set(['paginate', 'revoke', 'request', 'toString', 'constructor']);
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const pascal = (s) => s.replace(/(^|[^A-Za-z0-9])([A-Za-z0-9])/g, (_, __, c) => c.toUpperCase());
const camel = (s) => s.replace(/[-_]+([A-Za-z0-9])/g, (_, c) => c.toUpperCase());
const str = (s) => JSON.stringify(s);

function resolver(spec) {
  return function deref(node) {
    let seen = 0;
    while (node && typeof node === 'object' && typeof node.$ref === 'string') {
      if (++seen > 20 || !node.$ref.startsWith('#/')) throw new Error(`cannot resolve $ref ${node.$ref}`);
      node = node.$ref
        .slice(2)
        .split('/')
        .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce((acc, key) => acc?.[key], spec);
    }
    return node;
  };
}

/** Builds the operation model; throws with a message that says what to fix in the spec. */
export function buildModel(spec) {
  const deref = resolver(spec);
  const operations = [];
  const problems = [];
  const seenMethods = new Map();

  for (const [path, rawItem] of Object.entries(spec.paths ?? {})) {
    const item = deref(rawItem);
    for (const verb of METHODS) {
      const op = item[verb];
      if (!op) continue;
      const where = `${verb.toUpperCase()} ${path}`;
      const id = op.operationId;
      const clientMethod = op['x-client-method'];
      if (!id) problems.push(`${where}: no operationId`);
      if (typeof clientMethod !== 'string' || !clientMethod.split('.').every((s) => IDENT.test(s)) || !clientMethod.includes('.')) {
        problems.push(`${where}: x-client-method must be a dotted name like \`sites.notes.list\` (got ${str(clientMethod)})`);
        continue;
      }
      if (seenMethods.has(clientMethod)) {
        problems.push(`${where}: x-client-method \`${clientMethod}\` is already used by ${seenMethods.get(clientMethod)}`);
        continue;
      }
      seenMethods.set(clientMethod, where);
      if (RESERVED.has(clientMethod.split('.')[0])) problems.push(`${where}: x-client-method may not start with \`${clientMethod.split('.')[0]}\` (reserved)`);

      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map(deref);
      const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const name of pathParams) {
        if (!params.some((p) => p.in === 'path' && p.name === name)) problems.push(`${where}: path parameter {${name}} is not declared`);
      }
      const query = params.filter((p) => p.in === 'query');
      const paginateParam = query.find((p) => p.name === 'paginate' && deref(p.schema)?.type === 'boolean')?.name;

      let body = null;
      if (op.requestBody) {
        const rb = deref(op.requestBody);
        const contentType = Object.keys(rb.content ?? {})[0];
        if (contentType) {
          const schema = deref(rb.content[contentType].schema) ?? {};
          body = {
            contentType,
            required: rb.required === true,
            keys: Object.keys(schema.properties ?? {}),
            hasRequiredKeys: (schema.required ?? []).length > 0,
            isObject: schema.type === 'object' || !!schema.properties,
          };
        }
      }
      if (body && query.length && !body.isObject) {
        problems.push(`${where}: a non-object body cannot be merged with query parameters into one input`);
      }
      if (body && query.some((q) => body.keys.includes(q.name))) {
        problems.push(`${where}: query parameter and body property share a name; the merged input would be ambiguous`);
      }

      const statuses = Object.keys(op.responses ?? {});
      const success = statuses.find((s) => /^2\d\d$/.test(s));
      if (!success) problems.push(`${where}: no 2xx response`);
      const okResponse = success ? deref(op.responses[success]) : {};
      const json = okResponse?.content?.['application/json'];
      const envelope = json ? deref(json.schema) : null;
      const paginated = !!envelope?.properties?.page;

      const security = op.security ?? spec.security ?? [];
      const servers = op.servers ?? item.servers;
      // Non-idempotent: POST/PATCH, and PUTs that flip state on every call (toggles).
      // `x-idempotent` on the operation overrides the rule.
      const idempotent =
        typeof op['x-idempotent'] === 'boolean'
          ? op['x-idempotent']
          : ['get', 'head', 'options', 'delete'].includes(verb) ||
            (verb === 'put' && !/^toggle/.test(id ?? '') && !clientMethod.endsWith('.toggle'));

      operations.push({
        id,
        clientMethod,
        segments: clientMethod.split('.'),
        verb,
        method: verb.toUpperCase(),
        path,
        summary: op.summary ?? '',
        tag: op.tags?.[0] ?? '',
        pathParams: pathParams.map((name) => ({ name, ts: camel(name) })),
        query: query.map((p) => ({ name: p.name, required: p.required === true })),
        paginateParam,
        body,
        success: success ? Number(success) : 200,
        hasJson: !!json,
        paginated,
        base: servers && servers.length ? 'auth' : 'api',
        auth: security.length > 0,
        idempotent,
        bodyOnGet: verb === 'get' && !!body,
      });
    }
  }

  // A method name may not also be a group (`sites.backups` and `sites.backups.list`).
  const names = new Set(operations.map((o) => o.clientMethod));
  for (const o of operations) {
    for (let i = 1; i < o.segments.length; i++) {
      const prefix = o.segments.slice(0, i).join('.');
      if (names.has(prefix)) problems.push(`x-client-method \`${prefix}\` is both a method and a group (see \`${o.clientMethod}\`)`);
    }
  }
  if (problems.length) throw new Error(`the spec cannot be turned into a client:\n  - ${problems.join('\n  - ')}`);

  const groups = new Set(operations.flatMap((o) => o.segments.slice(0, -1).map((_, i) => o.segments.slice(0, i + 1).join('.'))));
  return { operations, groups: groups.size, title: spec.info?.title ?? '' };
}

function typesFor(o) {
  const T = pascal(o.id);
  const opRef = `operations[${str(o.id)}]`;
  const lines = [];
  const parts = [];
  if (o.query.length) parts.push(`NonNullable<${opRef}['parameters']['query']>`);
  if (o.body) parts.push(`NonNullable<${opRef}['requestBody']>['content'][${str(o.body.contentType)}]`);
  const hasInput = parts.length > 0;
  const inputRequired = o.query.some((q) => q.required) || (!!o.body && o.body.required && o.body.hasRequiredKeys);
  if (hasInput) lines.push(`/** Input of \`${o.clientMethod}\` (${o.method} ${o.path}). */\nexport type ${T}Input = ${parts.join(' & ')};`);
  if (o.hasJson) {
    lines.push(`/** Response envelope of \`${o.clientMethod}\`. */\nexport type ${T}Envelope = ${opRef}['responses'][${o.success}]['content']['application/json'];`);
    lines.push(
      o.paginated
        ? `/** Result of \`${o.clientMethod}\`: the envelope's \`data\` and \`page\`. */\nexport type ${T}Result = Paged<${T}Envelope>;`
        : `/** Result of \`${o.clientMethod}\`: the envelope's \`data\`. */\nexport type ${T}Result = ${T}Envelope['data'];`,
    );
  } else {
    lines.push(`/** \`${o.clientMethod}\` answers with no JSON body. */\nexport type ${T}Envelope = EmptyEnvelope;\nexport type ${T}Result = void;`);
  }
  const args = [
    ...o.pathParams.map((p) => `${p.ts}: ${opRef}['parameters']['path'][${str(p.name)}]`),
    ...(hasInput ? [`input${inputRequired ? '' : '?'}: ${T}Input`] : []),
  ];
  return { T, lines, hasInput, args };
}

function renderMeta(o, hasInput) {
  const meta = {
    id: o.id,
    method: o.method,
    path: o.path,
    pathParams: o.pathParams.map((p) => p.name),
    hasInput,
    base: o.base,
    auth: o.auth,
    idempotent: o.idempotent,
    paginated: o.paginated,
    ...(o.paginateParam ? { paginateParam: o.paginateParam } : {}),
    ...(o.bodyOnGet ? { bodyOnGet: true } : {}),
    ...(o.body?.required ? { bodyRequired: true } : {}),
  };
  return JSON.stringify(meta);
}

function renderCall(o, hasInput) {
  const path = o.pathParams.map((_, i) => `p[${i}] as never`);
  const body = o.body ? (o.body.required ? '(b ?? {}) as never' : 'b as never') : null;
  let prelude = '';
  const args = [...path];
  if (o.body && o.query.length) {
    prelude = `const [q, b] = splitInput(i, ${JSON.stringify(o.query.map((q) => q.name))}); `;
    args.push(body, 'q as never');
  } else if (o.body) {
    prelude = 'const b = i; ';
    args.push(body);
  } else if (o.query.length) {
    args.push('i as never');
  }
  args.push('init');
  const params = hasInput ? 'p, i, init' : 'p, _i, init';
  return `(${params}) => { ${prelude}return api.${o.id}(${args.join(', ')}); }`;
}

/** Renders src/generated/client.ts. */
export function renderClient(model) {
  const tree = {};
  const typeLines = [];
  const metaLines = [];
  for (const o of model.operations) {
    const { T, lines, hasInput, args } = typesFor(o);
    typeLines.push(...lines);
    metaLines.push(`  ${o.id}: ${renderMeta(o, hasInput)},`);
    let node = tree;
    for (const seg of o.segments.slice(0, -1)) node = node[seg] ??= {};
    const doc = `/** ${o.summary.replace(/\*\//g, '*\\/')}${o.summary ? ' — ' : ''}\`${o.method} ${o.path}\`${o.paginated ? ' (paginated)' : ''} */`;
    node[o.segments.at(-1)] = {
      leaf: true,
      text: `${doc}\n$INDENT${o.segments.at(-1)}: operation<[${args.join(', ')}], ${T}Result, ${T}Envelope>(ctx, meta.${o.id}, ${renderCall(o, hasInput)}),`,
    };
  }
  const renderTree = (node, depth) => {
    const pad = '  '.repeat(depth);
    return Object.entries(node)
      .map(([key, val]) => (val.leaf ? pad + val.text.replace('$INDENT', pad) : `${pad}${key}: {\n${renderTree(val, depth + 1)}\n${pad}},`))
      .join('\n');
  };

  return `// Generated by generators/client/generate.mjs from spec/dist/openapi.json. Do not edit:
// change the spec (x-client-method, parameters, schemas) or the generator instead.
import type { operations } from './openapi';
import * as api from './orval/endpoints';
import { operation, splitInput, type ClientContext, type EmptyEnvelope, type OperationMeta, type Paged } from '../runtime/operation';

${typeLines.join('\n')}

/** What the runtime needs to know about each operation, read from the spec. */
export const meta = {
${metaLines.join('\n')}
} as const satisfies Record<string, OperationMeta>;

/** Builds the grouped operations of one client. */
export function createOperations(ctx: ClientContext) {
  return {
${renderTree(tree, 2)}
  };
}

/** The grouped operations (\`client.sites.notes.list\`, ...). */
export type HostingApiOperations = ReturnType<typeof createOperations>;
`;
}
