// The one model of the spec that every part of the repo reads: the bundled document, dereferenced
// (dereference.js; Redocly's openapi-core where that cannot), as a list of operations plus the rules
// the spec states (which operations are token operations served outside /v1, the auth root, the
// shared message texts).
// Nothing here is a hand-kept list: every fact is read from the document.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { dereferenceLocal, pointerKeys, redoclyDereference } from './dereference.js';
import { stateFollow, subjectRead } from './follow.js';
import { readStatements } from './statements.js';

export { dataSchema, pathParams } from './follow.js';
export { resolveTarget, TargetError, VERSION_PATH } from './target.js';

export const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** Path of the bundled spec of this package (made by its `bundle` script). */
// import.meta.dirname, not `new URL(…, import.meta.url)`: under a DOM test environment (happy-dom,
// jsdom) the global URL is the DOM's, which node:url's fileURLToPath refuses.
export const specPath = () => join(import.meta.dirname, '../dist/openapi.json');

/** A server's URL with its variables set to their defaults, without a trailing `/`. */
export function serverUrl(server) {
  let url = server?.url ?? '';
  for (const [name, v] of Object.entries(server?.variables ?? {})) url = url.replaceAll(`{${name}}`, v.default);
  return url.replace(/\/$/, '');
}

/**
 * Destructive: loses data or cannot be undone. Every DELETE, and whatever the spec marks
 * `x-destructive: true` (a restore, a batch removal, a revocation, a password reset); an explicit
 * `x-destructive: false` wins over the method. The one rule the CLI's guard and the MCP server read.
 */
export function isDestructive(operation, method) {
  const marked = operation?.['x-destructive'];
  return typeof marked === 'boolean' ? marked : String(method).toLowerCase() === 'delete';
}

/** Methods that ask only to read (RFC 9110 §9.2.1). */
export const SAFE_METHODS = ['get', 'head', 'options', 'trace'];

/**
 * Safe: the method is safe and the spec states no effect for it (`x-effects`, e.g. the SSH
 * disconnect GET, the database-admin URL GET). The one rule the gate's read-only mode, the MCP
 * server's `--read-only` and `readOnlyHint`, and the CLI's confirmation read.
 */
export function isSafe(operation, method) {
  return SAFE_METHODS.includes(String(method).toLowerCase()) && operation?.['x-effects'] === undefined;
}

/** Reads a bundled spec (a JSON or YAML file, default `specPath()`, or a document) into the model. */
export async function loadModel(source = specPath()) {
  let document;
  if (typeof source === 'string') {
    try {
      const text = readFileSync(source, 'utf8');
      document = /^\s*\{/.test(text) ? JSON.parse(text) : (await import('@redocly/openapi-core')).parseYaml(text);
    } catch (error) {
      // Only the package's own bundle can be missing because it was not built yet.
      const hint =
        source === specPath() && error.code === 'ENOENT'
          ? '. Bundle it first: pnpm --filter @hosting-api/openapi bundle'
          : ': give a bundled OpenAPI document, JSON or YAML';
      throw new Error(`cannot read the spec ${source} (${error.code ?? error.message})${hint}`);
    }
  } else document = source;
  const dereferenced =
    dereferenceLocal(document) ??
    (await redoclyDereference(document, typeof source === 'string' ? source : '/in-memory/openapi.json'));
  // Where the spec's behaviour statements are written (dist/sources.json, made by `bundle`).
  let sources = {};
  if (typeof source === 'string')
    try {
      sources = JSON.parse(readFileSync(join(dirname(source), 'sources.json'), 'utf8'));
    } catch {}
  return buildModel(document, dereferenced, sources);
}

/**
 * The model of a bundled document and its dereferenced copy; `sources` maps a statement's JSON
 * pointer to `spec/<file>:<line>` (without it, statements cite their pointer).
 */
export function buildModel(document, dereferenced, sources = {}) {
  const rootServers = dereferenced.servers ?? [];
  const operations = [];
  for (const [path, item] of Object.entries(dereferenced.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const own = op.parameters ?? [];
      const key = (p) => `${p.in}:${p.name}`;
      const parameters = [...(item.parameters ?? []).filter((p) => !own.some((o) => key(o) === key(p))), ...own];
      const ownServers = op.servers ?? item.servers;
      const servers = ownServers ?? rootServers;
      const security = op.security ?? dereferenced.security ?? [];
      const responses = op.responses ?? {};
      const success = Object.keys(responses).find((code) => /^2\d\d$/.test(code));
      operations.push({
        operationId: op.operationId,
        method,
        path,
        tags: op.tags ?? [],
        summary: op.summary ?? '',
        destructive: isDestructive(op, method),
        safe: isSafe(op, method),
        clientMethod: op['x-client-method'],
        security,
        requiresToken: security.length > 0,
        scopes: [...new Set(security.flatMap((req) => Object.values(req).flat()))],
        successStatus: success === undefined ? undefined : Number(success),
        parameters,
        requestBody: op.requestBody,
        requestBodyRequired: op.requestBody?.required === true,
        requestMediaTypes: Object.keys(op.requestBody?.content ?? {}),
        responses,
        responseMediaTypes: Object.fromEntries(
          Object.entries(responses).map(([c, r]) => [c, Object.keys(r.content ?? {})]),
        ),
        servers,
        baseUrl: serverUrl(servers[0]),
        outsideV1: Boolean(ownServers?.length) && serverUrl(ownServers[0]) !== serverUrl(rootServers[0]),
        operation: op,
        bundled: document.paths[path][method],
        bundledPathItem: document.paths[path],
      });
    }
  }
  for (const o of operations)
    Object.assign(o, { subjectRead: subjectRead(o, operations), stateFollow: stateFollow(o, operations) });
  const tokenOperations = operations.filter((o) => o.outsideV1);
  // Which token operation issues tokens and which revokes one, by what their form bodies require:
  // the OAuth 2 client-credentials grant (`grant_type` allowing `client_credentials`, RFC 6749
  // §4.4) and a `token` to revoke (RFC 7009 §2.1).
  const requestSchemas = (o) => Object.values(o.requestBody?.content ?? {}).map((m) => m.schema ?? {});
  const issueTokenOperation = tokenOperations.find((o) =>
    requestSchemas(o).some(
      (s) => s.required?.includes('grant_type') && s.properties?.grant_type?.enum?.includes('client_credentials'),
    ),
  );
  const revokeTokenOperation = tokenOperations.find(
    (o) => o !== issueTokenOperation && requestSchemas(o).some((s) => s.required?.includes('token')),
  );
  // The message of each shared error response, from its example (`BadRequest` → `There was ...`).
  const messages = {};
  for (const [name, response] of Object.entries(dereferenced.components?.responses ?? {})) {
    const media = response.content?.['application/json'];
    const example = media?.example ?? Object.values(media?.examples ?? {})[0]?.value;
    if (typeof example?.message === 'string') messages[name] = example.message;
  }
  const behaviour = readStatements(document, operations, sources);
  return {
    document,
    dereferenced,
    ...behaviour,
    follow(node) {
      for (let seen = 0; typeof node?.$ref === 'string'; seen++) {
        if (!node.$ref.startsWith('#/') || seen > 20) throw new Error(`cannot follow $ref ${node.$ref}`);
        const keys = pointerKeys(node.$ref);
        node = keys.reduce((at, key) => at?.[key], document);
        if (node === undefined) throw new Error(`$ref ${keys.join('/')} names nothing in the bundle`);
      }
      return node;
    },
    refName: (node) => (typeof node?.$ref === 'string' ? node.$ref.split('/').pop() : undefined),
    operations,
    operation(id) {
      const found = operations.find((o) => o.operationId === id);
      if (!found) throw new Error(`no operation ${id} in the spec`);
      return found;
    },
    apiUrl: serverUrl(rootServers[0]),
    authUrl: tokenOperations.length ? tokenOperations[0].baseUrl : undefined,
    tokenOperations,
    destructiveOperations: operations.filter((o) => o.destructive),
    safeOperations: operations.filter((o) => o.safe),
    issueTokenOperation,
    revokeTokenOperation,
    authPaths: [...new Set(tokenOperations.map((o) => o.path))],
    messages,
    successMessage: dereferenced.components?.schemas?.Message?.examples?.[0],
  };
}
