import type { ZodType } from 'zod';

/** The schemas of one operation, as found in `operations[operationId]`. */
export interface OperationSchemas {
  readonly method: 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options' | 'trace';
  /** The path template, e.g. `/sites/{site_id}/notes`. */
  readonly path: string;
  /** The documented success status (200 unless the spec says 201 or 202). */
  readonly status: number | undefined;
  /** Media type of the request body, e.g. `application/json`. */
  readonly requestContentType: string | undefined;
  /** Path parameters (numbers coerced from strings). */
  readonly params: ZodType | undefined;
  /** Query parameters (numbers coerced from strings). */
  readonly query: ZodType | undefined;
  readonly headers: ZodType | undefined;
  readonly body: ZodType | undefined;
  /** Whether the spec requires the body (`requestBody.required`). */
  readonly bodyRequired: boolean;
  /** The success response body; `undefined` when it is not JSON (downloads) or empty. */
  readonly response: ZodType | undefined;
  /** Every documented status with a JSON body → its schema (errors use `ErrorResponse`). */
  readonly responses: Readonly<Record<number, ZodType>>;
}
