// Groups of workspace members.
import { z } from 'zod';
import { NAME_MAX } from './limits.ts';
import { email, id, isoDate } from './primitives.ts';

// ───────────────────────────── REST: groups ─────────────────────────────
export const group = z.object({
  id,
  institutionId: id,
  name: z.string(),
  createdBy: id.nullable(),
  /** Workspace member ids. */
  memberIds: z.array(id),
  createdAt: isoDate,
});
export type Group = z.infer<typeof group>;
export const groupsResponse = z.object({ data: z.array(group) });
export const groupResponse = z.object({ group });
export const groupBody = z.object({ name: z.string().trim().min(1, 'Name cannot be empty').max(NAME_MAX) });
export const groupEmailsBody = z.object({
  emails: z.array(email).min(1).max(100),
  action: z.enum(['add', 'remove']),
});
export type GroupEmailsBody = z.infer<typeof groupEmailsBody>;
/** The group after the change, and the e-mails that belong to no member of the workspace. */
export const groupEmailsResponse = z.object({ group, unknownEmails: z.array(z.string()) });
export type GroupEmailsResponse = z.infer<typeof groupEmailsResponse>;
