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
});
export type UserSession = z.infer<typeof userSession>;
export const userSessionsResponse = z.object({ data: z.array(userSession) });
/** DELETE /api/users/sessions/:sessionId signs out one of the caller's devices. */
export const sessionIdParams = z.object({ sessionId: z.string().max(64, 'Not a session id') });
/** POST /api/users/sessions/revoke-others: how many other devices were signed out. */
export const revokeOtherSessionsResponse = z.object({ revoked: z.number().int() });
export type RevokeOtherSessionsResponse = z.infer<typeof revokeOtherSessionsResponse>;
