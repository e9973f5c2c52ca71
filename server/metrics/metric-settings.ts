// The workspace's metrics privacy setting: whether metrics may name members (most-visited members).
import { eq } from 'drizzle-orm';
import type { MetricSettings } from '../../schemas/protocol/index.ts';
import type { Db } from '../db/client.ts';
import { institutions } from '../db/schema.ts';

export async function memberMetricsEnabled(db: Db, institutionId: string): Promise<boolean> {
  const [row] = await db
    .select({ enabled: institutions.memberMetricsEnabled })
    .from(institutions)
    .where(eq(institutions.id, institutionId))
    .limit(1);
  return row?.enabled ?? true;
}

export async function metricSettingsOf(db: Db, institutionId: string): Promise<MetricSettings> {
  return { memberMetricsEnabled: await memberMetricsEnabled(db, institutionId) };
}

export async function updateMetricSettings(
  db: Db,
  institutionId: string,
  settings: MetricSettings,
): Promise<MetricSettings> {
  await db
    .update(institutions)
    .set({ memberMetricsEnabled: settings.memberMetricsEnabled })
    .where(eq(institutions.id, institutionId));
  return metricSettingsOf(db, institutionId);
}
