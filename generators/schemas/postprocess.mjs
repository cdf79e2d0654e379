// Finishes orval's zod output: markers → zod calls, public names, and the operationId lookup.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CATCHALL, MARK, bodySchema, componentOperationId, successStatus } from './prepare.mjs';

const VERBS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const BOOL = 'bool';
const STRINGBOOL = "zod.stringbool({ truthy: ['true'], falsy: ['false'] })";
const CALLS = {
  [MARK.int]: '.int()',
  [MARK.strict]: '.strict()',
  [MARK.loose]: '.loose()',
  [MARK.bool]: BOOL,
};
const HEADER =
  '// Generated from the bundled spec by orval (zod client) and generators/schemas. Do not edit.\n';

/** Index just past the expression starting at `from` (stops at an unmatched closer or `,`). */
function expressionEnd(text, from) {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"' || c === '`') {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
    } else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) {
      if (depth === 0) return i;
      depth--;
    } else if (c === ',' && depth === 0) return i;
  }
  throw new Error('unbalanced orval output');
}

function applyMarkers(text) {
  // orval sometimes glues the constants of nested arrays onto one line.
  text = text.replace(/;(export const )/g, ';\n$1');
  const markers = new Map();
  text = text.replace(
    /^export const (\w+) = new RegExp\('(__\w+__)'\);\n*/gm,
    (line, name, mark) => (CALLS[mark] ? (markers.set(name, CALLS[mark]), '') : line),
  );
  // A string parameter "true"/"false" (as a server receives it) or a boolean (as a client has it).
  text = text.replace(/zod\.boolean\(\)\.regex\((\w+)\)/g, (call, name) =>
    markers.get(name) === BOOL ? `zod.union([zod.boolean(), ${STRINGBOOL}])` : call,
  );
  text = text.replace(/\.regex\((\w+)\)/g, (call, name) => markers.get(name) ?? call);

  // `..., "__catchall__": <schema>\n})` → `...\n}).catchall(<schema>)`
  const key = `"${CATCHALL}": `;
  for (let at = text.indexOf(key); at >= 0; at = text.indexOf(key)) {
    const start = at + key.length;
    const end = expressionEnd(text, start);
    const schema = text.slice(start, end).trim();
    const before = text.slice(0, at).replace(/,\s*$/, '');
    const after = text.slice(end); // starts with the object's closing `})`
    text = `${before}\n})${`.catchall(${schema})`}${after.replace(/^\}\)/, '')}`;
  }
  for (const mark of [...Object.keys(CALLS), CATCHALL])
    if (text.includes(mark)) throw new Error(`marker ${mark} left in orval output`);
  return text;
}

// Only the schemas are public: orval also exports its bound constants (`...Min`, `...RegExp`).
const unexportConstants = (text) => text.replace(/^export const (\w+) = (?!zod\b)/gm, 'const $1 = ');

const withNote = (text) => HEADER + text.trimStart();

export function finishOperations(text) {
  return withNote(unexportConstants(applyMarkers(text)));
}

export function finishComponents(text, spec) {
  // orval's name for a synthetic operation's response, computed with orval's own camel().
  const { camel } = createRequire(join(process.cwd(), 'package.json'))('orval');
  text = unexportConstants(applyMarkers(text));
  const names = Object.keys(spec.components?.schemas ?? {});
  for (const name of names) {
    const orvalName = camel(`${camel(componentOperationId(name))}--response`);
    if (!new RegExp(`^export const ${orvalName} = `, 'm').test(text))
      throw new Error(`orval emitted no schema for component ${name} (expected ${orvalName})`);
    text = text.replace(new RegExp(`\\b${orvalName}(Item)?\\b`, 'g'), `${name}$1`);
  }
  const types = names.map((n) => `export type ${n} = zod.infer<typeof ${n}>;`).join('\n');
  return withNote(`${text.trimEnd()}\n\n${types}\n`);
}

const exported = (text) => new Set([...text.matchAll(/^export const (\w+) = zod\b/gm)].map((m) => m[1]));

/** src/generated/operations.ts: `operations[operationId]` → its schemas. */
export function writeLookup(spec, endpointsTs, componentsTs) {
  const fromEndpoints = exported(endpointsTs);
  const fromComponents = exported(componentsTs);
  const used = { endpoints: new Set(), components: new Set() };
  const need = (set, file, name, why) => {
    if (!set.has(name)) throw new Error(`${why}, but ${file} has no export ${name}`);
    used[file].add(name);
    return name;
  };
  const entries = [];
  for (const [path, item] of Object.entries(spec.paths ?? {})) {
    for (const verb of VERBS) {
      const op = item[verb];
      if (!op) continue;
      const id = op.operationId;
      if (!id) throw new Error(`${verb.toUpperCase()} ${path} has no operationId`);
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) =>
        p.$ref ? spec.components.parameters[p.$ref.split('/').pop()] : p,
      );
      const has = (where) => params.some((p) => p.in === where);
      const body = op.requestBody?.$ref
        ? spec.components.requestBodies[op.requestBody.$ref.split('/').pop()]
        : op.requestBody;
      const bodyType = body && Object.keys(body.content ?? {})[0];
      const ok = successStatus(op);
      const responses = [];
      for (const [code, r] of Object.entries(op.responses ?? {})) {
        const res = r.$ref ? spec.components.responses[r.$ref.split('/').pop()] : r;
        const schema = bodySchema(res.content);
        if (!schema) continue;
        if (code === ok) {
          responses.push([code, need(fromEndpoints, 'endpoints', `${id}Response`, `${id} ${code} has a body`)]);
        } else if (schema.$ref?.startsWith('#/components/schemas/')) {
          const name = schema.$ref.split('/').pop();
          responses.push([code, need(fromComponents, 'components', name, `${id} ${code} uses ${name}`)]);
        } else {
          throw new Error(`${id} ${code}: give the response body a component schema (it is inline)`);
        }
      }
      const slot = (cond, name, why) => (cond ? need(fromEndpoints, 'endpoints', name, why) : 'undefined');
      const success = responses.find(([code]) => code === ok)?.[1] ?? 'undefined';
      entries.push(
        `  ${id}: {\n` +
          `    method: '${verb}',\n` +
          `    path: '${path}',\n` +
          `    status: ${ok ?? 'undefined'},\n` +
          `    requestContentType: ${bodyType ? `'${bodyType}'` : 'undefined'},\n` +
          `    params: ${slot(has('path'), `${id}Params`, `${id} has path parameters`)},\n` +
          `    query: ${slot(has('query'), `${id}QueryParams`, `${id} has query parameters`)},\n` +
          `    headers: ${slot(has('header'), `${id}Header`, `${id} has header parameters`)},\n` +
          `    body: ${slot(bodySchema(body?.content), `${id}Body`, `${id} has a request body`)},\n` +
          `    bodyRequired: ${body?.required === true},\n` +
          `    response: ${success},\n` +
          `    responses: { ${responses.map(([c, n]) => `${c}: ${n}`).join(', ')} },\n` +
          `  },`,
      );
    }
  }
  const imports = (names, file) =>
    names.size ? `import {\n${[...names].sort().map((n) => `  ${n},`).join('\n')}\n} from './${file}';\n` : '';
  return (
    `// Generated by generators/schemas/postprocess.mjs from the bundled spec. Do not edit.\n` +
    `import type { OperationSchemas } from '../types';\n` +
    imports(used.components, 'components') +
    imports(used.endpoints, 'endpoints') +
    `\n/** Every operation's schemas, keyed by operationId. */\n` +
    `export const operations = {\n${entries.join('\n')}\n} as const satisfies Record<string, OperationSchemas>;\n\n` +
    `/** An operationId of the API. */\n` +
    `export type OperationId = keyof typeof operations;\n`
  );
}
