// The activity feed: mentions of, replies to and reactions on the caller.
import { z } from 'zod';
import { MESSAGE_PAGE_MAX, PAGE_NUMBER_MAX, PAGE_NUMBER_TOO_BIG } from './limits.ts';
import { message } from './messages.ts';
import { id, isoDate } from './primitives.ts';

export const ACTIVITY_PAGE_SIZE = 20;

// ───────────────────────────── REST: activity feed ─────────────────────────────
/** mention: of me, a role or group I hold, @everyone/@here; reply: to my message; reaction: on my message. */
export const activityType = z.enum(['mention', 'reply', 'reaction']);
export type ActivityType = z.infer<typeof activityType>;
export const activity = z.object({
  id,
  type: activityType,
  message,
  actorMemberId: id,
  /** The emoji of a reaction activity; null for the others. */
  emoji: z.string().nullable(),
  createdAt: isoDate,
  read: z.boolean(),
});
export type Activity = z.infer<typeof activity>;
export const activitiesQuery = z.object({
  page: z.coerce.number().int().min(1).max(PAGE_NUMBER_MAX, PAGE_NUMBER_TOO_BIG).default(1),
  limit: z.coerce.number().int().min(1).max(MESSAGE_PAGE_MAX).default(ACTIVITY_PAGE_SIZE),
});
export const activitiesResponse = z.object({
  data: z.array(activity),
  metadata: z.object({
    page: z.number(),
    limit: z.number(),
    total: z.number(),
    hasMore: z.boolean(),
    unread: z.number(),
  }),
});
export type ActivitiesResponse = z.infer<typeof activitiesResponse>;
/** Either these ids or all of the caller's activities in the workspace. */
export const markActivitiesReadBody = z
  .object({ ids: z.array(id).min(1).max(500).optional(), all: z.literal(true).optional() })
  .refine((b) => (b.ids ? !b.all : b.all), 'Give either ids or all');
export type MarkActivitiesReadBody = z.infer<typeof markActivitiesReadBody>;
export const markActivitiesReadResponse = z.object({ unread: z.number() });
