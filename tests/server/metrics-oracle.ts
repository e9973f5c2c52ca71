// An independent oracle for the metrics endpoints: reads the source rows (messages, channels, members,
// channel members, visits) and recomputes every answer by brute force, placing each instant in the zone
// with Intl.DateTimeFormat. Shares no code with server/metrics: local days are found by stepping through
// the day in quarter hours, not by offsets, and the 30-minute visit rule is replayed visit by visit.

export interface SourceRows {
  messages: {
    id: string;
    channelId: string;
    memberId: string;
    replyTo: string | null;
    createdAt: Date;
    deletedAt: Date | null;
    reactions: { emoji: string; memberIds: string[] }[];
    poll: { options: { memberIds: string[] }[] } | null;
  }[];
  channels: { id: string; name: string; type: string; createdAt: Date }[];
  members: { id: string; kind: string; createdAt: Date }[];
  channelMembers: { channelId: string; memberId: string; joinedAt: Date }[];
  visits: { visitorMemberId: string; targetType: string; targetId: string; createdAt: Date }[];
}

export interface Window {
  from: number | null;
  to: number;
}

const QUARTER = 15 * 60_000;
const DAY = 24 * 3_600_000;
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

const formats = new Map<string, Intl.DateTimeFormat>();
/** Local date (YYYY-MM-DD), hour and ISO weekday of an instant in a zone. */
export function local(tz: string, t: number): { date: string; hour: number; weekday: number } {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
      weekday: 'short',
    });
    formats.set(tz, f);
  }
  const parts = Object.fromEntries(f.formatToParts(t).map((p) => [p.type, p.value]));
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    hour: Number(parts.hour),
    weekday: WEEKDAYS.indexOf(parts.weekday ?? '') + 1,
  };
}

/** Calendar arithmetic on YYYY-MM-DD. */
export const plusDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);

/** The first quarter-hour instant whose local date is `date` or later (zones change on quarter hours). */
export function dayStart(tz: string, date: string): number {
  let t = Date.parse(`${date}T00:00:00Z`) - 16 * 3_600_000;
  while (local(tz, t).date < date) t += QUARTER;
  return t;
}

export type Preset = 'today' | '7d' | '30d' | 'all';
/** Spec §9 presets as the browser computes them: local midnight today, 6 or 29 days before, or none. */
export function presetWindow(tz: string, preset: Preset, now: number): Window {
  const today = local(tz, now).date;
  const back = { today: 0, '7d': 6, '30d': 29, all: null }[preset];
  return { from: back === null ? null : dayStart(tz, plusDays(today, -back)), to: now };
}

const inWindow = (t: number, w: Window) => (w.from === null || t >= w.from) && t < w.to;
const live = (s: SourceRows) => s.messages.filter((m) => m.deletedAt === null);
const previousOf = (w: Window): Window | null =>
  w.from === null ? null : { from: 2 * w.from - w.to, to: w.from };

export function heatmap(s: SourceRows, tz: string, w: Window) {
  const grid = Array.from({ length: 7 }, () => Array<number>(24).fill(0));
  let total = 0;
  for (const m of live(s)) {
    const t = m.createdAt.getTime();
    if (!inWindow(t, w)) continue;
    const l = local(tz, t);
    const row = grid[l.weekday - 1] as number[];
    row[l.hour] = (row[l.hour] ?? 0) + 1;
    total += 1;
  }
  return { grid, total };
}

const bucketDate = (date: string, period: 'day' | 'week' | 'month') => {
  if (period === 'day') return date;
  if (period === 'month') return `${date.slice(0, 8)}01`;
  const weekday = (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
  return plusDays(date, -weekday);
};

export function trend(s: SourceRows, tz: string, w: Window, period: 'day' | 'week' | 'month') {
  const counted = s.channels.filter((c) => c.type !== 'direct_message');
  let from = w.from;
  if (from === null) {
    const instants = [
      ...live(s).map((m) => m.createdAt.getTime()),
      ...counted.map((c) => c.createdAt.getTime()),
      ...s.members.filter((m) => m.kind === 'user').map((m) => m.createdAt.getTime()),
    ];
    if (instants.length === 0) return [];
    from = Math.floor(Math.min(...instants) / QUARTER) * QUARTER;
  }
  const last = local(tz, w.to - 1).date;
  const buckets: { date: string; start: string; count: number }[] = [];
  for (let d = bucketDate(local(tz, from).date, period); d <= last; ) {
    buckets.push({ date: d, start: new Date(dayStart(tz, d)).toISOString(), count: 0 });
    d =
      period === 'day'
        ? plusDays(d, 1)
        : period === 'week'
          ? plusDays(d, 7)
          : bucketDate(plusDays(d, 32), 'month');
  }
  for (const c of counted) {
    const t = c.createdAt.getTime();
    if (t < from || t >= w.to) continue;
    const b = buckets.find((x) => x.date === bucketDate(local(tz, t).date, period));
    if (b) b.count += 1;
  }
  return buckets;
}

const figure = (times: number[], w: Window) => {
  const prev = previousOf(w);
  return {
    total: times.filter((t) => t < w.to).length,
    inPeriod: times.filter((t) => inWindow(t, w)).length,
    previousPeriod: prev ? times.filter((t) => inWindow(t, prev)).length : null,
  };
};

export function stats(s: SourceRows, w: Window) {
  const users = s.members.filter((m) => m.kind === 'user');
  const userIds = new Set(users.map((m) => m.id));
  const active = (win: Window) =>
    new Set([
      ...live(s)
        .filter((m) => userIds.has(m.memberId) && inWindow(m.createdAt.getTime(), win))
        .map((m) => m.memberId),
      ...countedVisits(s)
        .filter((v) => userIds.has(v.visitorMemberId) && inWindow(v.createdAt.getTime(), win))
        .map((v) => v.visitorMemberId),
    ]).size;
  const prev = previousOf(w);
  const n = active(w);
  return {
    members: figure(
      users.map((m) => m.createdAt.getTime()),
      w,
    ),
    activeMembers: { total: n, inPeriod: n, previousPeriod: prev ? active(prev) : null },
    channels: figure(
      s.channels.filter((c) => c.type !== 'direct_message').map((c) => c.createdAt.getTime()),
      w,
    ),
    messages: figure(
      live(s).map((m) => m.createdAt.getTime()),
      w,
    ),
  };
}

/** Replays the rule: a visit counts when that person has no counted visit to it in the 30 minutes before. */
export function countedVisits(s: SourceRows) {
  const last = new Map<string, number>();
  const counted: SourceRows['visits'] = [];
  for (const v of [...s.visits].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())) {
    const key = `${v.visitorMemberId}|${v.targetType}|${v.targetId}`;
    const t = v.createdAt.getTime();
    const before = last.get(key);
    if (before !== undefined && t - before < 30 * 60_000) continue;
    last.set(key, t);
    counted.push(v);
  }
  return counted;
}

export function visitedChannels(s: SourceRows, w: Window) {
  const rows = new Map<string, { visitors: Set<string>; visits: number }>();
  for (const v of countedVisits(s)) {
    if (v.targetType !== 'channel' || !inWindow(v.createdAt.getTime(), w)) continue;
    const channel = s.channels.find((c) => c.id === v.targetId);
    if (!channel || channel.type === 'direct_message') continue;
    const row = rows.get(v.targetId) ?? { visitors: new Set(), visits: 0 };
    row.visitors.add(v.visitorMemberId);
    row.visits += 1;
    rows.set(v.targetId, row);
  }
  return new Map([...rows].map(([id, r]) => [id, { visitors: r.visitors.size, visits: r.visits }]));
}

export function growing(s: SourceRows, w: Window) {
  const prev = previousOf(w);
  const count = (times: number[], win: Window | null) =>
    win === null ? null : times.filter((t) => inWindow(t, win)).length;
  return new Map(
    s.channels
      .filter((c) => c.type !== 'direct_message')
      .map((c) => {
        const msgs = live(s)
          .filter((m) => m.channelId === c.id)
          .map((m) => m.createdAt.getTime());
        const joins = s.channelMembers.filter((j) => j.channelId === c.id).map((j) => j.joinedAt.getTime());
        return [
          c.id,
          {
            messages: { gained: count(msgs, w), previousGained: count(msgs, prev) },
            members: { gained: count(joins, w), previousGained: count(joins, prev) },
          },
        ];
      }),
  );
}

/** Scores of live messages created in the window, in the channels given. */
export function engagement(s: SourceRows, w: Window, readable: Set<string>) {
  const lives = live(s);
  return lives
    .filter((m) => readable.has(m.channelId) && inWindow(m.createdAt.getTime(), w))
    .map((m) => {
      const replies = lives.filter((r) => r.replyTo === m.id).length;
      const reactions = m.reactions.reduce((n, r) => n + r.memberIds.length, 0);
      const pollVotes = (m.poll?.options ?? []).reduce((n, o) => n + o.memberIds.length, 0);
      return {
        messageId: m.id,
        replies,
        reactions,
        pollVotes,
        score: replies + reactions + pollVotes,
        t: m.createdAt.getTime(),
      };
    })
    .filter((m) => m.score > 0)
    .sort((a, b) => b.score - a.score || b.t - a.t || (a.messageId < b.messageId ? -1 : 1));
}
