// What an error report (Sentry, GlitchTip) may carry, for the server and the client alike: the spec's
// sampling (§9) and the scrubbing every event and transaction passes before it leaves. No message content,
// tokens, sign-in codes, cookies or e-mail addresses reach the reporting service (decision 0040).

/** Spec §9: every trace, a tenth of sessions replayed, every session with an error replayed. */
export const ERROR_REPORT_SAMPLING = {
  tracesSampleRate: 1,
  replaysSessionSampleRate: 0.1,
  replaysOnErrorSampleRate: 1,
} as const;

/**
 * The SDK's own collection (Sentry's `dataCollection`), the first line: no user details, cookies, bodies,
 * query strings or model inputs; only harmless request headers. scrubErrorEvent is the second.
 */
export const ERROR_REPORT_COLLECTION = {
  userInfo: false,
  cookies: false,
  httpHeaders: {
    request: { allow: ['user-agent', 'content-type', 'accept', 'x-request-id'] },
    response: false,
  },
  httpBodies: [] as never[],
  urlQueryParams: false,
  genAI: { inputs: false, outputs: false },
  graphQL: { document: false, variables: false },
};

/** Fields whose whole value is withheld: credentials, and anything that can hold what people wrote. */
const WITHHELD_KEYS = new Set([
  'authorization',
  'cookie',
  'cookies',
  'set-cookie',
  'token',
  'accesstoken',
  'access_token',
  'refreshtoken',
  'id_token',
  'password',
  'secret',
  'code',
  'otp',
  'content',
  'html',
  'text',
  'plaintext',
  'body',
  'data',
  'email',
  'ip_address',
  'x-forwarded-for',
]);

/** Query parameters that carry credentials (sign-in codes, signed upload addresses, LTI launches). */
const SECRET_PARAMS =
  /((?:^|[?&;])(?:token|access_token|id_token|code|signature|key|ltik|state|otp|email)=)[^&#\s"']*/gi;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const BEARER = /\b(Bearer|Basic)\s+[^\s"',]+/gi;
const JWT = /\beyJ[\w-]+\.[\w-]+\.[\w-]*/g;
/** Session tokens (43 base64url characters) and hashes; ids (UUIDs, 36 with dashes) stay readable. */
const OPAQUE = /\b[A-Za-z0-9_-]{40,}\b/g;

export const WITHHELD = '[Filtered]';

export function scrubText(text: string): string {
  return text
    .replace(SECRET_PARAMS, `$1${WITHHELD}`)
    .replace(BEARER, `$1 ${WITHHELD}`)
    .replace(JWT, WITHHELD)
    .replace(EMAIL, '[email]')
    .replace(OPAQUE, WITHHELD);
}

/** A copy of `value` with withheld fields replaced and every string scrubbed; depth-bounded. */
export function scrubErrorEvent<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return scrubText(value) as T;
  if (depth > 12 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => scrubErrorEvent(v, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (WITHHELD_KEYS.has(key.toLowerCase())) {
      if (v !== undefined) out[key] = WITHHELD;
    } else out[key] = scrubErrorEvent(v, depth + 1);
  }
  return out as T;
}
