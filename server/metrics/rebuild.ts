// Recomputes one workspace's metrics rollups from the source rows: after a bulk import that bypassed the
// triggers (bench/metrics.ts), for data written before the triggers existed, or to check them. One
// transaction: an interrupted rebuild leaves the previous rollups, and running it again gives the same
// numbers as the triggers keep. Reactions and poll votes given (member activity) have no timestamp in the
// source rows, so those counts are kept as the triggers recorded them.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';

/** Names each step, so a caller can report progress (or stop between steps). */
export type RebuildStep =
  | 'cleared'
  | 'workspace quarters'
  | 'channel quarters'
  | 'channel totals'
  | 'member activity'
  | 'visits'
  | 'engagement';

export async function rebuildMetricRollups(
  db: Db,
  institutionId: string,
  onStep?: (step: RebuildStep) => void | Promise<void>,
): Promise<void> {
  const id = institutionId;
  await db.transaction(async (tx) => {
    const step = async (name: RebuildStep) => onStep?.(name);
    // Writers wait while the rollups are rebuilt, so none is counted twice or lost.
    await tx.execute(
      sql`lock table messages, channels, members, channel_members, visits in share row exclusive mode`,
    );
    for (const table of [
      'metric_quarters',
      'metric_channel_quarters',
      'metric_channel_totals',
      'metric_visit_quarters',
      'metric_engagement',
    ])
      await tx.execute(sql`delete from ${sql.identifier(table)} where institution_id = ${id}`);
    await tx.execute(
      sql`update metric_member_quarters set posts = 0, visits = 0 where institution_id = ${id}`,
    );
    await step('cleared');

    await tx.execute(sql`
      insert into metric_quarters (institution_id, quarter, messages, channels, members)
      select ${id}, quarter, sum(m)::integer, sum(c)::integer, sum(u)::integer from (
        select metric_quarter(created_at) as quarter, 1 as m, 0 as c, 0 as u
          from messages where institution_id = ${id} and deleted_at is null
        union all
        select metric_quarter(created_at), 0, 1, 0
          from channels where institution_id = ${id} and type <> 'direct_message'
        union all
        select metric_quarter(created_at), 0, 0, 1 from members where institution_id = ${id} and kind = 'user'
      ) s group by quarter`);
    await step('workspace quarters');

    await tx.execute(sql`
      insert into metric_channel_quarters (institution_id, channel_id, quarter, messages, members)
      select ${id}, channel_id, quarter, sum(m)::integer, sum(j)::integer from (
        select channel_id, metric_quarter(created_at) as quarter, 1 as m, 0 as j
          from messages where institution_id = ${id} and deleted_at is null
        union all
        select cm.channel_id, metric_quarter(cm.joined_at), 0, 1
          from channel_members cm join channels c on c.id = cm.channel_id where c.institution_id = ${id}
      ) s group by channel_id, quarter`);
    await step('channel quarters');

    await tx.execute(sql`
      insert into metric_channel_totals (channel_id, institution_id, messages, members)
      select c.id, ${id},
        coalesce((select sum(messages) from metric_channel_quarters q where q.channel_id = c.id), 0)::integer,
        coalesce((select sum(members) from metric_channel_quarters q where q.channel_id = c.id), 0)::integer
      from channels c where c.institution_id = ${id}`);
    await step('channel totals');

    await tx.execute(sql`
      insert into metric_member_quarters as t (institution_id, member_id, quarter, posts)
      select ${id}, member_id, metric_quarter(created_at), count(*)::integer
        from messages where institution_id = ${id} and deleted_at is null
          and member_id in (select id from members where institution_id = ${id})
        group by member_id, metric_quarter(created_at)
      on conflict (member_id, quarter) do update set posts = excluded.posts`);
    await tx.execute(sql`
      insert into metric_member_quarters as t (institution_id, member_id, quarter, visits)
      select ${id}, visitor_member_id, metric_quarter(created_at), count(*)::integer
        from visits where institution_id = ${id} and counted
        group by visitor_member_id, metric_quarter(created_at)
      on conflict (member_id, quarter) do update set visits = excluded.visits`);
    await tx.execute(sql`
      delete from metric_member_quarters
      where institution_id = ${id} and posts = 0 and visits = 0 and reactions = 0`);
    await step('member activity');

    await tx.execute(sql`
      insert into metric_visit_quarters (institution_id, target_type, target_id, visitor_member_id, quarter, visits)
      select ${id}, target_type, target_id, visitor_member_id, metric_quarter(created_at), count(*)::integer
        from visits where institution_id = ${id} and counted
        group by target_type, target_id, visitor_member_id, metric_quarter(created_at)`);
    await step('visits');

    await tx.execute(sql`
      insert into metric_engagement
        (message_id, institution_id, channel_id, created_at, replies, reactions, poll_votes, score)
      select id, institution_id, channel_id, created_at, replies, reactions, votes, replies + reactions + votes
      from (
        select p.id, p.institution_id, p.channel_id, p.created_at,
          coalesce(r.replies, 0)::integer as replies,
          metric_reaction_count(p.reactions) as reactions,
          metric_poll_votes(p.poll) as votes
        from messages p
        left join (
          select reply_to, count(*) as replies from messages
          where institution_id = ${id} and deleted_at is null and reply_to is not null group by reply_to
        ) r on r.reply_to = p.id
        where p.institution_id = ${id} and p.deleted_at is null
          and (r.replies is not null or p.reactions <> '[]'::jsonb or p.poll is not null)
      ) s where replies + reactions + votes > 0`);
    await step('engagement');
  });
}

/** Every workspace's rollups: once, when the triggers meet data written before they existed. */
export async function rebuildAllMetricRollups(db: Db): Promise<void> {
  const rows = rowsOf<{ id: string }>(await db.execute(sql`select id from institutions`));
  for (const row of rows) await rebuildMetricRollups(db, row.id);
}
