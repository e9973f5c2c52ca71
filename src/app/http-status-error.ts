// Errors a screen throws to reach the error page with a status: 404 'Page Not Found', else 500 (spec §8).
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpStatusError';
  }
}

/** Route validation failure: the error page shows 'Page Not Found'; the message names the path. */
export function notFound(path: string): HttpStatusError {
  return new HttpStatusError(404, `Page Not Found: ${path}`);
}

/** Ids in routes are short opaque strings; anything else cannot name a record and fails validation. */
export const ROUTE_ID = /^[A-Za-z0-9_-]{1,64}$/;
