// ID-token verification: signature by a published key (asymmetric algorithms only), issuer, audience and
// authorized party, expiry, issue time and nonce. Everything the token says is trusted only after this.
import { decodeProtectedHeader, errors, type JWTPayload, jwtVerify } from 'jose';
import { IdTokenRefused } from './id-token-refused.ts';
import { ACCEPTED_ALGORITHMS, type KeySet } from './key-set.ts';

/** Clock difference tolerated between us and the provider. */
const CLOCK_TOLERANCE_S = 60;
const MAX_TOKEN_CHARS = 16_384;

export interface IdTokenCheck {
  keys: KeySet;
  /** The expected `iss`, or a function deciding (Entra's per-tenant issuer). */
  issuer: string | ((iss: string, payload: JWTPayload) => boolean);
  clientId: string;
  /** The nonce this sign-in sent; undefined where the flow has none (Firebase). */
  nonce?: string;
  /** Oldest accepted `iat`, in seconds. */
  maxAgeSeconds: number;
}

export interface IdClaims extends JWTPayload {
  iss: string;
  sub: string;
  email?: string;
  email_verified?: boolean | string;
  name?: string;
  tid?: string;
}

export async function verifyIdToken(token: string, check: IdTokenCheck): Promise<IdClaims> {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_CHARS)
    throw new IdTokenRefused('the token is malformed');
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw new IdTokenRefused('the token is malformed');
  }
  const alg = header.alg ?? '';
  if (!ACCEPTED_ALGORITHMS.has(alg))
    throw new IdTokenRefused(`tokens signed with "${alg || 'none'}" are not accepted`);
  const key = await check.keys.keyFor(header.kid, alg);
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, key, {
      algorithms: [alg],
      audience: check.clientId,
      clockTolerance: CLOCK_TOLERANCE_S,
      requiredClaims: ['iss', 'sub', 'aud', 'exp', 'iat'],
    }));
  } catch (err) {
    throw new IdTokenRefused(joseReason(err));
  }
  const iss = payload.iss ?? '';
  const issuerOk = typeof check.issuer === 'string' ? iss === check.issuer : check.issuer(iss, payload);
  if (!issuerOk) throw new IdTokenRefused('the token comes from another issuer');
  // With several audiences the token must say which one it was issued to (OIDC Core 3.1.3.7).
  const aud = payload.aud;
  if (Array.isArray(aud) && aud.length > 1 && payload.azp === undefined)
    throw new IdTokenRefused('the token has several audiences and no authorized party');
  if (payload.azp !== undefined && payload.azp !== check.clientId)
    throw new IdTokenRefused('the token was issued to another application');
  const now = Math.floor(Date.now() / 1000);
  const iat = payload.iat ?? 0;
  if (iat > now + CLOCK_TOLERANCE_S) throw new IdTokenRefused('the token is issued in the future');
  if (now - iat > check.maxAgeSeconds + CLOCK_TOLERANCE_S) throw new IdTokenRefused('the token is too old');
  if (check.nonce !== undefined && payload.nonce !== check.nonce)
    throw new IdTokenRefused('the token was issued for another sign-in');
  if (typeof payload.sub !== 'string' || payload.sub === '' || payload.sub.length > 255)
    throw new IdTokenRefused('the token names no subject');
  return payload as IdClaims;
}

function joseReason(err: unknown): string {
  if (err instanceof errors.JWTExpired) return 'the token has expired';
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'aud') return 'the token was issued to another application';
    return `the token's "${err.claim}" is not valid`;
  }
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'the token signature is not valid';
  return 'the token is not valid';
}

/** `email_verified` as providers send it: a boolean, or Apple's string "true". */
export const emailVerified = (claims: IdClaims) =>
  claims.email_verified === true || claims.email_verified === 'true';
