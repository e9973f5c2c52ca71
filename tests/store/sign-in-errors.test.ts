// What a person reads when a provider sign-in fails (spec §8), and where the app runs without a service
// worker (in-app browsers of social apps, spec §7).
import { describe, expect, it } from 'vitest';
import { isInAppBrowser } from '../../src/app/in-app-browser.ts';
import { SignInError } from '../../src/data/identity.ts';
import { signInErrorText } from '../../src/data/sign-in-errors.ts';
import { ApiError } from '../../src/store/http.ts';

describe('sign-in error toasts', () => {
  it.each([
    [new SignInError('auth/popup-closed-by-user'), 'Sign-in popup was closed. Please try again.'],
    [new SignInError('auth/cancelled-popup-request'), 'Sign-in popup was closed. Please try again.'],
    [new SignInError('auth/network-request-failed'), 'Network error. Please check your connection.'],
    [new TypeError('Failed to fetch'), 'Network error. Please check your connection.'],
    [new SignInError('auth/popup-blocked'), 'auth/popup-blocked'],
    [new SignInError('server_error'), 'server_error'],
    [
      new SignInError('temporarily_unavailable', 'School ID could not be reached.'),
      'School ID could not be reached.',
    ],
    [
      new ApiError(403, 'New accounts cannot be created with Corp on this server.'),
      'New accounts cannot be created with Corp on this server.',
    ],
    [new Error('boom'), 'Something went wrong. Please try again.'],
    ['nothing', 'Something went wrong. Please try again.'],
  ])('%s → %s', (error, text) => {
    expect(signInErrorText(error)).toBe(text);
  });
});

describe('in-app browsers', () => {
  it('recognises social apps’ web views and not ordinary browsers', () => {
    expect(
      isInAppBrowser(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 300.0',
      ),
    ).toBe(true);
    expect(
      isInAppBrowser('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 [FB_IAB/FB4A;FBAV/440.0]'),
    ).toBe(true);
    expect(
      isInAppBrowser(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      ),
    ).toBe(false);
  });
});
