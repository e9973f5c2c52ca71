// Which addresses are the app's own: the session token is sent only there. Decided by resolving the address
// against the origin and comparing origins, never by how the string starts ('//evil.example/x' and
// '/\evil.example' both start with '/' yet name another host).

/** Where the app runs (window or worker); without one (Node), a placeholder, so only relative paths are own. */
export function appOrigin(): string {
  return typeof location === 'undefined' ? 'http://app.invalid' : location.origin;
}

/** The address resolved against `origin` when it is on that same origin; null for any other (or no) origin. */
export function sameOriginUrl(url: string, origin: string): URL | null {
  try {
    const parsed = new URL(url, origin);
    return parsed.origin === new URL(origin).origin ? parsed : null;
  } catch {
    return null;
  }
}

/** Whether a request to `target` may carry the session token: only to the API's own origin. */
export function mayCarryToken(target: string, apiBaseUrl: string): boolean {
  let api: string;
  try {
    api = new URL(apiBaseUrl || appOrigin(), appOrigin()).origin;
  } catch {
    return false;
  }
  return sameOriginUrl(target, api) !== null;
}
