// Sign-in through identity providers: the providers offered, a provider sign-in, its e-mail confirmation,
// and the person's linked sign-in methods.
import { z } from 'zod';
import { OTP_LENGTH } from './limits.ts';
import { id, isoDate } from './primitives.ts';
import { signinResponse } from './users.ts';

/** 32 random bytes, base64url: the state and the browser's secret of a provider sign-in. */
const randomToken = z
  .string()
  .max(64, { abort: true, message: 'Not a sign-in token' })
  .regex(/^[A-Za-z0-9_-]{43}$/, 'Not a sign-in token');
export const providerId = z
  .string()
  .max(32, { abort: true, message: 'Unknown sign-in provider' })
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'Unknown sign-in provider');

export const identityProvider = z.object({
  id: providerId,
  name: z.string(),
  icon: z.string().nullable(),
  kind: z.enum(['google', 'microsoft', 'apple', 'oidc']),
});
export type IdentityProvider = z.infer<typeof identityProvider>;

/** The Firebase web config (spec §7 runtime config) when the Firebase adapter is on. */
export const firebaseClientConfig = z.object({
  apiKey: z.string(),
  authDomain: z.string(),
  projectId: z.string(),
  storageBucket: z.string().optional(),
  messagingSenderId: z.string().optional(),
  appId: z.string().optional(),
  measurementId: z.string().optional(),
  vapidKey: z.string().optional(),
  name: z.string(),
});
export type FirebaseClientConfig = z.infer<typeof firebaseClientConfig>;

/** GET /api/auth/providers (public). */
export const identityProvidersResponse = z.object({
  providers: z.array(identityProvider),
  firebase: firebaseClientConfig.nullable(),
});
export type IdentityProvidersResponse = z.infer<typeof identityProvidersResponse>;

/** GET /api/auth/provider/:providerId/start: opened in the popup by the main window. */
export const providerStartQuery = z.object({ state: randomToken, binding: randomToken });

/** POST /api/auth/signin/provider: the popup's code with the main window's secret, or a Firebase ID token. */
export const providerSigninBody = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('code'),
    provider: providerId,
    state: randomToken,
    secret: randomToken,
    code: z.string().min(1, 'The provider sent no code').max(4096),
  }),
  z.object({ kind: z.literal('firebase'), idToken: z.string().min(1).max(16_384) }),
]);
export type ProviderSigninBody = z.infer<typeof providerSigninBody>;

/** Either signed in, or a code was mailed to the address the provider reported (it must be confirmed). */
export const providerSigninResponse = z.union([
  signinResponse,
  z.object({ confirmEmail: z.string(), state: z.string() }),
]);
export type ProviderSigninResponse = z.infer<typeof providerSigninResponse>;

/** POST /api/auth/signin/provider/confirm: the e-mail code that proves the address, for the held identity. */
export const providerConfirmBody = z.object({
  state: randomToken,
  secret: randomToken,
  code: z
    .string()
    .max(OTP_LENGTH, { abort: true, message: 'The code is 6 digits' })
    .regex(/^\d{6}$/, 'The code is 6 digits'),
});

/** One provider account linked to the caller (Settings → Sign-in methods). */
export const signinMethod = z.object({
  id,
  providerId: z.string(),
  providerName: z.string(),
  email: z.string().nullable(),
  createdAt: isoDate,
  lastUsedAt: isoDate,
});
export type SigninMethod = z.infer<typeof signinMethod>;
/** GET /api/users/signin-methods: the e-mail code (always, decision 0025) and the linked providers. */
export const signinMethodsResponse = z.object({ email: z.string(), data: z.array(signinMethod) });
export type SigninMethodsResponse = z.infer<typeof signinMethodsResponse>;
export const signinMethodParams = z.object({ identityId: z.string().max(64, 'Not a sign-in method') });
