// REST routes for workspace metrics (spec §2, §7; issue 14): workspace owners and admins only, every
// query validated by schemas/protocol/metrics.ts. The answers come from rollups (server/metrics).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  channelCreationTrendQuery,
  engagingMessagesQuery,
  id,
  metricSettings,
  metricWindowQuery,
} from '../../schemas/protocol/index.ts';
import { type MemberRow, requireWorkspaceAdmin } from '../access.ts';
import type { AppContext } from '../context.ts';
import { hourlyActivityHeatmap } from '../metrics/activity-heatmap.ts';
import { channelCreationTrend } from '../metrics/channel-creation-trend.ts';
import { growingChannels, latestChannels } from '../metrics/channel-metrics.ts';
import { engagingMessages } from '../metrics/engaging-messages.ts';
import { metricSettingsOf, updateMetricSettings } from '../metrics/metric-settings.ts';
import { metricStats } from '../metrics/stats.ts';
import { mostVisitedChannels, mostVisitedGroups, mostVisitedMembers } from '../metrics/visit-metrics.ts';
import { resolveWindow } from '../metrics/window.ts';
import { getAuth } from './auth-hook.ts';

const workspaceParams = z.object({ id });
const base = '/api/institutions/:id/metric';

export function registerMetricRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;
  /** Who asks (an admin of this workspace, else 403) and for which workspace. */
  const admin = async (request: FastifyRequest): Promise<{ institutionId: string; viewer: MemberRow }> => {
    const { userId } = getAuth(request);
    const { id: institutionId } = workspaceParams.parse(request.params);
    const viewer = await requireWorkspaceAdmin(db, institutionId, userId);
    return { institutionId, viewer };
  };
  const windowOf = (request: FastifyRequest) => resolveWindow(metricWindowQuery.parse(request.query));

  app.get(`${base}/stats`, async (request) => {
    const { institutionId } = await admin(request);
    return metricStats(db, institutionId, windowOf(request));
  });

  app.get(`${base}/engaging-messages`, async (request) => {
    const { institutionId, viewer } = await admin(request);
    const query = engagingMessagesQuery.parse(request.query);
    return engagingMessages(db, institutionId, viewer.id, resolveWindow(query), query.page, query.limit);
  });

  app.get(`${base}/latest-channels`, async (request) => {
    const { institutionId } = await admin(request);
    return latestChannels(db, institutionId, windowOf(request));
  });

  app.get(`${base}/growing-channels`, async (request) => {
    const { institutionId } = await admin(request);
    return growingChannels(db, institutionId, windowOf(request));
  });

  app.get(`${base}/most-visited-channels`, async (request) => {
    const { institutionId } = await admin(request);
    return mostVisitedChannels(db, institutionId, windowOf(request));
  });

  app.get(`${base}/most-visited-groups`, async (request) => {
    const { institutionId } = await admin(request);
    return mostVisitedGroups(db, institutionId, windowOf(request));
  });

  app.get(`${base}/most-visited-members`, async (request) => {
    const { institutionId } = await admin(request);
    return mostVisitedMembers(db, institutionId, windowOf(request));
  });

  app.get(`${base}/channel-creation-trend`, async (request) => {
    const { institutionId } = await admin(request);
    const query = channelCreationTrendQuery.parse(request.query);
    return channelCreationTrend(db, institutionId, resolveWindow(query), query.period);
  });

  app.get(`${base}/hourly-activity-heatmap`, async (request) => {
    const { institutionId } = await admin(request);
    return hourlyActivityHeatmap(db, institutionId, windowOf(request));
  });

  app.get(`${base}/settings`, async (request) => {
    const { institutionId } = await admin(request);
    return metricSettingsOf(db, institutionId);
  });

  app.put(`${base}/settings`, async (request) => {
    const { institutionId } = await admin(request);
    const body = metricSettings.strict().parse(request.body);
    return updateMetricSettings(db, institutionId, body);
  });
}
