// Reads the bundled spec (the same file the schemas were generated from) for the tests.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/* eslint-disable @typescript-eslint/no-explicit-any */
export type Json = any;

const require = createRequire(import.meta.url);
export const spec: Json = JSON.parse(
  readFileSync(require.resolve('@hosting-api/openapi/openapi.json'), 'utf8'),
);

const VERBS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Follows one local `$ref` (`#/components/<kind>/<name>`). */
export function deref(obj: Json): Json {
  if (!obj?.$ref) return obj;
  const [, , kind, name] = obj.$ref.split('/');
  return deref(spec.components[kind][name]);
}

export interface Operation {
  id: string;
  method: string;
  path: string;
  op: Json;
  parameters: Json[];
}

export const operationsInSpec: Operation[] = Object.entries(spec.paths as Record<string, Json>).flatMap(
  ([path, item]) =>
    VERBS.filter((m) => item[m]).map((method) => ({
      id: item[method].operationId,
      method,
      path,
      op: item[method],
      parameters: [...(item.parameters ?? []), ...(item[method].parameters ?? [])].map(deref),
    })),
);

/** The JSON (or form) media object of a body or response. */
export const media = (content: Json): Json =>
  content?.['application/json'] ?? content?.['application/x-www-form-urlencoded'];

/** Named examples (`examples: {Name: {value}}`, refs followed) and a lone `example`. */
export function examplesOf(m: Json): [string, Json][] {
  const named = Object.entries(m?.examples ?? {}).map(([name, ex]): [string, Json] => [
    name,
    deref(ex).value,
  ]);
  return m && 'example' in m ? [...named, ['example', m.example]] : named;
}

export interface ResponseExample {
  operation: Operation;
  status: string;
  name: string;
  value: Json;
  schema: Json;
}

export const responseExamples: ResponseExample[] = operationsInSpec.flatMap((operation) =>
  Object.entries(operation.op.responses ?? {}).flatMap(([status, r]) => {
    const m = media(deref(r).content);
    return examplesOf(m).map(([name, value]) => ({ operation, status, name, value, schema: m.schema }));
  }),
);

export const bodyExamples = operationsInSpec.flatMap((operation) => {
  const m = media(deref(operation.op.requestBody)?.content);
  return examplesOf(m).map(([name, value]) => ({ operation, name, value }));
});
