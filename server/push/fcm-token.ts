// A Firebase registration token is kept in the same row as a browser's Web Push subscription (one per
// session, decision 0046): its `endpoint` is `fcm:` and the token, which no https endpoint can be, and the
// encryption keys stay empty (FCM encrypts for its own clients). The one-endpoint-one-session rule then
// holds for tokens too.
const PREFIX = 'fcm:';

export const fcmEndpoint = (token: string): string => `${PREFIX}${token}`;

/** The registration token a stored endpoint names, or null for a Web Push endpoint. */
export function fcmTokenOf(endpoint: string): string | null {
  return endpoint.startsWith(PREFIX) ? endpoint.slice(PREFIX.length) : null;
}

/**
 * Why a string is not a registration token, or null. FCM's tokens are opaque, but in practice 100–300
 * characters of base64url with a colon or two (`<instance id>:APA91b…`); anything else is refused before it
 * is stored and sent to Google in a request body.
 */
export function fcmTokenRefusal(token: string): string | null {
  if (token.length < 32) return 'This is too short to be a Firebase registration token';
  if (token.length > 1024) return 'This is too long to be a Firebase registration token';
  if (!/^[A-Za-z0-9_:-]+$/.test(token))
    return 'A Firebase registration token holds only letters, digits, "-", "_" and ":"';
  return null;
}
