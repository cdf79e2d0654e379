// Checks a response against the spec with the spec package's shared check (@hosting-api/openapi/check):
// the status must be documented for the operation and the body must validate against that
// status's schema (JSON Schema 2020-12, as OpenAPI 3.1 says).
import { createCheck } from '@hosting-api/openapi/check';
import { loadModel } from '@hosting-api/openapi/model';

const check = createCheck(await loadModel());

/**
 * Returns the problems (empty when the response agrees with the spec). `body` is the parsed JSON
 * body (undefined or '' for none); without `headers`, a JSON body is taken as `application/json`.
 */
export function specProblems(
  operationId: string,
  status: number,
  body: unknown,
  headers?: Headers | Record<string, string>,
): string[] {
  const none = body === undefined || body === '';
  const text = none ? undefined : JSON.stringify(body);
  let given = headers as Record<string, string> | undefined;
  if (headers instanceof Headers) {
    given = {};
    headers.forEach((value, name) => {
      given![name] = value;
    });
  }
  return check.response(operationId, status, given ?? (none ? {} : { 'content-type': 'application/json' }), text);
}
