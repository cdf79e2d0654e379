// The spec model of @hosting-api/openapi (the bundle the schemas were generated from), for the tests.
import { type Json, loadModel } from '@hosting-api/openapi/model';

export type { Json };

const model = await loadModel();
/** The bundled document (`$ref`s kept: the tests read component names from them). */
export const spec: Json = model.document;
/** A node of the bundle with its `$ref`s followed. */
export const deref: (node: Json) => Json = model.follow;

export interface Operation {
  id: string;
  method: string;
  path: string;
  /** The operation as bundled (`$ref`s kept). */
  op: Json;
  /** Its parameters, path item's included, dereferenced. */
  parameters: Json[];
}

export const operationsInSpec: Operation[] = model.operations.map((o) => ({
  id: o.operationId,
  method: o.method,
  path: o.path,
  op: o.bundled,
  parameters: o.parameters,
}));

/** The JSON (or form) media object of a body or response. */
export const media = (content: Json): Json =>
  content?.['application/json'] ?? content?.['application/x-www-form-urlencoded'];

/** Named examples (`examples: {Name: {value}}`, refs followed) and a lone `example`. */
export function examplesOf(m: Json): [string, Json][] {
  const named = Object.entries(m?.examples ?? {}).map(([name, ex]): [string, Json] => [name, deref(ex).value]);
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
