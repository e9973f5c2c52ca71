// A workspace's shareable invite link (decision 0045): admins create, copy, regenerate and revoke it;
// anyone signed in who opens it sees the workspace's name and joins with one click.
import { z } from 'zod';
import { id, isoDate } from './primitives.ts';

/** The secret part of the link: 32 random bytes, base64url. Anything else is refused before a lookup. */
export const inviteLinkToken = z
  .string()
  .max(64, { abort: true, message: 'This invite link is not valid' })
  .regex(/^[A-Za-z0-9_-]{43}$/, 'This invite link is not valid');

/** How long a new link works, in days. */
export const INVITE_LINK_DAYS = [1, 7, 30] as const;

export const inviteLink = z.object({
  token: z.string(),
  /** The address to share: PUBLIC_URL's /join page carrying the token. */
  url: z.string(),
  expiresAt: isoDate,
  createdAt: isoDate,
});
export type InviteLink = z.infer<typeof inviteLink>;

// ───────────────────────────── REST: invite links ─────────────────────────────
/** GET/POST .../invite-link: the workspace's live link, or null when there is none. */
export const inviteLinkResponse = z.object({ link: inviteLink.nullable() });
export type InviteLinkResponse = z.infer<typeof inviteLinkResponse>;
export const createInviteLinkBody = z.object({
  expiresInDays: z.union(
    INVITE_LINK_DAYS.map((d) => z.literal(d)),
    {
      error: 'A link lasts 1, 7 or 30 days',
    },
  ),
});
export type CreateInviteLinkBody = z.infer<typeof createInviteLinkBody>;
/** GET /api/invite-links/{token}: what the person opening the link is about to join. */
export const inviteLinkPreview = z.object({
  institution: z.object({ id, name: z.string() }),
  inviterName: z.string().nullable(),
  /** Already a member: the page offers to open the workspace instead of joining. */
  isMember: z.boolean(),
  expiresAt: isoDate,
});
export type InviteLinkPreview = z.infer<typeof inviteLinkPreview>;
