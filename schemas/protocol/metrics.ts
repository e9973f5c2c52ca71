// Workspace metrics (spec §7 Metrics, issue 14): the queries every /metric/* endpoint takes and the shape
// of each answer. Windows are half-open [fromDate, toDate); the browser computes its presets (today, 7d,
// 30d, all) at local midnight in its own zone and sends that zone, which the server uses for buckets.
import { z } from 'zod';
import { id, isoDate } from './primitives.ts';

/** An instant as ISO 8601 with a zone or offset (`2026-03-29T00:00:00+01:00`, `…Z`). */
const instant = (field: string) =>
  z
    .string()
    .max(40, { abort: true, message: `${field} must be a date and time such as 2026-03-29T00:00:00Z` })
    .refine(
      (v) => /[zZ]|[+-]\d\d:?\d\d$/.test(v) && !Number.isNaN(Date.parse(v)),
      `${field} must be a date and time such as 2026-03-29T00:00:00Z`,
    );

/** An IANA time zone this server's ICU knows (`Europe/Berlin`, `Asia/Kathmandu`); UTC by default. */
export const metricTimezone = z
  .string()
  .max(64, { abort: true, message: 'timezone must be an IANA time zone such as Europe/Berlin' })
  .refine((v) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: v });
      return true;
    } catch {
      return false;
    }
  }, 'timezone must be an IANA time zone such as Europe/Berlin');

/** The window every metric query may carry. No fromDate: since the workspace began (preset "all"). */
export const metricWindowQuery = z.object({
  fromDate: instant('fromDate').optional(),
  /** Default: now. */
  toDate: instant('toDate').optional(),
  /** The viewer's zone; buckets (days, weeks, hours) are local to it. Default UTC. */
  timezone: metricTimezone.optional(),
});
export type MetricWindowQuery = z.infer<typeof metricWindowQuery>;

/** The window an answer was computed for, as the server resolved it. */
export const metricWindow = z.object({
  fromDate: isoDate.nullable(),
  toDate: isoDate,
  timezone: z.string(),
});

// ───────────────────────────── stats ─────────────────────────────

/** One summary figure and its change against the previous window of equal length. */
export const metricFigure = z.object({
  /** At toDate (members, channels, messages, files, storage, agents) or within the window (active members). */
  total: z.number(),
  /** Gained within the window (active members: active within it). */
  inPeriod: z.number(),
  /** The same within the previous window of equal length; null when the window has no start. */
  previousPeriod: z.number().nullable(),
});
export type MetricFigure = z.infer<typeof metricFigure>;

export const metricStatsResponse = metricWindow.extend({
  members: metricFigure,
  /** Members who posted, reacted or visited within the window. */
  activeMembers: metricFigure,
  channels: metricFigure,
  messages: metricFigure,
  files: metricFigure,
  /** Bytes of stored files. */
  storageBytes: metricFigure,
  agents: metricFigure,
});
export type MetricStatsResponse = z.infer<typeof metricStatsResponse>;

// ───────────────────────────── engaging messages ─────────────────────────────

export const engagingMessagesQuery = metricWindowQuery.extend({
  page: z.coerce
    .number()
    .int('page must be a whole number')
    .min(1, 'page starts at 1')
    .max(10_000)
    .default(1),
  limit: z.coerce
    .number()
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(50, 'limit is at most 50')
    .default(50),
});
export type EngagingMessagesQuery = z.infer<typeof engagingMessagesQuery>;

export const engagingMessage = z.object({
  messageId: id,
  channelId: id,
  channelName: z.string(),
  authorId: id.nullable(),
  authorName: z.string(),
  /** Plain text, at most 200 characters. */
  excerpt: z.string(),
  createdAt: isoDate,
  replies: z.number(),
  reactions: z.number(),
  pollVotes: z.number(),
  /** replies + reactions + pollVotes: the rank. */
  score: z.number(),
});
export type EngagingMessage = z.infer<typeof engagingMessage>;

export const engagingMessagesResponse = metricWindow.extend({
  data: z.array(engagingMessage),
  metadata: z.object({ page: z.number(), limit: z.number(), total: z.number(), hasMore: z.boolean() }),
});
export type EngagingMessagesResponse = z.infer<typeof engagingMessagesResponse>;

// ───────────────────────────── channels ─────────────────────────────

export const metricChannel = z.object({
  channelId: id,
  name: z.string(),
  type: z.enum(['public', 'private']),
});

export const latestChannelsResponse = metricWindow.extend({
  /** Newest first, at most 50. */
  data: z.array(
    metricChannel.extend({
      createdAt: isoDate,
      createdBy: z.object({ id: id, name: z.string() }).nullable(),
      members: z.number(),
      messages: z.number(),
    }),
  ),
});
export type LatestChannelsResponse = z.infer<typeof latestChannelsResponse>;

/** Gained within the window against the previous window of equal length. */
export const metricGrowth = z.object({
  gained: z.number(),
  previousGained: z.number().nullable(),
  /** gained − previousGained. */
  change: z.number().nullable(),
  /** change ÷ previousGained; null when there is no previous window or it gained nothing. */
  relativeChange: z.number().nullable(),
});

export const growingChannelsResponse = metricWindow.extend({
  /** Most messages gained first, at most 50. */
  data: z.array(metricChannel.extend({ members: metricGrowth, messages: metricGrowth })),
});
export type GrowingChannelsResponse = z.infer<typeof growingChannelsResponse>;

// ───────────────────────────── visits ─────────────────────────────

/** A visit counts at most once per person per target per 30 minutes. */
export const visitedRow = z.object({
  id: id,
  name: z.string(),
  /** Distinct people. */
  visitors: z.number(),
  visits: z.number(),
});

export const mostVisitedChannelsResponse = metricWindow.extend({
  data: z.array(visitedRow.extend({ type: z.enum(['public', 'private']) })),
});
export const mostVisitedGroupsResponse = metricWindow.extend({ data: z.array(visitedRow) });
export const mostVisitedMembersResponse = metricWindow.extend({
  /** The workspace turned member-level metrics off: data is empty and the page says so. */
  memberMetricsEnabled: z.boolean(),
  /** Rows with fewer distinct visitors than this are left out. */
  minimumVisitors: z.number(),
  data: z.array(visitedRow),
});
export type MostVisitedChannelsResponse = z.infer<typeof mostVisitedChannelsResponse>;
export type MostVisitedGroupsResponse = z.infer<typeof mostVisitedGroupsResponse>;
export type MostVisitedMembersResponse = z.infer<typeof mostVisitedMembersResponse>;

// ───────────────────────────── trend and heatmap ─────────────────────────────

export const metricPeriod = z.enum(['day', 'week', 'month']);
export type MetricPeriod = z.infer<typeof metricPeriod>;

export const channelCreationTrendQuery = metricWindowQuery.extend({
  period: metricPeriod.default('day'),
});
export type ChannelCreationTrendQuery = z.infer<typeof channelCreationTrendQuery>;

export const channelCreationTrendResponse = metricWindow.extend({
  period: metricPeriod,
  /** Weeks start on Monday, local time. */
  weekStartsOn: z.literal('monday'),
  /** Every bucket of the window in order, empty ones included. */
  buckets: z.array(
    z.object({
      /** The bucket's first local day, YYYY-MM-DD. */
      date: z.string(),
      /** The instant that local day began. */
      start: isoDate,
      count: z.number(),
    }),
  ),
});
export type ChannelCreationTrendResponse = z.infer<typeof channelCreationTrendResponse>;

export const hourlyActivityHeatmapResponse = metricWindow.extend({
  weekStartsOn: z.literal('monday'),
  /** 7 rows (Monday first) of 24 local hours: messages posted. */
  grid: z.array(z.array(z.number()).length(24)).length(7),
  total: z.number(),
});
export type HourlyActivityHeatmapResponse = z.infer<typeof hourlyActivityHeatmapResponse>;

// ───────────────────────────── settings ─────────────────────────────

/** GET/PUT /metric/settings: the workspace's privacy choice for member-level metrics. */
export const metricSettings = z.object({ memberMetricsEnabled: z.boolean() });
export type MetricSettings = z.infer<typeof metricSettings>;
