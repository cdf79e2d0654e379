// Types of @hosting-api/openapi/check (check.js).
import type { SpecModel } from './index.js';

export interface WebhookCheck {
  /** false when the document's `webhooks:` has no such event. */
  documented: boolean;
  /** The problems; empty when the delivery agrees with the spec. */
  errors: string[];
  /** The parsed JSON payload, when it parsed. */
  payload?: unknown;
}

export interface Check {
  /**
   * The problems of one answer of an operation (empty when the spec documents it): status,
   * Content-Type, required headers, no body where none is documented, JSON body against its schema.
   * `headers` are matched case-insensitively; `body` is the text sent (undefined for none).
   */
  response(
    operationId: string,
    status: number,
    headers: Record<string, string | number | string[] | undefined>,
    body: string | Buffer | undefined,
  ): string[];
  /** One webhook delivery (event name, Content-Type, body text) against the document's `webhooks:`. */
  webhook(event: string, contentType: string | undefined, text: string): WebhookCheck;
}

/**
 * The check of a spec model (`loadModel()` of @hosting-api/openapi/model). A body's check stops at
 * its first error unless `allErrors` (only for answers of one's own: its cost on a wrong answer
 * grows with the square of the answer's size).
 */
export declare function createCheck(model: SpecModel, options?: { allErrors?: boolean }): Check;
