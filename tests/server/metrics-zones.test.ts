// Metrics are exact in every time zone: generated history (with messages at 23:59:59.999 local time, at
// local midnight, in the repeated hour of a fall-back and around zones with odd offsets) is written to the
// database, where the rollup triggers count it; every endpoint is then compared with the brute-force
// oracle (tests/server/metrics-oracle.ts) for each preset and period. Property tests draw random zones
// and instants. Also: deletions decrement, and an interrupted rebuild run again gives the same numbers.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ChannelCreationTrendResponse,
  EngagingMessagesResponse,
  GrowingChannelsResponse,
  HourlyActivityHeatmapResponse,
  LatestChannelsResponse,
  MetricStatsResponse,
  MostVisitedChannelsResponse,
} from '../../schemas/protocol/index.ts';
import {
  channelMembers,
  channels,
  institutions,
  members,
  messages,
  users,
  visits,
} from '../../server/db/schema.ts';
import { rebuildMetricRollups } from '../../server/metrics/rebuild.ts';
import { databases, startTestServer, type TestServer, type TestUser } from './harness.ts';
import * as oracle from './metrics-oracle.ts';

const ZONES = [
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'Asia/Kolkata', // +05:30
  'Asia/Kathmandu', // +05:45
  'Australia/Eucla', // +08:45
  'Australia/Lord_Howe', // 30-minute daylight saving
  'America/Santiago', // skips local midnight in September
  'America/St_Johns', // −03:30 with daylight saving
];
const PRESETS: oracle.Preset[] = ['today', '7d', '30d', 'all'];
const PERIODS = ['day', 'week', 'month'] as const;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** "Now" for the presets: the week holds New York's fall-back, the month Berlin's and Lord Howe's change. */
const NOW = Date.parse('2026-11-02T10:00:00Z');

/** A small deterministic generator (mulberry32) so the history is the same on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe.each(databases)('metrics in every time zone (%s)', (kind) => {
  let t: TestServer;
  let admin: TestUser;
  const db = () => t.ctx.db;

  beforeAll(async () => {
    t = await startTestServer(kind);
    admin = await t.signUp();
  }, 120_000);
  afterAll(async () => t.close());

  /** A workspace written straight to the database, the test's admin its owner. */
  async function workspace() {
    const id = randomUUID();
    await db()
      .insert(institutions)
      .values({ id, name: 'History', createdAt: new Date(NOW - 400 * DAY) });
    const adminMember = randomUUID();
    await db()
      .insert(members)
      .values({
        id: adminMember,
        institutionId: id,
        userId: admin.user.id,
        role: 'owner',
        createdAt: new Date(NOW - 400 * DAY),
      });
    return { id, adminMember };
  }

  async function person(institutionId: string, createdAt: Date) {
    const userId = randomUUID();
    await db()
      .insert(users)
      .values({ id: userId, email: `${userId}@example.com`, name: `P ${userId.slice(0, 4)}` });
    const id = randomUUID();
    await db().insert(members).values({ id, institutionId, userId, role: 'member', createdAt });
    return id;
  }

  let seq = 0;
  async function channel(
    institutionId: string,
    name: string,
    type: 'public' | 'private' | 'direct_message',
    createdAt: Date,
  ) {
    const id = randomUUID();
    await db().insert(channels).values({ id, institutionId, name, type, createdAt });
    return id;
  }
  async function message(
    institutionId: string,
    channelId: string,
    memberId: string,
    createdAt: Date,
    extra: Partial<typeof messages.$inferInsert> = {},
  ) {
    const id = randomUUID();
    seq += 1;
    await db()
      .insert(messages)
      .values({
        id,
        genId: randomUUID(),
        channelId,
        institutionId,
        memberId,
        content: `<p>m ${seq}</p>`,
        createdAt,
        seq,
        createdSeq: seq,
        ...extra,
      });
    return id;
  }

  /** Everything the oracle needs, read from the source tables. */
  async function source(institutionId: string): Promise<oracle.SourceRows> {
    const ms = await db().select().from(messages).where(eq(messages.institutionId, institutionId));
    const cs = await db().select().from(channels).where(eq(channels.institutionId, institutionId));
    const mem = await db().select().from(members).where(eq(members.institutionId, institutionId));
    const cms = await db()
      .select({
        channelId: channelMembers.channelId,
        memberId: channelMembers.memberId,
        joinedAt: channelMembers.joinedAt,
      })
      .from(channelMembers)
      .innerJoin(channels, eq(channels.id, channelMembers.channelId))
      .where(eq(channels.institutionId, institutionId));
    const vs = await db().select().from(visits).where(eq(visits.institutionId, institutionId));
    return {
      messages: ms.map((m) => ({ ...m, poll: m.poll ?? null })),
      channels: cs,
      members: mem,
      channelMembers: cms,
      visits: vs,
    };
  }

  const query = (w: oracle.Window, tz: string) =>
    `toDate=${encodeURIComponent(new Date(w.to).toISOString())}&timezone=${encodeURIComponent(tz)}` +
    (w.from === null ? '' : `&fromDate=${encodeURIComponent(new Date(w.from).toISOString())}`);
  async function get<T>(institutionId: string, path: string, q: string): Promise<T> {
    const res = await admin.api.get<T>(`/api/institutions/${institutionId}/metric/${path}?${q}`);
    expect(res.status, `${path}?${q}`).toBe(200);
    return res.body;
  }

  describe('over two months of generated history', () => {
    let ws: { id: string; adminMember: string };
    let readable: Set<string>;

    beforeAll(async () => {
      ws = await workspace();
      const rnd = random(14);
      const people = [ws.adminMember];
      for (let i = 0; i < 6; i++) people.push(await person(ws.id, new Date(NOW - rnd() * 70 * DAY)));
      const chans: string[] = [];
      for (let i = 0; i < 8; i++)
        chans.push(
          await channel(ws.id, `c${i}`, i === 6 ? 'private' : 'public', new Date(NOW - rnd() * 65 * DAY)),
        );
      const dm = await channel(ws.id, 'dm', 'direct_message', new Date(NOW - 20 * DAY));
      const secret = chans[6] as string;
      readable = new Set(chans.filter((c) => c !== secret));
      for (const c of chans.slice(0, 4))
        for (const p of people.slice(1, 4))
          await db()
            .insert(channelMembers)
            .values({
              id: randomUUID(),
              channelId: c,
              memberId: p,
              joinedAt: new Date(NOW - rnd() * 60 * DAY),
            });

      const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)] as T;
      // Special instants in every zone: the last millisecond of a local day and its first.
      const instants: number[] = [];
      for (const tz of ZONES)
        for (const back of [0, 1, 5, 6, 7, 29, 30]) {
          const date = oracle.plusDays(oracle.local(tz, NOW).date, -back);
          const start = oracle.dayStart(tz, date);
          if (start - 1 < NOW) instants.push(start - 1);
          if (start < NOW) instants.push(start);
        }
      // Both passes through the repeated hour: Berlin 25 Oct 2026, New York 1 Nov 2026 (01:30 twice),
      // Lord Howe 5 Apr 2026 (01:45 twice, half an hour apart); Santiago's skipped midnight 6 Sep 2026.
      instants.push(
        Date.parse('2026-10-25T00:30:00Z'),
        Date.parse('2026-10-25T01:30:00Z'),
        Date.parse('2026-11-01T05:30:00Z'),
        Date.parse('2026-11-01T06:30:00Z'),
        Date.parse('2026-04-04T14:45:00Z'),
        Date.parse('2026-04-04T15:15:00Z'),
        Date.parse('2026-09-06T04:00:00Z'),
        Date.parse('2026-09-06T03:59:59.999Z'),
      );
      for (let i = 0; i < 220; i++) instants.push(NOW - Math.floor(rnd() * 62 * DAY));
      // Written in a few statements (the triggers still count row by row): parents, then replies.
      const rows: (typeof messages.$inferInsert)[] = instants.map((at) => {
        seq += 1;
        return {
          id: randomUUID(),
          genId: randomUUID(),
          channelId: rnd() < 0.05 ? dm : pick(chans),
          institutionId: ws.id,
          memberId: pick(people),
          content: `<p>m ${seq}</p>`,
          createdAt: new Date(at),
          seq,
          createdSeq: seq,
          reactions:
            rnd() < 0.2 ? [{ emoji: '👍', memberIds: people.slice(0, 1 + Math.floor(rnd() * 4)) }] : [],
          deletedAt: rnd() < 0.08 ? new Date(at + HOUR) : null,
        };
      });
      await db().insert(messages).values(rows);
      const replies = Array.from({ length: 30 }, () => {
        const parent = pick(rows);
        seq += 1;
        return {
          ...parent,
          id: randomUUID(),
          genId: randomUUID(),
          memberId: pick(people),
          content: `<p>reply ${seq}</p>`,
          createdAt: new Date(Math.min(NOW - 1, (parent.createdAt as Date).getTime() + rnd() * DAY)),
          seq,
          createdSeq: seq,
          reactions: [],
          deletedAt: null,
          replyTo: parent.id as string,
        };
      });
      await db().insert(messages).values(replies);
      await message(ws.id, chans[0] as string, ws.adminMember, new Date(NOW - 3 * DAY), {
        poll: {
          question: 'Lunch?',
          options: [
            { text: 'a', memberIds: people.slice(0, 3) },
            { text: 'b', memberIds: [] },
          ],
          multiple: false,
          closedAt: null,
        },
      });
      // Visits in time order (the 30-minute rule looks back at rows written before), some close together.
      const vs: { at: number; visitor: string; target: string }[] = [];
      for (let i = 0; i < 120; i++) {
        const at = NOW - Math.floor(rnd() * 40 * DAY);
        const v = { at, visitor: pick(people), target: pick(chans) };
        vs.push(v);
        if (rnd() < 0.4) vs.push({ ...v, at: at + Math.floor(rnd() * 45) * 60_000 });
      }
      vs.sort((a, b) => a.at - b.at);
      await db()
        .insert(visits)
        .values(
          vs.map((v) => ({
            id: randomUUID(),
            institutionId: ws.id,
            visitorMemberId: v.visitor,
            targetType: 'channel' as const,
            targetId: v.target,
            createdAt: new Date(v.at),
          })),
        );
    }, 120_000);

    it('answers the heatmap, the trend in every period and the summary exactly as the oracle, in every zone and preset', async () => {
      const s = await source(ws.id);
      for (const [zi, tz] of ZONES.entries())
        for (const [pi, preset] of PRESETS.entries()) {
          const w = oracle.presetWindow(tz, preset, NOW);
          const q = query(w, tz);
          const heat = await get<HourlyActivityHeatmapResponse>(ws.id, 'hourly-activity-heatmap', q);
          expect({ grid: heat.grid, total: heat.total }, `${tz} ${preset}`).toEqual(oracle.heatmap(s, tz, w));
          // Each zone and preset with one period in turn: every period meets every preset and many zones.
          for (const period of [PERIODS[(zi + pi) % PERIODS.length] ?? 'day']) {
            const trend = await get<ChannelCreationTrendResponse>(
              ws.id,
              'channel-creation-trend',
              `${q}&period=${period}`,
            );
            expect(trend.buckets, `${tz} ${preset} ${period}`).toEqual(oracle.trend(s, tz, w, period));
          }
          const st = await get<MetricStatsResponse>(ws.id, 'stats', q);
          const want = oracle.stats(s, w);
          expect(
            {
              members: st.members,
              activeMembers: st.activeMembers,
              channels: st.channels,
              messages: st.messages,
            },
            `${tz} ${preset}`,
          ).toEqual(want);
        }
    }, 120_000);

    it('answers growing, latest, most-visited channels and engaging messages as the oracle for every preset', async () => {
      const s = await source(ws.id);
      for (const tz of ['Asia/Kathmandu', 'America/New_York'])
        for (const preset of PRESETS) {
          const w = oracle.presetWindow(tz, preset, NOW);
          const q = query(w, tz);
          const label = `${tz} ${preset}`;
          const grow = await get<GrowingChannelsResponse>(ws.id, 'growing-channels', q);
          const wantGrow = oracle.growing(s, w);
          expect(grow.data.length, label).toBe(wantGrow.size);
          for (const row of grow.data) {
            const want = wantGrow.get(row.channelId);
            expect(row.messages.gained, label).toBe(want?.messages.gained);
            expect(row.messages.previousGained, label).toBe(want?.messages.previousGained);
            expect(row.members.gained, label).toBe(want?.members.gained);
          }
          const gains = grow.data.map((r) => r.messages.gained);
          expect(gains, label).toEqual([...gains].sort((a, b) => b - a));

          const latest = await get<LatestChannelsResponse>(ws.id, 'latest-channels', q);
          const wantLatest = s.channels
            .filter(
              (c) =>
                c.type !== 'direct_message' &&
                (w.from === null || c.createdAt.getTime() >= w.from) &&
                c.createdAt.getTime() < w.to,
            )
            .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
            .map((c) => c.id);
          expect(
            latest.data.map((c) => c.channelId),
            label,
          ).toEqual(wantLatest);

          const visited = await get<MostVisitedChannelsResponse>(ws.id, 'most-visited-channels', q);
          const wantVisited = oracle.visitedChannels(s, w);
          expect(visited.data.length, label).toBe(wantVisited.size);
          for (const row of visited.data)
            expect({ visitors: row.visitors, visits: row.visits }, label).toEqual(wantVisited.get(row.id));

          const engaging = await get<EngagingMessagesResponse>(ws.id, 'engaging-messages', `${q}&limit=50`);
          const wantEngaging = oracle.engagement(s, w, readable);
          expect(engaging.metadata.total, label).toBe(wantEngaging.length);
          expect(
            engaging.data.map((m) => ({
              messageId: m.messageId,
              replies: m.replies,
              reactions: m.reactions,
              pollVotes: m.pollVotes,
              score: m.score,
            })),
            label,
          ).toEqual(wantEngaging.slice(0, 50).map(({ t: _t, ...m }) => m));
        }
    }, 120_000);

    it('gives the same numbers after an interrupted rebuild is run again', async () => {
      const before = await rollupSnapshot(ws.id);
      await expect(
        rebuildMetricRollups(db(), ws.id, (step) => {
          if (step === 'member activity') throw new Error('power cut');
        }),
      ).rejects.toThrow('power cut');
      expect(await rollupSnapshot(ws.id)).toEqual(before);
      await rebuildMetricRollups(db(), ws.id);
      expect(await rollupSnapshot(ws.id)).toEqual(before);
    }, 60_000);
  });

  /** Every rollup row of a workspace (zero rows left out: a rebuild does not write them). */
  async function rollupSnapshot(institutionId: string) {
    const read = async (table: string, nonzero: string) =>
      (
        (await db().execute(
          sql`select * from ${sql.identifier(table)} where institution_id = ${institutionId} and (${sql.raw(nonzero)}) order by 1, 2, 3`,
        )) as unknown as { rows: unknown[] }
      ).rows.map((r) => JSON.stringify(r));
    return {
      quarters: (await read('metric_quarters', 'messages <> 0 or channels <> 0 or members <> 0')).sort(),
      channels: (await read('metric_channel_quarters', 'messages <> 0 or members <> 0')).sort(),
      totals: (await read('metric_channel_totals', 'true')).sort(),
      activity: (await read('metric_member_quarters', 'posts <> 0 or visits <> 0 or reactions <> 0')).sort(),
      visits: (await read('metric_visit_quarters', 'visits <> 0')).sort(),
      engagement: (await read('metric_engagement', 'score > 0')).sort(),
    };
  }

  it('takes a deleted message out of the heatmap, the summary and the trend', async () => {
    const ws = await workspace();
    const c = await channel(ws.id, 'general', 'public', new Date(NOW - 2 * DAY));
    const at = new Date(NOW - DAY);
    const id = await message(ws.id, c, ws.adminMember, at);
    const w = { from: NOW - 7 * DAY, to: NOW };
    const heat = () =>
      get<HourlyActivityHeatmapResponse>(ws.id, 'hourly-activity-heatmap', query(w, 'Asia/Kathmandu'));
    expect((await heat()).total).toBe(1);
    await db().update(messages).set({ deletedAt: new Date(), content: '' }).where(eq(messages.id, id));
    expect((await heat()).total).toBe(0);
    expect((await get<MetricStatsResponse>(ws.id, 'stats', query(w, 'UTC'))).messages.inPeriod).toBe(0);
  });

  it('equals the oracle for random zones, instants and windows', async () => {
    const zones = Intl.supportedValuesOf('timeZone');
    const start2000 = Date.parse('2000-01-01T00:00:00Z');
    const span = Date.parse('2035-01-01T00:00:00Z') - start2000;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...zones),
        fc.array(fc.integer({ min: 0, max: span }), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: span }),
        fc.integer({ min: 1, max: 400 }),
        fc.constantFrom(...PERIODS),
        async (tz, offsets, fromOffset, days, period) => {
          const ws = await workspace();
          const c = await channel(ws.id, 'general', 'public', new Date(start2000 + fromOffset));
          const fromDate = oracle.local(tz, start2000 + fromOffset).date;
          const w = {
            from: oracle.dayStart(tz, fromDate),
            to: oracle.dayStart(tz, oracle.plusDays(fromDate, days)),
          };
          // Half the messages inside the window, some on its last millisecond.
          for (const [i, o] of offsets.entries()) {
            const at = i % 3 === 0 ? w.to - 1 : i % 2 === 0 ? w.from + (o % (w.to - w.from)) : start2000 + o;
            await message(ws.id, c, ws.adminMember, new Date(at));
            if (i % 4 === 1) await channel(ws.id, `c${i}`, 'public', new Date(at));
          }
          const s = await source(ws.id);
          const q = query(w, tz);
          const heat = await get<HourlyActivityHeatmapResponse>(ws.id, 'hourly-activity-heatmap', q);
          expect({ grid: heat.grid, total: heat.total }, tz).toEqual(oracle.heatmap(s, tz, w));
          const trend = await get<ChannelCreationTrendResponse>(
            ws.id,
            'channel-creation-trend',
            `${q}&period=${period}`,
          );
          expect(trend.buckets, `${tz} ${period}`).toEqual(oracle.trend(s, tz, w, period));
        },
      ),
      { numRuns: 15, seed: 14 },
    );
  }, 120_000);
});
