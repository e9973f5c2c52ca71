// A failed API call as the tab and the worker see it: in a file of its own, so pages that only show an
// error's message (the sign-in page) do not load the route table and its schemas.
import type { RestRoute } from '../../schemas/protocol/routes.ts';

/** A failed API call; message is the server's message, or 'An error occurred' (spec §8). */
export class ApiError extends Error {
  readonly status: number;
  /** A refused request's sentence per field, by path ("name", "emails.1"): shown beside each field. */
  readonly fields: Readonly<Record<string, string>>;
  constructor(status: number, message: string, fields?: Record<string, string>) {
    super(message || 'An error occurred');
    this.name = 'ApiError';
    this.status = status;
    this.fields = fields ?? {};
  }
}

/** The sentence for one field of a refused request, if the server named it. */
export function fieldError(error: unknown, field: string): string | null {
  return error instanceof ApiError ? (error.fields[field] ?? null) : null;
}

/** The server answered in a shape its route does not declare (an older or newer server than this app). */
export class UnexpectedAnswerError extends ApiError {
  /** Which route answered so, for the console (the person sees only the message). */
  readonly route: string;
  constructor(route: Pick<RestRoute, 'method' | 'path'>) {
    super(502, 'The server sent an answer this version of Lantern cannot read. Reload to update.');
    this.name = 'UnexpectedAnswerError';
    this.route = `${route.method} ${route.path}`;
  }
}
