// Most-visited channels, groups and members: distinct visitors and counted visits within the window (a
// visit counts at most once per person per target per 30 minutes; server/metrics/rollup-triggers.ts).
// Member rows respect the workspace's privacy: none when member-level metrics are off, and none with
// fewer than MINIMUM_VISITORS distinct visitors (so a row never points at one or two people's habits).
import { type SQL, sql } from 'drizzle-orm';
import type {
  MostVisitedChannelsResponse,
  MostVisitedGroupsResponse,
  MostVisitedMembersResponse,
} from '../../schemas/protocol/index.ts';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import { memberMetricsEnabled } from './metric-settings.ts';
import { type MetricWindow, windowFields } from './window.ts';

const ROWS = 50;
export const MINIMUM_VISITORS = 5;

type VisitRow = { id: string; name: string; type?: 'public' | 'private'; visitors: unknown; visits: unknown };

async function mostVisited(
  db: Db,
  institutionId: string,
  w: MetricWindow,
  targetType: 'channel' | 'group' | 'member',
  /** Joins the target table as `t` (with `t.id`, `t.name`) and filters it. */
  target: SQL,
  minimumVisitors: number,
): Promise<VisitRow[]> {
  const from = (w.from ?? new Date(0)).toISOString();
  return rowsOf<VisitRow>(
    await db.execute(sql`
      select t.*, v.visitors, v.visits from (
        select target_id, count(distinct visitor_member_id) as visitors, sum(visits) as visits
        from metric_visit_quarters
        where institution_id = ${institutionId} and target_type = ${targetType}
          and quarter >= ${from} and quarter < ${w.to.toISOString()} and visits > 0
        group by target_id
        having count(distinct visitor_member_id) >= ${minimumVisitors}
      ) v
      join ${target} on t.id = v.target_id
      order by v.visits desc, v.visitors desc, t.name, t.id
      limit ${ROWS}`),
  );
}

const toRow = (r: VisitRow) => ({
  id: r.id,
  name: r.name,
  visitors: Number(r.visitors),
  visits: Number(r.visits),
});

export async function mostVisitedChannels(
  db: Db,
  institutionId: string,
  w: MetricWindow,
): Promise<MostVisitedChannelsResponse> {
  const rows = await mostVisited(
    db,
    institutionId,
    w,
    'channel',
    sql`(select id, name, type from channels
         where institution_id = ${institutionId} and type <> 'direct_message') t`,
    1,
  );
  return { ...windowFields(w), data: rows.map((r) => ({ ...toRow(r), type: r.type ?? 'public' })) };
}

export async function mostVisitedGroups(
  db: Db,
  institutionId: string,
  w: MetricWindow,
): Promise<MostVisitedGroupsResponse> {
  const rows = await mostVisited(
    db,
    institutionId,
    w,
    'group',
    sql`(select id, name from groups where institution_id = ${institutionId}) t`,
    1,
  );
  return { ...windowFields(w), data: rows.map(toRow) };
}

export async function mostVisitedMembers(
  db: Db,
  institutionId: string,
  w: MetricWindow,
): Promise<MostVisitedMembersResponse> {
  const enabled = await memberMetricsEnabled(db, institutionId);
  const base = { ...windowFields(w), memberMetricsEnabled: enabled, minimumVisitors: MINIMUM_VISITORS };
  if (!enabled) return { ...base, data: [] };
  const rows = await mostVisited(
    db,
    institutionId,
    w,
    'member',
    sql`(select m.id, u.name from members m join users u on u.id = m.user_id
         where m.institution_id = ${institutionId}) t`,
    MINIMUM_VISITORS,
  );
  return { ...base, data: rows.map(toRow) };
}
