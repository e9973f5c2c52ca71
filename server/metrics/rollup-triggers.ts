// The database triggers that keep the metrics rollups (server/db/schema.ts, metric_*) in the same
// transaction as the rows they count: messages (posted, deleted, replies, reactions, poll votes),
// channels, workspace members, channel members and visits. Every writer, present or future, is covered
// without knowing about metrics. Installed at start-up (CREATE OR REPLACE: idempotent) because drizzle-kit
// generates tables, not functions; decision 0038.
//
// What must stay true: each rollup equals what server/metrics/rebuild.ts computes from the source rows.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import { rebuildAllMetricRollups } from './rebuild.ts';

/** Quarter hour (UTC) an instant falls in: floor to 900 s. */
const QUARTER_FN = `
create or replace function metric_quarter(t timestamptz) returns timestamptz
language sql immutable parallel safe as $$
  select to_timestamp(floor(extract(epoch from t) / 900) * 900)
$$;

-- Reactions and poll votes a message carries now.
create or replace function metric_reaction_count(r jsonb) returns integer
language sql immutable parallel safe as $$
  select coalesce(sum(jsonb_array_length(coalesce(e->'memberIds', '[]'::jsonb))), 0)::integer
  from jsonb_array_elements(coalesce(r, '[]'::jsonb)) e
$$;
create or replace function metric_poll_votes(p jsonb) returns integer
language sql immutable parallel safe as $$
  select case when p is null or jsonb_typeof(p->'options') <> 'array' then 0 else
    coalesce((select sum(jsonb_array_length(coalesce(o->'memberIds', '[]'::jsonb)))
              from jsonb_array_elements(p->'options') o), 0)::integer end
$$;
`;

const MESSAGE_FNS = `
-- One live message more (delta 1) or less (-1) in every count it is part of.
create or replace function metric_message_count(m messages, delta integer) returns void
language plpgsql as $$
declare q timestamptz := metric_quarter(m.created_at);
begin
  insert into metric_quarters as t (institution_id, quarter, messages) values (m.institution_id, q, delta)
    on conflict (institution_id, quarter) do update set messages = t.messages + excluded.messages;
  if exists (select 1 from channels where id = m.channel_id) then
    insert into metric_channel_quarters as t (institution_id, channel_id, quarter, messages)
      values (m.institution_id, m.channel_id, q, delta)
      on conflict (channel_id, quarter) do update set messages = t.messages + excluded.messages;
    insert into metric_channel_totals as t (channel_id, institution_id, messages)
      values (m.channel_id, m.institution_id, delta)
      on conflict (channel_id) do update set messages = t.messages + excluded.messages;
  end if;
  -- A departed member's messages stay, but their activity rows went with them.
  if exists (select 1 from members where id = m.member_id) then
    insert into metric_member_quarters as t (institution_id, member_id, quarter, posts)
      values (m.institution_id, m.member_id, q, delta)
      on conflict (member_id, quarter) do update set posts = t.posts + excluded.posts;
  end if;
  if m.reply_to is not null then
    insert into metric_engagement as t
        (message_id, institution_id, channel_id, created_at, replies, reactions, poll_votes, score)
      select p.id, p.institution_id, p.channel_id, p.created_at, delta, 0, 0, delta
      from messages p where p.id = m.reply_to and p.deleted_at is null
      on conflict (message_id) do update set replies = t.replies + delta, score = t.score + delta;
    delete from metric_engagement where message_id = m.reply_to and score <= 0;
  end if;
end $$;

-- A live message's own reactions and poll votes, as they are now.
create or replace function metric_message_engagement(m messages) returns void
language plpgsql as $$
declare r integer := metric_reaction_count(m.reactions); v integer := metric_poll_votes(m.poll);
begin
  if r + v > 0 then
    insert into metric_engagement as t
        (message_id, institution_id, channel_id, created_at, replies, reactions, poll_votes, score)
      values (m.id, m.institution_id, m.channel_id, m.created_at, 0, r, v, r + v)
      on conflict (message_id) do update
        set reactions = r, poll_votes = v, score = t.replies + r + v;
  else
    update metric_engagement set reactions = 0, poll_votes = 0, score = replies where message_id = m.id;
    delete from metric_engagement where message_id = m.id and score <= 0;
  end if;
end $$;

create or replace function metric_messages_trigger() returns trigger
language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    if NEW.deleted_at is null then
      perform metric_message_count(NEW, 1);
      perform metric_message_engagement(NEW);
    end if;
    return null;
  end if;
  if tg_op = 'DELETE' then
    -- Removed with its workspace: the workspace's trigger drops every rollup row at once.
    if not exists (select 1 from institutions where id = OLD.institution_id) then return null; end if;
    if OLD.deleted_at is null then perform metric_message_count(OLD, -1); end if;
    delete from metric_engagement where message_id = OLD.id;
    return null;
  end if;
  -- UPDATE
  if OLD.deleted_at is null and NEW.deleted_at is not null then
    perform metric_message_count(OLD, -1);
    delete from metric_engagement where message_id = OLD.id;
    return null;
  end if;
  if NEW.deleted_at is null and
     (NEW.reactions is distinct from OLD.reactions or NEW.poll is distinct from OLD.poll) then
    perform metric_message_engagement(NEW);
    -- Who newly reacted or voted is active now (only additions: taking one back was still an action).
    insert into metric_member_quarters as t (institution_id, member_id, quarter, reactions)
      select NEW.institution_id, a.member_id, metric_quarter(now()), count(*)::integer from (
        (select 'r:' || (e->>'emoji') as k, mid as member_id
           from jsonb_array_elements(coalesce(NEW.reactions, '[]'::jsonb)) e,
                jsonb_array_elements_text(coalesce(e->'memberIds', '[]'::jsonb)) mid
         union all
         select 'p:' || o.i, mid
           from jsonb_array_elements(case when jsonb_typeof(NEW.poll->'options') = 'array'
                                          then NEW.poll->'options' else '[]'::jsonb end)
                with ordinality o(v, i),
                jsonb_array_elements_text(coalesce(o.v->'memberIds', '[]'::jsonb)) mid)
        except all
        (select 'r:' || (e->>'emoji'), mid
           from jsonb_array_elements(coalesce(OLD.reactions, '[]'::jsonb)) e,
                jsonb_array_elements_text(coalesce(e->'memberIds', '[]'::jsonb)) mid
         union all
         select 'p:' || o.i, mid
           from jsonb_array_elements(case when jsonb_typeof(OLD.poll->'options') = 'array'
                                          then OLD.poll->'options' else '[]'::jsonb end)
                with ordinality o(v, i),
                jsonb_array_elements_text(coalesce(o.v->'memberIds', '[]'::jsonb)) mid)
      ) a group by a.member_id
      on conflict (member_id, quarter) do update set reactions = t.reactions + excluded.reactions;
  end if;
  return null;
end $$;
`;

const OTHER_FNS = `
create or replace function metric_channels_trigger() returns trigger
language plpgsql as $$
declare c channels;
begin
  if tg_op = 'INSERT' then c := NEW; else c := OLD; end if;
  if tg_op = 'DELETE' then
    delete from metric_channel_quarters where channel_id = c.id;
    delete from metric_channel_totals where channel_id = c.id;
    delete from metric_engagement where channel_id = c.id;
    if not exists (select 1 from institutions where id = c.institution_id) then return null; end if;
  else
    insert into metric_channel_totals (channel_id, institution_id) values (c.id, c.institution_id)
      on conflict (channel_id) do nothing;
  end if;
  if c.type <> 'direct_message' then
    insert into metric_quarters as t (institution_id, quarter, channels)
      values (c.institution_id, metric_quarter(c.created_at), case when tg_op = 'INSERT' then 1 else -1 end)
      on conflict (institution_id, quarter) do update set channels = t.channels + excluded.channels;
  end if;
  return null;
end $$;

create or replace function metric_members_trigger() returns trigger
language plpgsql as $$
declare m members;
begin
  if tg_op = 'INSERT' then m := NEW; else m := OLD; end if;
  if tg_op = 'DELETE' then
    delete from metric_member_quarters where member_id = m.id;
    if not exists (select 1 from institutions where id = m.institution_id) then return null; end if;
  end if;
  if m.kind = 'user' then
    insert into metric_quarters as t (institution_id, quarter, members)
      values (m.institution_id, metric_quarter(m.created_at), case when tg_op = 'INSERT' then 1 else -1 end)
      on conflict (institution_id, quarter) do update set members = t.members + excluded.members;
  end if;
  return null;
end $$;

create or replace function metric_channel_members_trigger() returns trigger
language plpgsql as $$
declare cm channel_members; d integer; inst text;
begin
  if tg_op = 'INSERT' then cm := NEW; d := 1; else cm := OLD; d := -1; end if;
  select institution_id into inst from channels where id = cm.channel_id;
  -- Removed with its channel: the channel's trigger drops the channel's rows.
  if inst is null then return null; end if;
  insert into metric_channel_quarters as t (institution_id, channel_id, quarter, members)
    values (inst, cm.channel_id, metric_quarter(cm.joined_at), d)
    on conflict (channel_id, quarter) do update set members = t.members + excluded.members;
  insert into metric_channel_totals as t (channel_id, institution_id, members)
    values (cm.channel_id, inst, d)
    on conflict (channel_id) do update set members = t.members + excluded.members;
  return null;
end $$;

-- A visit counts when the same person has no counted visit to the same target in the 30 minutes before.
create or replace function metric_visits_before_insert() returns trigger
language plpgsql as $$
begin
  NEW.counted := not exists (
    select 1 from visits v
    where v.visitor_member_id = NEW.visitor_member_id and v.target_id = NEW.target_id
      and v.target_type = NEW.target_type and v.counted
      and v.created_at > NEW.created_at - interval '30 minutes' and v.created_at <= NEW.created_at);
  return NEW;
end $$;

create or replace function metric_visits_trigger() returns trigger
language plpgsql as $$
declare v visits; d integer;
begin
  if tg_op = 'INSERT' then v := NEW; d := 1; else v := OLD; d := -1; end if;
  if not v.counted then return null; end if;
  if tg_op = 'DELETE' and not exists (select 1 from institutions where id = v.institution_id) then
    return null;
  end if;
  insert into metric_visit_quarters as t
      (institution_id, target_type, target_id, visitor_member_id, quarter, visits)
    values (v.institution_id, v.target_type, v.target_id, v.visitor_member_id, metric_quarter(v.created_at), d)
    on conflict (institution_id, target_type, quarter, target_id, visitor_member_id)
      do update set visits = t.visits + excluded.visits;
  if tg_op = 'INSERT' then
    insert into metric_member_quarters as t (institution_id, member_id, quarter, visits)
      values (v.institution_id, v.visitor_member_id, metric_quarter(v.created_at), 1)
      on conflict (member_id, quarter) do update set visits = t.visits + 1;
  end if;
  return null;
end $$;

create or replace function metric_institutions_trigger() returns trigger
language plpgsql as $$
begin
  delete from metric_quarters where institution_id = OLD.id;
  delete from metric_channel_quarters where institution_id = OLD.id;
  delete from metric_channel_totals where institution_id = OLD.id;
  delete from metric_member_quarters where institution_id = OLD.id;
  delete from metric_visit_quarters where institution_id = OLD.id;
  delete from metric_engagement where institution_id = OLD.id;
  return null;
end $$;
`;

const TRIGGERS = `
drop trigger if exists metric_messages on messages;
create trigger metric_messages after insert or update or delete on messages
  for each row execute function metric_messages_trigger();
drop trigger if exists metric_channels on channels;
create trigger metric_channels after insert or delete on channels
  for each row execute function metric_channels_trigger();
drop trigger if exists metric_members on members;
create trigger metric_members after insert or delete on members
  for each row execute function metric_members_trigger();
drop trigger if exists metric_channel_members on channel_members;
create trigger metric_channel_members after insert or delete on channel_members
  for each row execute function metric_channel_members_trigger();
drop trigger if exists metric_visits_counted on visits;
create trigger metric_visits_counted before insert on visits
  for each row execute function metric_visits_before_insert();
drop trigger if exists metric_visits on visits;
create trigger metric_visits after insert or delete on visits
  for each row execute function metric_visits_trigger();
drop trigger if exists metric_institutions on institutions;
create trigger metric_institutions after delete on institutions
  for each row execute function metric_institutions_trigger();
`;

/**
 * One statement at a time (PGlite's extended protocol takes one): a function ends with `$$;`, any other
 * statement with `;` before a line that starts a new `create` or `drop` at column 0.
 */
const statements = (script: string) =>
  script
    .split(/(?<=\$\$);\s*\n|;\s*\n(?=(?:create|drop) )/)
    .map((s) => s?.trim().replace(/;$/, '') ?? '')
    .filter((s) => s.replace(/^--.*$/gm, '').trim() !== '');

/** Any number for the advisory lock: nodes starting together install the triggers one at a time. */
const INSTALL_LOCK = 731_400_038;

const SCRIPT = QUARTER_FN + MESSAGE_FNS + OTHER_FNS + TRIGGERS;
/**
 * Which script installed the functions, kept as the comment of the messages trigger's function: a start on
 * a database that already has this very script (every restart; every test server, copied from a template)
 * skips the thirty statements, a few hundred milliseconds of a PGlite start.
 */
const FINGERPRINT = `lantern metric rollups ${createHash('sha256').update(SCRIPT).digest('hex').slice(0, 16)}`;
const TRIGGER_NAMES = [...TRIGGERS.matchAll(/^create trigger (\w+)/gm)].map((m) => m[1] as string);

/** This script's functions are in place and every one of its triggers exists and is enabled. */
async function installed(db: Db): Promise<boolean> {
  const [row] = rowsOf<{ fingerprint: string | null; triggers: number }>(
    await db.execute(sql`select
      obj_description(to_regprocedure('metric_messages_trigger()'), 'pg_proc') as fingerprint,
      (select count(*)::int from pg_trigger where not tgisinternal and tgenabled <> 'D'
         and tgname in (${sql.join(
           TRIGGER_NAMES.map((n) => sql`${n}`),
           sql`, `,
         )})) as triggers`),
  );
  return row?.fingerprint === FINGERPRINT && row.triggers === TRIGGER_NAMES.length;
}

/** Installs (or replaces) the rollup functions and triggers. Safe to run on every start. */
export async function installMetricRollups(db: Db): Promise<void> {
  if (!(await installed(db)))
    await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${INSTALL_LOCK})`);
      for (const statement of statements(SCRIPT)) await tx.execute(sql.raw(statement));
      await tx.execute(sql.raw(`comment on function metric_messages_trigger() is '${FINGERPRINT}'`));
    });
  // Data written before the triggers existed (a database from an earlier version): count it once.
  const [state] = rowsOf<{ empty: boolean; data: boolean }>(
    await db.execute(sql`select not exists (select 1 from metric_quarters) as empty,
      exists (select 1 from members) as data`),
  );
  if (state?.empty && state.data) await rebuildAllMetricRollups(db);
}
