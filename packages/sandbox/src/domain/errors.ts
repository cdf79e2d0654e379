// The error envelope and the seed's message texts (part 7). Throw an ApiError anywhere in a
// handler; the server turns it into `{message, data: null, errors}` with its status.

export const MESSAGES = {
  badRequest: 'There was a problem processing your request.',
  notFound: 'We could not locate the requested resources.',
  internal: 'An internal error occurred while processing your request. Please try again.',
  // The seed shows no text for 401/403; the spec's examples use the reason phrases.
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  unprocessable: 'Unprocessable Entity',
  notImplemented: 'Not implemented in the sandbox yet.',
} as const;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: string[] | null = null,
  ) {
    super(message);
  }
}

export interface ErrorEnvelope {
  message: string;
  data: null;
  errors: string[] | null;
}

export const envelopeOf = (error: ApiError): ErrorEnvelope => ({
  message: error.message,
  data: null,
  errors: error.errors,
});

/** 400 with the seed's message; `errors` carries the details (field names, seed error texts). */
export const badRequest = (...errors: string[]) =>
  new ApiError(400, MESSAGES.badRequest, errors.length ? errors : null);
export const notFound = () => new ApiError(404, MESSAGES.notFound);
export const unauthorized = (reason: string) => new ApiError(401, MESSAGES.unauthorized, [reason]);
export const forbidden = (reason: string) => new ApiError(403, MESSAGES.forbidden, [reason]);
export const unprocessable = (reason?: string) => new ApiError(422, MESSAGES.unprocessable, reason ? [reason] : null);
