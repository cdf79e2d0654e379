// The spec model (model/index.js) of the bundled document (spec/dist/openapi.json, made by `bundle`).
import { type Json, loadModel } from '../model/index.js';

export type { Json };
export const model = await loadModel();
/** The bundled document as written (`$ref`s kept). */
export const doc: Json = model.document;
/** Every operation, dereferenced; `op` is the operation object. */
export const operations = model.operations.map((o) => ({ ...o, op: o.operation as Json }));
