// The operations of the bundled spec (@hosting-api/openapi's dist/openapi.json): every one is
// registered as a route, so the sandbox and the spec cannot disagree on what exists.
import { loadModel, type SpecModel } from '@hosting-api/openapi/model';
import { specDocument } from '../spec-document.js';

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
  /**
   * Whether the path parameters need their schema check after coercion: false when each one's
   * schema is a bare `type` (integer or string), which validateRequest's own coercion and checks
   * already decide (a safe integer, a non-empty string); true for a format such as email.
   */
  pathParamsNeedSchema: boolean;
  queryParams: Record<string, ParamType>;
  hasBody: boolean;
  bodyRequired: boolean;
  bodyContentTypes: string[];
}

let loaded: Promise<{ model: SpecModel; operations: SpecOperation[] }> | undefined;

/** The spec model of the bundled spec and its operations (read once per process). */
export function loadSpec(): Promise<{ model: SpecModel; operations: SpecOperation[] }> {
  loaded ??= loadModel(specDocument).then((model) => ({ model, operations: operationsOf(model) }));
  return loaded;
}

const METHODS = new Set(['get', 'post', 'put', 'delete', 'patch']);

/** The type a parameter's (dereferenced) schema names, `null` aside; `string` when it names none. */
const typeOf = (schema: { type?: string | string[] } | undefined): ParamType => {
  const t = Array.isArray(schema?.type) ? schema.type.find((x) => x !== 'null') : schema?.type;
  return (t ?? 'string') as ParamType;
};

export function operationsOf(model: SpecModel): SpecOperation[] {
  return model.operations
    .filter((o) => METHODS.has(o.method))
    .map((o) => {
      const params = (where: string) =>
        Object.fromEntries(o.parameters.filter((p) => p.in === where).map((p) => [p.name, typeOf(p.schema)]));
      return {
        operationId: o.operationId,
        method: o.method.toUpperCase() as SpecOperation['method'],
        path: o.path,
        root: o.outsideV1 ? 'auth' : 'v1',
        requiresToken: o.requiresToken,
        requiredScopes: o.scopes.filter((s) => s !== 'authorized'),
        successStatus: o.successStatus ?? 200,
        pathParams: params('path'),
        pathParamsNeedSchema: o.parameters.some(
          (p) => p.in === 'path' && (p.schema === undefined || Object.keys(p.schema).some((k) => k !== 'type')),
        ),
        queryParams: params('query'),
        hasBody: o.requestBody !== undefined,
        bodyRequired: o.requestBodyRequired,
        bodyContentTypes: o.requestMediaTypes,
      };
    });
}

/** `/sites/{site_id}` → `/sites/:site_id`. */
export const toRoutePath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');
