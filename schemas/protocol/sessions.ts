// A person's signed-in devices.
import { z } from 'zod';
import { id, isoDate } from './primitives.ts';

/** One signed-in device of the caller (GET /api/users/sessions). */
export const userSession = z.object({
  id,
  userAgent: z.string().nullable(),
  createdAt: isoDate,
  lastUsedAt: isoDate,
  /** True for the session making the request. */
  current: z.boolean(),
  /** A readable name made by the server from the user agent: "Chrome on Android", "Safari on iPhone". */
  deviceName: z.string(),
  /**
   * Another session of the same device (the same sessionClientId as the caller's): signed in twice, e.g.
   * from a second tab after signing out in another, or a second browser profile with the same traits.
   */
  sameDevice: z.boolean(),
});
export type UserSession = z.infer<typeof userSession>;
export const userSessionsResponse = z.object({ data: z.array(userSession) });
/** DELETE /api/users/sessions/:sessionId signs out one of the caller's devices. */
export const sessionIdParams = z.object({ sessionId: z.string().max(64, 'Not a session id') });
/** POST /api/users/sessions/revoke-others: how many other devices were signed out. */
export const revokeOtherSessionsResponse = z.object({ revoked: z.number().int() });
export type RevokeOtherSessionsResponse = z.infer<typeof revokeOtherSessionsResponse>;

/**
 * PUT /api/users/sessions/ping: "this device is open". It may name the device (spec §3 sessionClientId, a
 * SHA-256 of device traits, src/app/device-id.ts) so the session records it when sign-in did not.
 */
export const pingSessionBody = z.object({
  sessionClientId: z
    .string()
    .max(64, { abort: true, message: 'Not a device id' })
    .regex(/^[0-9a-f]{64}$/, 'Not a device id')
    .optional(),
  /** The channel the person is looking at: no push for it reaches them while they are (decision 0032). */
  channelId: id.optional(),
});
export { SESSION_CLIENT_HEADER } from './headers.ts';
