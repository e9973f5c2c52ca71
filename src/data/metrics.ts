// Workspace metrics (spec §7 Metrics, issue 14): the nine /metric/* reads and the member-metrics setting.
// Answers are held in memory through remote-query.ts, never in the local store: they are figures about
// the whole workspace, only meaningful online, and they are computed by the server anyway. Every key
// starts with `metrics:{id}`, so changing the setting refreshes whatever metrics page is showing.
import type {
  ChannelCreationTrendResponse,
  EngagingMessagesResponse,
  GrowingChannelsResponse,
  HourlyActivityHeatmapResponse,
  LatestChannelsResponse,
  MetricPeriod,
  MetricSettings,
  MetricStatsResponse,
  MostVisitedChannelsResponse,
  MostVisitedGroupsResponse,
  MostVisitedMembersResponse,
} from '../../schemas/protocol/index.ts';
import type { JsonRouteName } from '../store/http.ts';
import { requireConnection } from './client.ts';
import { invalidateRemote, type RemoteState, setRemote, useRemoteQuery } from './remote-query.ts';

/** The window a metrics page asks for: no fromDate is "all" (spec §9); buckets in the viewer's zone. */
export interface MetricsWindow {
  fromDate: string | undefined;
  timezone: string;
}

const prefix = (institutionId: string) => `metrics:${institutionId}:`;

function query(window: MetricsWindow, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...(window.fromDate ? { fromDate: window.fromDate } : {}),
    timezone: window.timezone,
    ...extra,
  };
}

/** One windowed metric read: keyed by workspace, route, window and any extra query. */
function useMetric<T>(
  route: JsonRouteName,
  institutionId: string,
  window: MetricsWindow,
  extra: Record<string, string> = {},
): RemoteState<T> {
  const q = query(window, extra);
  const key = `${prefix(institutionId)}${route}?${new URLSearchParams(q)}`;
  return useRemoteQuery(key, async () => {
    const { http } = await requireConnection();
    return (await http.call(route, { params: { id: institutionId }, query: q })) as T;
  });
}

export const useMetricStats = (institutionId: string, window: MetricsWindow) =>
  useMetric<MetricStatsResponse>('metricStats', institutionId, window);

export const useEngagingMessages = (institutionId: string, window: MetricsWindow, page: number) =>
  useMetric<EngagingMessagesResponse>('metricEngagingMessages', institutionId, window, {
    page: String(page),
  });

export const useLatestChannels = (institutionId: string, window: MetricsWindow) =>
  useMetric<LatestChannelsResponse>('metricLatestChannels', institutionId, window);

export const useGrowingChannels = (institutionId: string, window: MetricsWindow) =>
  useMetric<GrowingChannelsResponse>('metricGrowingChannels', institutionId, window);

export const useMostVisitedChannels = (institutionId: string, window: MetricsWindow) =>
  useMetric<MostVisitedChannelsResponse>('metricMostVisitedChannels', institutionId, window);

export const useMostVisitedGroups = (institutionId: string, window: MetricsWindow) =>
  useMetric<MostVisitedGroupsResponse>('metricMostVisitedGroups', institutionId, window);

export const useMostVisitedMembers = (institutionId: string, window: MetricsWindow) =>
  useMetric<MostVisitedMembersResponse>('metricMostVisitedMembers', institutionId, window);

export const useChannelCreationTrend = (institutionId: string, window: MetricsWindow, period: MetricPeriod) =>
  useMetric<ChannelCreationTrendResponse>('metricChannelCreationTrend', institutionId, window, { period });

export const useHourlyActivityHeatmap = (institutionId: string, window: MetricsWindow) =>
  useMetric<HourlyActivityHeatmapResponse>('metricHourlyActivityHeatmap', institutionId, window);

const settingsKey = (institutionId: string) => `${prefix(institutionId)}settings`;

export function useMetricSettings(institutionId: string): RemoteState<MetricSettings> {
  return useRemoteQuery(settingsKey(institutionId), async () => {
    const { http } = await requireConnection();
    return http.call('metricSettings', { params: { id: institutionId } });
  });
}

/** Turns member-level metrics on or off; rejects with ApiError carrying the server's message. */
export async function setMemberMetricsEnabled(institutionId: string, enabled: boolean): Promise<void> {
  const { http } = await requireConnection();
  const saved = await http.call('updateMetricSettings', {
    params: { id: institutionId },
    body: { memberMetricsEnabled: enabled },
  });
  setRemote<MetricSettings>(settingsKey(institutionId), () => saved);
  await invalidateRemote(`${prefix(institutionId)}metricMostVisitedMembers`);
}
