// HTTP errors that carry their status. The Fastify error handler turns them into {statusCode, error,
// message}; socket handlers turn them into {error: {message}} acknowledgements.
export class HttpError extends Error {
  /** A sentence per refused field of a bad request, by path (the error body's `fields`). */
  fields?: Record<string, string>;

  constructor(
    readonly statusCode: number,
    message: string,
    /** Sent as Retry-After on a 429: how long the caller must wait before the same request can succeed. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** A 400 naming each refused field: `message` for the whole, `fields` for the form. */
export function invalidFields(message: string, fields: Record<string, string> | undefined): HttpError {
  const error = new HttpError(400, message);
  if (fields) error.fields = fields;
  return error;
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = 'session invalid') => new HttpError(401, message);
export const forbidden = (message = 'You do not have permission to do that') => new HttpError(403, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const tooManyRequests = (message: string, retryAfterSeconds?: number) =>
  new HttpError(429, message, retryAfterSeconds);
