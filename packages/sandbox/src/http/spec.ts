// The operations of the bundled spec (@hosting-api/openapi's dist/openapi.json): every one is
// registered as a route, so the sandbox and the spec cannot disagree on what exists.
import { loadModel, type SpecModel } from '@hosting-api/openapi/model';

export type ParamType = 'integer' | 'number' | 'boolean' | 'string' | 'array' | 'object';

export interface SpecOperation {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** The spec's path template, e.g. `/sites/{site_id}/notes`. */
  path: string;
  /** `auth` for the token operations (served at the auth root), `v1` for the rest. */
  root: 'auth' | 'v1';
  /** false for operations with `security: []`. */
  requiresToken: boolean;
  /** oauth2 scopes beyond `authorized` (`owner`, `git_edit`). */
  requiredScopes: string[];
  successStatus: number;
  pathParams: Record<string, ParamType>;
  queryParams: Record<string, ParamType>;
  hasBody: boolean;
  bodyRequired: boolean;
  bodyContentTypes: string[];
}

interface RawOp {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
}

let loaded: Promise<{ model: SpecModel; operations: SpecOperation[] }> | undefined;

/** The spec model of the bundled spec and its operations (read once per process). */
export function loadSpec(): Promise<{ model: SpecModel; operations: SpecOperation[] }> {
  loaded ??= loadModel().then((model) => ({ model, operations: operationsOf(model.document) }));
  return loaded;
}

export function operationsOf(spec: Record<string, any>): SpecOperation[] {
  const deref = (x: any): any => {
    if (!x || typeof x.$ref !== 'string') return x;
    const [, , kind, name] = x.$ref.split('/');
    return deref(spec.components[kind][name]);
  };
  const typeOf = (schema: any): ParamType => {
    const s = deref(schema) ?? {};
    const t = Array.isArray(s.type) ? s.type.find((x: string) => x !== 'null') : s.type;
    return (t ?? 'string') as ParamType;
  };
  const out: SpecOperation[] = [];
  for (const [path, item] of Object.entries<any>(spec.paths)) {
    for (const method of ['get', 'post', 'put', 'delete', 'patch'] as const) {
      const op = item[method] as RawOp | undefined;
      if (!op) continue;
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map(deref);
      const security = op.security ?? spec.security ?? [];
      const scopes = new Set<string>();
      if (op.security) for (const req of op.security) for (const s of req.oauth2 ?? []) scopes.add(s);
      scopes.delete('authorized');
      const body = deref(op.requestBody);
      const success = Object.keys(op.responses).map(Number).find((c) => c >= 200 && c < 300) ?? 200;
      const servers: { url: string }[] = item.servers ?? [];
      out.push({
        operationId: op.operationId,
        method: method.toUpperCase() as SpecOperation['method'],
        path,
        root: servers.length && !servers.some((s) => s.url.endsWith('/v1')) ? 'auth' : 'v1',
        requiresToken: security.length > 0,
        requiredScopes: [...scopes],
        successStatus: success,
        pathParams: Object.fromEntries(params.filter((p) => p.in === 'path').map((p) => [p.name, typeOf(p.schema)])),
        queryParams: Object.fromEntries(params.filter((p) => p.in === 'query').map((p) => [p.name, typeOf(p.schema)])),
        hasBody: Boolean(body),
        bodyRequired: Boolean(body?.required),
        bodyContentTypes: body ? Object.keys(body.content ?? {}) : [],
      });
    }
  }
  return out;
}

/** `/sites/{site_id}` → `/sites/:site_id`. */
export const toRoutePath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');
