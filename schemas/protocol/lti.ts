// LTI 1.3: exchanging a launch for a session, and the learning platforms a workspace admin registers.
import { z } from 'zod';
import { id, isoDate } from './primitives.ts';
import { user } from './users.ts';

/** An address a platform publishes: http(s) only, bounded before any parsing. */
const platformUrl = z
  .string()
  .trim()
  .max(2048, { abort: true, message: 'Addresses are at most 2048 characters' })
  .url('Enter a full address, such as https://moodle.example.edu/mod/lti/auth.php')
  .refine((v) => /^https?:\/\//i.test(v), 'Addresses start with https:// (or http://)');

// ───────────────────────────── REST: launch ─────────────────────────────
export const ltiLaunchBody = z.object({
  ltik: z.string().max(200, { abort: true, message: 'This launch link is not valid' }).min(1),
  /** The login's state, read back from the platform's postMessage storage where the platform offers it. */
  state: z.string().max(200).optional(),
});
export const ltiLaunchResponse = z.object({
  accessToken: z.string(),
  user,
  /** The course's workspace and, for a resource link, its channel. */
  institutionId: id,
  channelId: id.nullable(),
  /**
   * For an instructor's deep-linking request: a single-use token with which the page answers the platform
   * with the channel the instructor picks (POST /api/lti/deep-link). Null for an ordinary launch.
   */
  deepLinkToken: z.string().nullable(),
});
export type LtiLaunchResponse = z.infer<typeof ltiLaunchResponse>;

export const ltiDeepLinkBody = z.object({ deepLinkToken: z.string().min(1).max(200), channelId: id });
/** What the page form-posts to the platform: the signed LtiDeepLinkingResponse. */
export const ltiDeepLinkResponse = z.object({ returnUrl: z.string(), jwt: z.string() });
export type LtiDeepLinkResponse = z.infer<typeof ltiDeepLinkResponse>;

// ───────────────────────────── REST: platforms ─────────────────────────────
export const ltiPlatformBody = z.object({
  name: z.string().trim().min(1, 'Give the platform a name').max(100),
  issuer: platformUrl,
  clientId: z.string().trim().min(1, 'Enter the client id the platform gave Lantern').max(255),
  authLoginUrl: platformUrl,
  tokenUrl: platformUrl,
  keySetUrl: platformUrl,
  deploymentIds: z
    .array(z.string().trim().min(1).max(255))
    .min(1, 'Enter at least one deployment id')
    .max(50),
});
export type LtiPlatformBody = z.infer<typeof ltiPlatformBody>;

export const ltiPlatform = ltiPlatformBody.extend({
  id,
  /** The address to enter in the platform as the tool's login initiation URL. */
  loginUrl: z.string(),
  createdAt: isoDate,
});
export type LtiPlatform = z.infer<typeof ltiPlatform>;

/** The tool's own addresses, to copy into a platform's manual registration form. */
export const ltiToolInfo = z.object({
  launchUrl: z.string(),
  keySetUrl: z.string(),
  /** Login initiation: each platform has its own, shown with it once registered. */
  loginUrlPattern: z.string(),
});
export const ltiPlatformsResponse = z.object({ platforms: z.array(ltiPlatform), tool: ltiToolInfo });
export type LtiPlatformsResponse = z.infer<typeof ltiPlatformsResponse>;
export const ltiRegistrationLinkResponse = z.object({ url: z.string(), expiresAt: isoDate });
