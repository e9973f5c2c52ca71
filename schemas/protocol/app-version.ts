// GET /api/version and the socket's serverBuild event: which build of the client the server serves now, and
// the route rules it has for paths (spec §2, §7 Other). A tab whose own build differs offers a reload.
import { z } from 'zod';

/** Longest build id or redirect target the client accepts; both come from the operator, not from users. */
const MAX_BUILD_ID = 200;
const MAX_REDIRECT = 2048;

export const buildId = z.string().min(1).max(MAX_BUILD_ID);

/**
 * Spec §2: a server-provided redirect for a path. A target starting with a single `/` stays in the app; an
 * absolute http(s) address elsewhere is followed by a full page load.
 */
export const routeRule = z.object({
  redirect: z
    .string()
    .min(1)
    .max(MAX_REDIRECT)
    .refine((v) => /^\/(?!\/)/.test(v) || /^https?:\/\//.test(v), {
      message: 'must be a path starting with / or an http(s) address',
    }),
});
export type RouteRule = z.infer<typeof routeRule>;

/** Route rules by exact path (`/join`, `/client/directory`). */
export const routeRules = z.record(
  z
    .string()
    .max(MAX_REDIRECT, { abort: true })
    .regex(/^\/[^?#]*$/),
  routeRule,
);
export type RouteRules = z.infer<typeof routeRules>;

export const appVersionResponse = z.object({
  /** The served client's build id; null when the server serves no built client (development). */
  buildId: buildId.nullable(),
  routeRules,
});
export type AppVersion = z.infer<typeof appVersionResponse>;

/** Sent once on every socket connection, so a tab learns of a deploy as soon as it reconnects. */
export const serverBuildEvent = z.object({ buildId });
export type ServerBuildEvent = z.infer<typeof serverBuildEvent>;
