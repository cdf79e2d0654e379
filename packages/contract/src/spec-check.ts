// The spec side of the contract gate, shared by the Dredd hooks (hooks.ts) and the workflow
// runner (workflows.ts): the operations indexed by method + path template, the expected status of
// an answer, and the spec package's shared check (@hosting-api/openapi/check) of responses and
// webhook deliveries.
/** The checker over the spec model (`await loadModel()` of @hosting-api/openapi/model). */
import type { Json, OperationInfo, RealAnswer, SpecModel } from './types';

async function createChecker(model: SpecModel) {
  const { createCheck } = await import('@hosting-api/openapi/check');
  const check = createCheck(model);
  // ---- the spec, indexed by method + path template --------------------------------------------
  const operations = new Map<string, OperationInfo>();
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
  function firstExample(media: Json) {
    if (!media) return undefined;
    if (media.example !== undefined) return media.example;
    return Object.values<Json>(media.examples ?? {})[0]?.value;
  }

  /**
   * Checks an answer against the spec; returns the list of problems (empty when it conforms). The
   * status must be the expected one; the rest (documented status, Content-Type, required headers,
   * body against the 3.1 schema) is the spec package's shared check, against the status answered.
   */
  function checkResponse(info: Pick<OperationInfo, 'op'>, expectedStatus: string, real: RealAnswer) {
    const problems: string[] = [];
    const actual = String(real.statusCode);
    const documented = actual in info.op.responses;
    if (actual !== expectedStatus) {
      const note = documented ? '' : ` (${actual} is not documented for ${info.op.operationId})`;
      problems.push(`status ${actual}, expected ${expectedStatus}${note}`);
    }
    const status = Number(documented ? actual : expectedStatus);
    problems.push(...check.response(info.op.operationId, status, real.headers ?? {}, real.body || undefined));
    return problems;
  }

  function header(headers: Record<string, unknown> | undefined, name: string) {
    const key = Object.keys(headers ?? {}).find((k) => k.toLowerCase() === name);
    return key ? String(headers?.[key]) : undefined;
  }

  // Path templates as patterns, to find the operation of a recorded request.
  const patterns = [...operations.values()].map((info) => ({
    info,
    re: new RegExp(
      `^${info.path
        .split(/\{[^}]+\}/)
        .map((part: string) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
        .join('[^/]+')}$`,
    ),
  }));
  /** The operation of `METHOD /path` (path relative to the base URL, or /auth/… at the auth URL). */
  function findOperation(method: string, path: string) {
    const candidates = patterns.filter((p) => p.info.method === method.toUpperCase() && p.re.test(path));
    // A literal segment wins over a template (/sites/search over /sites/{site_id}).
    candidates.sort((x, y) => (x.info.path.match(/\{/g) ?? []).length - (y.info.path.match(/\{/g) ?? []).length);
    return candidates[0]?.info;
  }

  return { operations, firstExample, checkResponse, header, findOperation, checkWebhook: check.webhook };
}

/**
 * The documented response ("<operationId> <status>") an answer exercised, for a run's coverage, or
 * undefined: only an answer with no problem in the response checks counts, and not a 2xx whose
 * list is empty (it checked no item) or that is not JSON (downloads are checked by the examples phase).
 */
function exercisedResponse(
  operationId: string,
  status: string | number,
  contentType: string | undefined,
  body: string | undefined,
  problems: unknown[],
): string | undefined {
  if (problems.length) return undefined;
  if (/^2/.test(String(status))) {
    if (body && !/json/i.test(contentType ?? '')) return undefined;
    try {
      const data = body ? JSON.parse(body)?.data : undefined;
      if (Array.isArray(data) && data.length === 0) return undefined;
    } catch {
      return undefined;
    }
  }
  return `${operationId} ${status}`;
}

export { createChecker, exercisedResponse };
