// `validate: true`: check each response against the spec's schema for its operation. The schemas
// live in @hosting-api/schemas (zod), loaded only when validation is switched on.
import { type HostingApiErrorOptions, ResponseValidationError } from './errors';

/** The part of a zod schema this client uses. */
export interface SchemaLike {
  safeParse(
    value: unknown,
  ): { success: true } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

/** Per-operation schemas keyed by operationId: `{ getSite: { response: schema, responses: { 200: schema } } }`. */
export type OperationSchemas = Record<
  string,
  { response?: SchemaLike; responses?: Record<number, SchemaLike> } | undefined
>;

export type SchemaSource = OperationSchemas | (() => Promise<OperationSchemas>);

const PACKAGE = '@hosting-api/schemas';

export async function loadDefaultSchemas(): Promise<OperationSchemas> {
  try {
    // A variable specifier keeps bundlers from pulling the optional package in.
    const mod = (await import(/* @vite-ignore */ PACKAGE)) as { operations?: OperationSchemas };
    if (!mod.operations) throw new Error(`${PACKAGE} has no \`operations\` export`);
    return mod.operations;
  } catch (err) {
    throw new Error(
      `validate: true needs the optional package ${PACKAGE}: install it next to @hosting-api/client (${(err as Error).message})`,
    );
  }
}

const isSchema = (value: unknown): value is SchemaLike =>
  !!value && typeof (value as SchemaLike).safeParse === 'function';

function formatPath(path: PropertyKey[]): string {
  if (!path.length) return '(root)';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
}

/** Throws `ResponseValidationError` naming the operation and the failing paths. */
export function validateResponse(
  schemas: OperationSchemas,
  operationId: string,
  status: number,
  body: unknown,
  errorOptions: HostingApiErrorOptions,
): void {
  const entry = schemas[operationId];
  const schema = entry?.responses?.[status] ?? entry?.response;
  if (!isSchema(schema)) {
    if (entry && body === undefined) return; // no JSON body to check (e.g. a download or an empty answer)
    throw new ResponseValidationError(`${operationId}: no response schema for status ${status} to validate against`, {
      ...errorOptions,
      status,
      body,
      issues: [],
    });
  }
  const result = schema.safeParse(body);
  if (result.success) return;
  const issues = result.error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
  const summary = issues
    .slice(0, 3)
    .map((i) => `${i.path}: ${i.message}`)
    .join('; ');
  const more = issues.length > 3 ? ` (+${issues.length - 3} more)` : '';
  throw new ResponseValidationError(`${operationId}: response does not match the spec at ${summary}${more}`, {
    ...errorOptions,
    status,
    body,
    issues,
  });
}
