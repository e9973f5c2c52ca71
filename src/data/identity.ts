// Sign-in through identity providers (spec §7 External identity sign-in). The main window keeps a random
// secret; the popup opened on click carries only its hash. The popup's last page, on our own origin,
// reports the provider's answer over a BroadcastChannel (the browser may cut window.opener; window.closed
// lies then), and the main window finishes with POST /api/auth/signin/provider. Decision 0025.
import type {
  ProviderSigninResponse,
  SigninMethodsResponse,
  SigninResponse,
} from '../../schemas/protocol/index.ts';
import { requireConnection } from './client.ts';
import { loadIdentityProviders } from './identity-providers.ts';
import { invalidateRemote, type RemoteState, useRemoteQuery } from './remote-query.ts';
import { adoptSession } from './session.ts';
import { updateSettings } from './settings.ts';

/** A sign-in error with a code in Firebase's style (spec §8 shows these codes). */
export class SignInError extends Error {
  constructor(
    readonly code: string,
    message?: string,
  ) {
    super(message ?? code);
    this.name = 'SignInError';
  }
}
export const POPUP_CLOSED = 'auth/popup-closed-by-user';
export const POPUP_BLOCKED = 'auth/popup-blocked';
export const NETWORK_FAILED = 'auth/network-request-failed';

const CHANNEL = 'lantern-identity';
/** After the window gets focus back with no answer from the popup, it counts as closed after this long. */
const CLOSED_GRACE_MS = 2_500;
/** A sign-in left open longer than the server keeps it is over. */
const ATTEMPT_MAX_MS = 10 * 60_000;

/** The sign-in this tab left for the provider when popups were blocked, and the answer it came back with. */
const REDIRECT_PENDING = 'lantern-identity-redirect';
const REDIRECT_RESULT = 'lantern-identity-result';

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

export interface PreparedAttempt {
  state: string;
  secret: string;
  binding: string;
}

/** Made ahead of the click: hashing is asynchronous, and the popup must open within the click itself. */
export async function prepareAttempt(): Promise<PreparedAttempt> {
  const random = () => base64url(crypto.getRandomValues(new Uint8Array(32)));
  const state = random();
  const secret = random();
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret));
  return { state, secret, binding: base64url(new Uint8Array(digest)) };
}

export type ProviderOutcome =
  | { kind: 'signed-in' }
  | { kind: 'confirm'; email: string; state: string; secret: string; providerId: string };

interface CallbackMessage {
  type: 'result';
  state?: string;
  code?: string;
  error?: string;
  error_description?: string;
}

/**
 * Opens the provider's popup now (call it synchronously inside the click handler) and resolves when the
 * sign-in is done or needs the e-mail code. Rejects with SignInError: popup blocked, popup closed, or the
 * provider's / server's refusal.
 */
export function signInWithProviderPopup(
  providerId: string,
  attempt: PreparedAttempt,
): Promise<ProviderOutcome> {
  const url = `/api/auth/provider/${encodeURIComponent(providerId)}/start?state=${attempt.state}&binding=${attempt.binding}`;
  const width = 480;
  const height = 640;
  const left = Math.max(0, window.screenX + (window.outerWidth - width) / 2);
  const top = Math.max(0, window.screenY + (window.outerHeight - height) / 2);
  const popup = window.open(
    url,
    'lantern-signin',
    `popup,width=${width},height=${height},left=${left},top=${top}`,
  );
  if (!popup) {
    // Popups blocked (some in-app browsers): the same sign-in in this tab, back through /signin.
    try {
      sessionStorage.setItem(REDIRECT_PENDING, JSON.stringify({ providerId, ...attempt }));
    } catch {
      return Promise.reject(new SignInError(POPUP_BLOCKED));
    }
    window.location.assign(url);
    return new Promise<ProviderOutcome>(() => undefined);
  }
  return waitForCallback(attempt.state).then((message) => finishCodeSignIn(providerId, attempt, message));
}

function waitForCallback(state: string): Promise<CallbackMessage> {
  return new Promise((resolve, reject) => {
    const channel = new BroadcastChannel(CHANNEL);
    let closedTimer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    const overall = setTimeout(() => fail(), ATTEMPT_MAX_MS);
    const cleanup = () => {
      clearTimeout(overall);
      clearTimeout(closedTimer);
      window.removeEventListener('focus', onFocus);
      channel.close();
    };
    const fail = () => {
      if (settled) return;
      settled = true;
      cleanup();
      reject(new SignInError(POPUP_CLOSED));
    };
    // The person came back to this window: if the popup does not answer soon, they closed it.
    const onFocus = () => {
      clearTimeout(closedTimer);
      closedTimer = setTimeout(fail, CLOSED_GRACE_MS);
    };
    window.addEventListener('focus', onFocus);
    channel.onmessage = (event: MessageEvent<CallbackMessage>) => {
      const data = event.data;
      if (data?.type !== 'result' || data.state !== state || settled) return;
      settled = true;
      cleanup();
      resolve(data);
    };
  });
}

/**
 * The end of a sign-in that went to the provider in this tab (popups blocked): null when there is none,
 * else it is finished like a popup's. Each answer is read once.
 */
export async function completeRedirectSignIn(): Promise<ProviderOutcome | null> {
  let pending: (PreparedAttempt & { providerId: string }) | null = null;
  let result: CallbackMessage | null = null;
  try {
    pending = JSON.parse(sessionStorage.getItem(REDIRECT_PENDING) ?? 'null');
    result = JSON.parse(sessionStorage.getItem(REDIRECT_RESULT) ?? 'null');
    sessionStorage.removeItem(REDIRECT_RESULT);
    if (result) sessionStorage.removeItem(REDIRECT_PENDING);
  } catch {
    return null;
  }
  if (!pending || !result || result.state !== pending.state) return null;
  const { providerId, ...attempt } = pending;
  return finishCodeSignIn(providerId, attempt, result);
}

async function finishCodeSignIn(
  providerId: string,
  attempt: PreparedAttempt,
  message: CallbackMessage,
): Promise<ProviderOutcome> {
  if (message.error || !message.code) {
    const code = message.error ?? 'invalid_response';
    // The person cancelled at the provider: the same as closing its window.
    if (code === 'access_denied') throw new SignInError(POPUP_CLOSED);
    throw new SignInError(code, message.error_description);
  }
  const { http } = await requireConnection();
  const res = await http.call('providerSignin', {
    body: {
      kind: 'code',
      provider: providerId,
      state: attempt.state,
      secret: attempt.secret,
      code: message.code,
    },
  });
  return completed(providerId, res, attempt.secret);
}

async function completed(
  providerId: string,
  res: ProviderSigninResponse,
  secret: string,
): Promise<ProviderOutcome> {
  if ('confirmEmail' in res)
    return { kind: 'confirm', email: res.confirmEmail, state: res.state, secret, providerId };
  await signedIn(providerId, res);
  return { kind: 'signed-in' };
}

async function signedIn(providerId: string, res: SigninResponse): Promise<void> {
  // Remembered on this device so the sign-in page can highlight it next time (spec §3).
  await updateSettings({ mostRecentSiginProviderUsed: providerId });
  await adoptSession(res);
}

/** The e-mail code that proves the provider's address; signs in on success. */
export async function confirmProviderSignIn(
  outcome: Extract<ProviderOutcome, { kind: 'confirm' }>,
  code: string,
): Promise<void> {
  const { http } = await requireConnection();
  const res = await http.call('providerConfirm', {
    body: { state: outcome.state, secret: outcome.secret, code },
  });
  await signedIn(outcome.providerId, res);
}

/** Signs in with a Firebase ID token (the optional adapter, src/data/firebase-sign-in.ts). */
export async function signInWithFirebaseToken(idToken: string): Promise<void> {
  const { http } = await requireConnection();
  const res = await http.call('providerSignin', { body: { kind: 'firebase', idToken } });
  // The Firebase adapter never asks for a code: an untrusted address is refused with a sentence instead.
  if ('confirmEmail' in res) throw new SignInError('auth/confirm-email');
  await signedIn('firebase', res);
}

const METHODS_KEY = 'signin-methods';

/** The caller's sign-in methods (Settings): the e-mail code and the linked provider accounts. */
export function useSigninMethods(): RemoteState<SigninMethodsResponse> {
  return useRemoteQuery(METHODS_KEY, async () => {
    const { http } = await requireConnection();
    return http.call('signinMethods');
  });
}

/** Unlinks one provider account; the e-mail code always remains (decision 0025). */
export async function unlinkSigninMethod(identityId: string): Promise<void> {
  const { http } = await requireConnection();
  await http.call('unlinkSigninMethod', { params: { identityId } });
  await invalidateRemote(METHODS_KEY);
}

/**
 * Spec §7 sign-out from the provider, part of Lantern's logout. OpenID providers leave nothing in this
 * browser that Lantern holds (the server exchanged the code); Firebase keeps its own session, ended here.
 */
export async function providerSignOut(): Promise<void> {
  const list = await loadIdentityProviders().catch(() => null);
  if (!list?.firebase) return;
  const { firebaseSignOut } = await import('./firebase-sign-in.ts');
  await firebaseSignOut(list.firebase);
}

/**
 * Spec §7 redirect-result lookup: the ID token a redirect sign-in brought back, or null. Only the Firebase
 * adapter has one; the OpenID flow never gives the browser an ID token (decision 0025).
 */
export async function providerRedirectResult(): Promise<string | null> {
  const list = await loadIdentityProviders().catch(() => null);
  if (!list?.firebase) return null;
  const { firebaseRedirectResult } = await import('./firebase-sign-in.ts');
  return firebaseRedirectResult(list.firebase);
}
