// Checks a response against the spec: the status must be documented for the operation and the
// body must validate against that status's schema (JSON Schema 2020-12, as OpenAPI 3.1 says).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const require = createRequire(import.meta.url);
const spec = JSON.parse(readFileSync(require.resolve('@hosting-api/openapi/openapi.json'), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema(spec, 'spec.json');

const byId = new Map<string, { path: string; method: string; op: any }>();
for (const [path, item] of Object.entries<any>(spec.paths)) {
  for (const method of ['get', 'post', 'put', 'delete']) {
    if (item[method]) byId.set(item[method].operationId, { path, method, op: item[method] });
  }
}
const pointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Returns the problems (empty when the response agrees with the spec). */
export function specProblems(operationId: string, status: number, body: unknown): string[] {
  const entry = byId.get(operationId);
  if (!entry) return [`unknown operation ${operationId}`];
  let response = entry.op.responses[String(status)];
  if (!response) return [`${operationId}: status ${status} is not documented (${Object.keys(entry.op.responses).join(', ')})`];
  let ref = `spec.json#/paths/${pointer(entry.path)}/${entry.method}/responses/${status}`;
  if (response.$ref) {
    ref = `spec.json${response.$ref}`;
    response = spec.components.responses[response.$ref.split('/').pop()];
  }
  if (!response.content) return body === undefined || body === '' ? [] : [`${operationId} ${status}: body where none is documented`];
  const validate = ajv.getSchema(`${ref}/content/application~1json/schema`) ?? ajv.compile({ $ref: `${ref}/content/application~1json/schema` });
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${operationId} ${status}: ${e.instancePath || '/'} ${e.message}`);
}
