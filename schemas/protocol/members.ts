// Workspace members: their record, roles and profile.
import { z } from 'zod';
import { channelType, id, isoDate, workspaceRole } from './primitives.ts';

export const member = z.object({
  id,
  institutionId: id,
  role: workspaceRole,
  /** Name and picture come from the member's user. */
  name: z.string(),
  email: z.string(),
  profileImage: z.string().nullable(),
  user: z.object({ id, isOnline: z.boolean() }),
  createdAt: isoDate,
  /** 'agent': an AI agent (GET .../agents has its settings); its messages are marked as AI. */
  kind: z.enum(['user', 'agent']).default('user'),
});
export type Member = z.infer<typeof member>;

// ───────────────────────────── REST: workspace members ─────────────────────────────
export const updateMemberBody = z.object({ role: workspaceRole });
export type UpdateMemberBody = z.infer<typeof updateMemberBody>;
export const bulkUpdateMembersBody = z.object({
  memberIds: z.array(id).min(1).max(500),
  update: updateMemberBody,
});
export type BulkUpdateMembersBody = z.infer<typeof bulkUpdateMembersBody>;
export const memberResponse = z.object({ member });
export const bulkUpdateMembersResponse = z.object({ data: z.array(member) });
/** A channel someone chose to show on their profile. */
export const profileChannel = z.object({ id, name: z.string(), type: channelType });
export type ProfileChannel = z.infer<typeof profileChannel>;
export const memberProfile = z.object({ member, channels: z.array(profileChannel) });
export type MemberProfile = z.infer<typeof memberProfile>;
