// The spec side of the contract gate, shared by the Dredd hooks (hooks.cjs) and the workflow
// runner (workflows.mjs): the operations indexed by method + path template, and the check of a
// response (status, Content-Type, body against the OpenAPI 3.1 schema with JSON Schema 2020-12,
// Ajv with formats) and of a webhook delivery against the spec's `webhooks:`.
const { default: Ajv2020 } = require('ajv/dist/2020');
const { default: addFormats } = require('ajv-formats');

/** The checker over the spec model (`await loadModel()` of @hosting-api/openapi/model). */
function createChecker(model) {
  const spec = model.document;
  // ---- the spec, indexed by method + path template --------------------------------------------
  const operations = new Map();
  for (const o of model.operations) {
    operations.set(`${o.method.toUpperCase()} ${o.path}`, {
      path: o.path,
      method: o.method.toUpperCase(),
      op: o.operation,
      params: o.parameters,
      security: o.security,
      model: o,
    });
  }

  /** The first example of a (dereferenced) media type object. */
  function firstExample(media) {
    if (!media) return undefined;
    if (media.example !== undefined) return media.example;
    return Object.values(media.examples ?? {})[0]?.value;
  }

  // ---- JSON Schema 2020-12 validation of response bodies --------------------------------------
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ ...spec, $id: 'spec.json' });
  const validators = new Map();
  function responseValidator(pointer) {
    if (!validators.has(pointer)) validators.set(pointer, ajv.compile({ $ref: `spec.json#${pointer}` }));
    return validators.get(pointer);
  }
  const escape = (s) => s.replace(/~/g, '~0').replace(/\//g, '~1');

  /** Checks status and body against the spec; returns the list of problems (empty when it conforms). */
  function checkResponse(info, expectedStatus, real) {
    const problems = [];
    const documented = Object.keys(info.op.responses);
    const actual = String(real.statusCode);
    if (actual !== expectedStatus) {
      problems.push(
        `status ${actual}, expected ${expectedStatus}` +
          (documented.includes(actual) ? '' : ` (${actual} is not documented for ${info.op.operationId})`),
      );
    }
    // Validate against the schema of the status the server actually answered, if documented.
    const status = documented.includes(actual) ? actual : expectedStatus;
    const response = info.op.responses[status];
    const content = response.content ?? {};
    const body = real.body ?? '';
    const type = header(real.headers, 'content-type') ?? '';
    if (Object.keys(content).length === 0) {
      if (body.length > 0) problems.push(`body: ${status} is documented without a body, got ${body.length} bytes`);
      return problems;
    }
    const base = type.split(';')[0].trim().toLowerCase();
    const mediaType = Object.keys(content).find((m) => m.toLowerCase() === base) ?? null;
    if (!mediaType) {
      problems.push(`Content-Type "${type}" is not documented for ${status} (${Object.keys(content).join(', ')})`);
      return problems;
    }
    if (!/json/.test(mediaType)) return problems;
    let parsed;
    try {
      parsed = JSON.parse(body);
    } catch {
      problems.push(`body: not JSON: ${body.slice(0, 120)}`);
      return problems;
    }
    const pointer = [
      '',
      'paths',
      escape(info.path),
      info.method.toLowerCase(),
      'responses',
      status,
      'content',
      escape(mediaType),
      'schema',
    ].join('/');
    // A shared response is validated where it lives in the bundle (its schema's `$ref`s resolve there).
    const responseRef = info.model.bundled.responses[status].$ref;
    const validate = responseValidator(
      responseRef ? `${responseRef.slice(1)}/content/${escape(mediaType)}/schema` : pointer,
    );
    if (!validate(parsed)) {
      for (const e of validate.errors) {
        const extra =
          e.keyword === 'enum'
            ? `: ${JSON.stringify(e.params.allowedValues)}`
            : e.keyword === 'additionalProperties'
              ? `: ${e.params.additionalProperty}`
              : '';
        problems.push(`body${e.instancePath || ''} ${e.message}${extra}`);
      }
    }
    return problems;
  }

  function header(headers, name) {
    const key = Object.keys(headers ?? {}).find((k) => k.toLowerCase() === name);
    return key ? String(headers[key]) : undefined;
  }

  // Path templates as patterns, to find the operation of a recorded request.
  const patterns = [...operations.values()].map((info) => ({
    info,
    re: new RegExp(
      `^${info.path
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
        .join('[^/]+')}$`,
    ),
  }));
  /** The operation of `METHOD /path` (path relative to the base URL, or /auth/… at the auth URL). */
  function findOperation(method, path) {
    const candidates = patterns.filter((p) => p.info.method === method.toUpperCase() && p.re.test(path));
    // A literal segment wins over a template (/sites/search over /sites/{site_id}).
    candidates.sort((x, y) => (x.info.path.match(/\{/g) ?? []).length - (y.info.path.match(/\{/g) ?? []).length);
    return candidates[0]?.info;
  }

  /** Problems of one webhook delivery (event name, Content-Type, body text) against `webhooks:`. */
  function checkWebhook(event, contentType, text) {
    const entry = spec.webhooks?.[event]?.post;
    if (!entry)
      return {
        documented: false,
        errors: [`"${event}" is not in the spec's webhooks (${Object.keys(spec.webhooks ?? {}).join(', ')})`],
      };
    if (!/^application\/json\b/i.test(contentType ?? ''))
      return { documented: true, errors: [`Content-Type "${contentType}" is not application/json`] };
    let payload;
    try {
      payload = JSON.parse(text);
    } catch {
      return { documented: true, errors: [`body is not JSON: ${text.slice(0, 120)}`] };
    }
    const validate = responseValidator(`/webhooks/${escape(event)}/post/requestBody/content/application~1json/schema`);
    const errors = validate(payload)
      ? []
      : validate.errors.map(
          (e) =>
            `payload${e.instancePath} ${e.message}${e.keyword === 'enum' ? `: ${JSON.stringify(e.params.allowedValues)}` : ''}`,
        );
    return { documented: true, errors, payload };
  }

  return { operations, firstExample, checkResponse, header, findOperation, checkWebhook };
}

module.exports = { createChecker };
