// The response self-check (`selfCheck: true`, CLI `--self-check`): every answer of an API
// operation is checked against the spec before it is sent — the status must be one the operation
// documents, the Content-Type one that status declares, a JSON body valid against its schema
// (JSON Schema 2020-12, as OpenAPI 3.1 says, with ajv) and the documented required headers
// present. An answer that fails is replaced by a 500 envelope listing the problems, and onError
// is called: loud in tests and in the contract gate. Off by default (it costs time per request).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/** The problems of one answer; empty when the spec documents it. */
export type SelfCheck = (
  operationId: string,
  status: number,
  headers: Record<string, string | number>,
  body: string | Buffer | undefined,
) => string[];

interface OperationResponses {
  label: string;
  pointer: string;
  responses: Record<string, any>;
}

const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const mediaOf = (value: string | number | undefined) => String(value ?? '').split(';')[0]!.trim().toLowerCase();

export function createSelfCheck(spec: Record<string, any>): SelfCheck {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  (addFormatsModule as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema(spec, 'spec.json');
  const deref = (x: any): { value: any; pointer: string | null } => {
    let pointer: string | null = null;
    while (x && typeof x.$ref === 'string') {
      pointer = x.$ref.slice(1);
      const [, , kind, name] = x.$ref.split('/');
      x = spec.components[kind][name];
    }
    return { value: x, pointer };
  };
  const ops = new Map<string, OperationResponses>();
  for (const [path, item] of Object.entries<any>(spec.paths)) {
    for (const method of ['get', 'post', 'put', 'delete', 'patch']) {
      const op = item[method];
      if (op) {
        ops.set(op.operationId, {
          label: `${method.toUpperCase()} ${path}`,
          pointer: `/paths/${escape(path)}/${method}/responses`,
          responses: op.responses,
        });
      }
    }
  }
  const validators = new Map<string, ValidateFunction>();
  const validatorOf = (ref: string) => {
    let v = validators.get(ref);
    if (!v) validators.set(ref, (v = ajv.compile({ $ref: `spec.json#${ref}` })));
    return v;
  };

  return (operationId, status, headers, body) => {
    const op = ops.get(operationId);
    if (!op) return [`${operationId} is not an operation of the spec`];
    const key = String(status);
    const declared = op.responses[key] ?? op.responses[`${key[0]}XX`] ?? op.responses.default;
    const where = `${operationId} (${op.label}) ${status}`;
    if (!declared) return [`${where}: status not documented (documented: ${Object.keys(op.responses).join(', ')})`];
    const { value: response, pointer } = deref(declared);
    const base = pointer ?? `${op.pointer}/${escape(key)}`;
    const problems: string[] = [];
    for (const [name, header] of Object.entries<any>(response.headers ?? {})) {
      const h = deref(header).value;
      const lower = name.toLowerCase();
      const present = Object.keys(headers).find((k) => k.toLowerCase() === lower);
      if (h.required && present === undefined) problems.push(`${where}: required header ${name} missing`);
    }
    const length = body === undefined ? 0 : Buffer.byteLength(body);
    const content = response.content as Record<string, any> | undefined;
    if (!content) {
      if (length > 0) problems.push(`${where}: a body where the spec documents none`);
      return problems;
    }
    const type = mediaOf(headers['content-type']);
    if (!(type in content)) {
      problems.push(`${where}: Content-Type ${type || '(none)'} not documented (${Object.keys(content).join(', ')})`);
      return problems;
    }
    if (type !== 'application/json' && !type.endsWith('+json')) return problems;
    let data: unknown;
    try {
      data = JSON.parse(String(body ?? ''));
    } catch {
      return [...problems, `${where}: the body is not JSON`];
    }
    const validate = validatorOf(`${base}/content/${escape(type)}/schema`);
    if (!validate(data)) {
      for (const e of validate.errors ?? []) problems.push(`${where}: body${e.instancePath || ''} ${e.message}`);
    }
    return problems;
  };
}
