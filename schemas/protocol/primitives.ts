// Building blocks every domain uses: ids, e-mail, dates, roles and channel types.
import { z } from 'zod';
import { ID_MAX } from './limits.ts';

// ───────────────────────────── primitives ─────────────────────────────
export const id = z.string().min(1).max(ID_MAX);
/** Client-generated UUID (v7 by convention, so it sorts by creation time). */
export const genId = z.string().max(36, { abort: true }).uuid();
export const email = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(
    z
      .string()
      .max(254, { abort: true, message: 'An e-mail address has at most 254 characters' })
      .email('Enter a valid e-mail address'),
  );
export const isoDate = z.string();

export const workspaceRole = z.enum(['primary_owner', 'owner', 'admin', 'member', 'guest']);
export type WorkspaceRole = z.infer<typeof workspaceRole>;
export const channelType = z.enum(['public', 'private', 'direct_message']);
export type ChannelType = z.infer<typeof channelType>;
