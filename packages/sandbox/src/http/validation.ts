// Request validation: path and query strings are coerced by the spec's parameter types, then
// path, query and body are checked with the zod schemas of @hosting-api/schemas (one entry per
// operationId). A failure is a 400 whose `errors` name the field, e.g. `body.subject: ...`;
// a path parameter that cannot be valid is a 404 (the resource cannot exist).
import { operations } from '@hosting-api/schemas';
import { GIT_ERRORS } from '../domain/areas/git.js';
import { badRequest, notFound } from '../domain/errors.js';
import { SITE_NAME_RULE } from '../domain/model/sites.js';
import type { ParamType, SpecOperation } from './spec.js';

/** What the sandbox needs of a schema: zod's safeParse. */
export interface SafeParser {
  safeParse(value: unknown):
    | { success: true; data: unknown }
    | {
        success: false;
        error: {
          issues: readonly {
            path: readonly PropertyKey[];
            message: string;
            code?: string;
            values?: readonly unknown[];
          }[];
        };
      };
}
export interface OperationValidators {
  params?: SafeParser | undefined;
  query?: SafeParser | undefined;
  body?: SafeParser | undefined;
}
export type ValidatorMap = Record<string, OperationValidators | undefined>;

/** The per-operation zod schemas of @hosting-api/schemas (`operations[operationId]`: params, query, body). */
export const VALIDATORS = operations as unknown as ValidatorMap;

/** A canonical decimal integer: no sign but `-`, no leading zeros, no spaces, no exponent. */
const INTEGER = /^-?(?:0|[1-9]\d*)$/;
/** A JSON number's text. */
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * A path or query string as the spec's parameter type: integers only as canonical decimal text
 * (`0x1e240`, `+5`, `007`, `5.0`, `1e5` and ` 5` stay strings, which the schema then refuses),
 * booleans only as `true` / `false`.
 */
export function coerce(value: unknown, type: ParamType | undefined): unknown {
  if (typeof value !== 'string') return value;
  if (type === 'integer') return INTEGER.test(value) ? Number(value) : value;
  if (type === 'number') return NUMBER.test(value) ? Number(value) : value;
  if (type === 'boolean') {
    if (value === 'true') return true;
    if (value === 'false') return false;
  }
  return value;
}

/** `a`, `a or b`, `a, b, or c`: the seed's wording (`rw, ro, or loggedin`). */
export function oneOf(values: readonly unknown[]): string {
  const words = values.map(String);
  if (words.length <= 2) return words.join(' or ');
  return `${words.slice(0, -1).join(', ')}, or ${words[words.length - 1]}`;
}

type Issue = { path: readonly PropertyKey[]; message: string; code?: string; values?: readonly unknown[] };

/**
 * Body fields whose rule the documentation words itself (part 7): a refusal of the spec's pattern
 * or length says that sentence, not zod's text of the pattern.
 */
const RULE_SENTENCES: Record<string, string> = {
  'createSite.name': `body.name: ${SITE_NAME_RULE}`,
  'cloneSite.name': `body.name: ${SITE_NAME_RULE}`,
  'connectSiteGitRepository.branch': GIT_ERRORS.branchBlank,
  'updateSiteGitConfiguration.branch': GIT_ERRORS.branchBlank,
};

/**
 * One text per issue, naming the field. Enum failures read like the seed's own error
 * (`php_fs_permission must be rw, ro, or loggedin`): body fields by their name, query fields
 * as `query.<name>`; other failures as `body.<field>: <zod's message>`.
 */
const describe = (where: string, issues: readonly Issue[], operationId?: string) =>
  issues.map((i) => {
    const sentence = where === 'body' && i.path.length === 1 && RULE_SENTENCES[`${operationId}.${String(i.path[0])}`];
    if (sentence && (i.code === 'invalid_format' || i.code === 'too_small')) return sentence;
    if (i.code === 'invalid_value' && i.values?.length && i.path.length) {
      const field = [...(where === 'body' ? [] : [where]), ...i.path.map(String)].join('.');
      return `${field} must be ${oneOf(i.values)}`;
    }
    return `${[where, ...i.path.map(String)].join('.')}: ${i.message}`;
  });

export function validateRequest(
  op: SpecOperation,
  validators: OperationValidators | undefined,
  rawParams: Record<string, string>,
  rawQuery: Record<string, unknown> | undefined,
  rawBody: unknown,
): { params: Record<string, unknown>; query: Record<string, unknown>; body: unknown } {
  const params: Record<string, unknown> = {};
  for (const name in op.pathParams) {
    const type = op.pathParams[name];
    const v = coerce(rawParams[name], type);
    // A non-integer id names nothing: 404 rather than 400, as for any unknown resource.
    if ((type === 'integer' && !Number.isSafeInteger(v)) || v === '') throw notFound();
    params[name] = v;
  }
  const query: Record<string, unknown> = {};
  let hasQuery = false;
  // Only the parameters the operation declares are read; anything else in the query string
  // (unknown names, bracket-style `a[]=`) is ignored, as an unknown parameter always was.
  for (const name in rawQuery) {
    // Own names only: `constructor` or `toString` is an unknown parameter like any other.
    if (!Object.hasOwn(op.queryParams, name)) continue;
    const type = op.queryParams[name];
    const value = rawQuery[name];
    if (Array.isArray(value)) throw badRequest(`query.${name}: send it once (a single value)`);
    query[name] = coerce(value, type);
    hasQuery = true;
  }
  let body = rawBody;
  if (!op.hasBody) body = undefined;
  else if (body === undefined && op.bodyRequired)
    throw badRequest('body: required (the operation takes a request body)');

  // A bare integer or string parameter passed the checks above, which are all its schema asks.
  if (validators?.params && op.pathParamsNeedSchema) {
    const r = validators.params.safeParse(params);
    if (!r.success) throw notFound();
  }
  const errors: string[] = [];
  let q: unknown = query;
  // No query sent: nothing to check (every query schema of the spec accepts `{}` as it is, which
  // test/core.test.ts asserts).
  if (validators?.query && hasQuery) {
    const r = validators.query.safeParse(query);
    if (r.success) q = r.data;
    else errors.push(...describe('query', r.error.issues));
  }
  if (validators?.body && body !== undefined) {
    const r = validators.body.safeParse(body);
    if (r.success) body = r.data;
    else errors.push(...describe('body', r.error.issues, op.operationId));
  } else if (op.hasBody && body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    errors.push('body: expected an object');
  }
  if (errors.length) throw badRequest(...new Set(errors)); // a length and a pattern can say one sentence
  return { params, query: q as Record<string, unknown>, body };
}
