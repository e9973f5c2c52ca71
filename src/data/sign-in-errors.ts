// What a failed provider sign-in says (spec §8): the popup closed, the network, the raw code of any other
// coded error, or the generic sentence. A refusal from our server (a domain not allowed, sign-up closed) is
// a sentence already and is shown as it is.
import { ApiError } from '../store/http.ts';
import { NETWORK_FAILED, POPUP_CLOSED, SignInError } from './identity.ts';

export const POPUP_CLOSED_TEXT = 'Sign-in popup was closed. Please try again.';
export const NETWORK_TEXT = 'Network error. Please check your connection.';
export const SOMETHING_WRONG_TEXT = 'Something went wrong. Please try again.';

export function signInErrorText(error: unknown): string {
  if (error instanceof ApiError) return error.message || SOMETHING_WRONG_TEXT;
  if (error instanceof TypeError && /fetch|network|load failed/i.test(error.message)) return NETWORK_TEXT;
  if (error instanceof SignInError) {
    if (error.code === POPUP_CLOSED || error.code === 'auth/cancelled-popup-request')
      return POPUP_CLOSED_TEXT;
    if (error.code === NETWORK_FAILED) return NETWORK_TEXT;
    // The server's own start page explains itself (an unknown provider, a provider that is down).
    if (error.message && error.message !== error.code) return error.message;
    return error.code;
  }
  return SOMETHING_WRONG_TEXT;
}
