// The one check of an answer against the spec, for every part of the repo that asks "does the spec
// document this?" (the sandbox's response self-check, the tests, the contract gate): the status is
// one the operation documents, the Content-Type one that status declares, the required response
// headers are present, there is no body where none is documented, and a JSON body is valid against
// its schema (JSON Schema 2020-12, as OpenAPI 3.1 says, with Ajv and ajv-formats). Webhook
// deliveries are checked the same way against the document's `webhooks:`.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule.default ?? addFormatsModule;
const escapePointer = (s) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const mediaOf = (value) =>
  String(value ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
const isJson = (type) => type === 'application/json' || type.endsWith('+json');
/** The JSON pointer a node stands for: its `$ref`'s target, else where it is. */
const pointerOf = (node, where) => (typeof node?.$ref === 'string' ? node.$ref.slice(1) : where);
const headerOf = (headers, name) => {
  const key = Object.keys(headers ?? {}).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : headers[key];
};
const describeError = (e) => {
  const extra =
    e.keyword === 'enum'
      ? `: ${JSON.stringify(e.params.allowedValues)}`
      : e.keyword === 'additionalProperties'
        ? `: ${e.params.additionalProperty}`
        : '';
  return `${e.instancePath || ''} ${e.message}${extra}`;
};

/**
 * The check of a spec model (`loadModel()` of ./index.js). By default a body's check stops at its
 * first error: with `allErrors` Ajv's cost on a wrong answer grows with the square of its size (a
 * 60 KB list of `{}` took 100 s), so it is only for answers of one's own (`{ allErrors: true }`),
 * never for answers from a target.
 */
export function createCheck(model, { allErrors = false } = {}) {
  const ajv = new Ajv2020({ strict: false, allErrors, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ ...model.document, $id: 'spec.json' });
  const validators = new Map();
  const validatorOf = (pointer) => {
    if (!validators.has(pointer)) validators.set(pointer, ajv.compile({ $ref: `spec.json#${pointer}` }));
    return validators.get(pointer);
  };
  const operations = new Map(model.operations.map((o) => [o.operationId, o]));

  /** Problems of a body text of a documented media type (`content`: media type → object). */
  const checkBody = (content, pointer, type, body, where, name) => {
    if (!isJson(type)) return [];
    let data;
    try {
      data = JSON.parse(String(body ?? ''));
    } catch {
      return [`${where}: the ${name} is not JSON: ${String(body ?? '').slice(0, 120)}`];
    }
    if (!content[type]?.schema) return [];
    const validate = validatorOf(`${pointer}/content/${escapePointer(type)}/schema`);
    return validate(data) ? [] : (validate.errors ?? []).map((e) => `${where}: ${name}${describeError(e)}`);
  };

  return {
    response(operationId, status, headers, body) {
      const op = operations.get(operationId);
      if (!op) return [`${operationId} is not an operation of the spec`];
      const key = String(status);
      const documented = Object.keys(op.responses);
      const code = [key, `${key[0]}XX`, 'default'].find((c) => c in op.responses);
      const where = `${operationId} (${op.method.toUpperCase()} ${op.path}) ${status}`;
      if (!code) return [`${where}: status not documented (documented: ${documented.join(', ')})`];
      const response = op.responses[code];
      const pointer = pointerOf(
        op.bundled.responses[code],
        `/paths/${escapePointer(op.path)}/${op.method}/responses/${escapePointer(code)}`,
      );
      const problems = [];
      for (const [name, header] of Object.entries(response.headers ?? {})) {
        if (header.required && headerOf(headers, name) === undefined)
          problems.push(`${where}: required header ${name} missing`);
      }
      const length = body === undefined || body === null ? 0 : Buffer.byteLength(body);
      const content = response.content ?? {};
      const types = Object.keys(content);
      if (types.length === 0) {
        if (length > 0) problems.push(`${where}: a body (${length} bytes) where the spec documents none`);
        return problems;
      }
      const raw = headerOf(headers, 'content-type');
      const type = types.find((t) => t.toLowerCase() === mediaOf(raw));
      if (!type) {
        problems.push(`${where}: Content-Type ${mediaOf(raw) || '(none)'} not documented (${types.join(', ')})`);
        return problems;
      }
      return [...problems, ...checkBody(content, pointer, type, body, where, 'body')];
    },

    webhook(event, contentType, text) {
      const item = model.dereferenced.webhooks?.[event];
      if (!item?.post) {
        const known = Object.keys(model.dereferenced.webhooks ?? {}).join(', ');
        return { documented: false, errors: [`"${event}" is not in the spec's webhooks (${known})`] };
      }
      const where = `webhook ${event}`;
      const content = item.post.requestBody?.content ?? {};
      const types = Object.keys(content);
      const type = types.find((t) => t.toLowerCase() === mediaOf(contentType));
      if (!type) {
        const errors = [
          `${where}: Content-Type ${mediaOf(contentType) || '(none)'} not documented (${types.join(', ')})`,
        ];
        return { documented: true, errors };
      }
      const bundledItem = model.document.webhooks[event];
      const itemPointer = pointerOf(bundledItem, `/webhooks/${escapePointer(event)}`);
      const bundledPost = model.follow(bundledItem).post;
      const pointer = pointerOf(
        bundledPost.requestBody,
        `${pointerOf(bundledPost, `${itemPointer}/post`)}/requestBody`,
      );
      const errors = checkBody(content, pointer, type, text, where, 'payload');
      let payload;
      try {
        payload = isJson(type) ? JSON.parse(text) : undefined;
      } catch {
        payload = undefined;
      }
      return { documented: true, errors, payload };
    },
  };
}
