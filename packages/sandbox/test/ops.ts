// The operations of the bundled spec as the input tests need them: method, path (with /v1 where
// it belongs), whether a token is needed, parameters, request body, documented responses.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
export const spec = JSON.parse(readFileSync(require.resolve('@hosting-api/openapi/openapi.json'), 'utf8'));

export const deref = (x: any): any =>
  x && typeof x.$ref === 'string' ? deref(spec.components[x.$ref.split('/')[2]][x.$ref.split('/')[3]]) : x;

export interface Op {
  operationId: string;
  method: string;
  path: string;
  auth: boolean;
  params: any[];
  body: any;
  responses: Record<string, unknown>;
}
export const OPS: Op[] = [];
for (const [path, item] of Object.entries<any>(spec.paths)) {
  for (const method of ['get', 'post', 'put', 'delete']) {
    const op = item[method];
    if (!op) continue;
    OPS.push({
      operationId: op.operationId,
      method: method.toUpperCase(),
      path: path.startsWith('/auth/') ? path : `/v1${path}`,
      auth: (op.security ?? spec.security).length > 0,
      params: [...(item.parameters ?? []), ...(op.parameters ?? [])].map(deref),
      body: deref(op.requestBody),
      responses: op.responses,
    });
  }
}

/** The path with every parameter set to its example (the seeded resources), one overridden. */
export const pathOf = (op: Op, override: Record<string, string> = {}) =>
  op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (name in override) return override[name]!;
    const p = op.params.find((x) => x.in === 'path' && x.name === name);
    return encodeURIComponent(String(p.example));
  });
