// `npm run bench:unread`: what a post's unread bookkeeping costs the database, per post, against a post
// that does none (the floor), in a channel of 60, 200 and 1,000 members (decision 0047). Three kinds of
// post transaction, each the channel's sequence and the message insert (the real functions), then:
//   floor           nothing more;
//   per member      one row per member but the author raised (the write every post made before 0047,
//                   emulated on an integer column of the same rows, as it was);
//   read positions  the author's own count only (server/messages/unread.ts, what a post does now).
// The kinds alternate in rounds of 20 posts, so a machine whose load moves (a shared one) moves all three.
// Then the read side: a member's joined list computing its unread counts, against reading the same rows.
// PGlite always, PostgreSQL too when DATABASE_URL is set. Env: BENCH_UNREAD_ROUNDS (10), BENCH_UNREAD_MEMBERS.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../server/db/client.ts';
import { channelMembers, members, messages } from '../server/db/schema.ts';
import { nextChannelSeq } from '../server/messages/sequence.ts';
import { countOwnMessages, unreadCounts } from '../server/messages/unread.ts';
import { startLantern } from './lantern-fixture.ts';

const envInt = (name: string, fallback: number) => {
  const v = Number.parseInt(process.env[name] ?? '', 10);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const rounds = envInt('BENCH_UNREAD_ROUNDS', 10);
const PER_ROUND = 20;
const memberCounts = (process.env.BENCH_UNREAD_MEMBERS ?? '60,200,1000')
  .split(',')
  .map((s) => Number.parseInt(s, 10))
  .filter((n) => Number.isFinite(n) && n > 0);

type Kind = 'floor' | 'per member' | 'read positions';
const KINDS: Kind[] = ['floor', 'per member', 'read positions'];

async function postOnce(db: Db, kind: Kind, channelId: string, institutionId: string, author: string) {
  const id = randomUUID();
  const at = new Date();
  await db.transaction(async (tx) => {
    const seq = await nextChannelSeq(tx, channelId, { id, at });
    await tx.insert(messages).values({
      id,
      createdAt: at,
      genId: randomUUID(),
      channelId,
      institutionId,
      memberId: author,
      content: '<p>bench</p>',
      seq,
      createdSeq: seq,
    });
    if (kind === 'per member')
      await tx.execute(
        sql`UPDATE channel_members SET own_since_read = own_since_read + 1
            WHERE channel_id = ${channelId} AND member_id <> ${author}`,
      );
    else if (kind === 'read positions')
      await countOwnMessages(tx, [{ channelId, memberId: author, count: 1 }]);
  });
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const f = (n: number) => n.toFixed(2).padStart(7);

async function scenario(databaseUrl: string | null, memberCount: number): Promise<void> {
  const lantern = await startLantern(memberCount, 1, {}, databaseUrl);
  try {
    const { db, target } = lantern;
    const channelId = target.channelIds[0] as string;
    const authors = await db
      .select({ id: members.id })
      .from(members)
      .where(eq(members.institutionId, target.institutionId))
      .limit(5);
    const times = new Map<Kind, number[]>(KINDS.map((k) => [k, []]));
    // Warm-up: caches, plans and the first pages of the tables.
    for (const kind of KINDS)
      for (let i = 0; i < 5; i++)
        await postOnce(db, kind, channelId, target.institutionId, (authors[0] as { id: string }).id);
    for (let r = 0; r < rounds; r++)
      for (const kind of r % 2 ? [...KINDS].reverse() : KINDS)
        for (let i = 0; i < PER_ROUND; i++) {
          const author = (authors[i % authors.length] as { id: string }).id;
          const t0 = performance.now();
          await postOnce(db, kind, channelId, target.institutionId, author);
          times.get(kind)?.push(performance.now() - t0);
        }
    const floor = mean(times.get('floor') as number[]);
    console.log(
      `${lantern.database}, one channel of ${memberCount} members, ${rounds * PER_ROUND} posts each:`,
    );
    for (const kind of KINDS) {
      const xs = times.get(kind) as number[];
      console.log(
        `  ${kind.padEnd(15)} mean ${f(mean(xs))} ms  p50 ${f(quantile(xs, 0.5))} ms  p95 ${f(quantile(xs, 0.95))} ms  ×${(mean(xs) / floor).toFixed(2)} floor`,
      );
    }

    // The read side: every membership of the channel with its unread count, against the bare rows, with
    // a few of the posts deleted (the one part of the count that reads messages).
    await db.execute(
      sql`UPDATE messages SET deleted_at = now() WHERE id IN (SELECT id FROM messages WHERE channel_id = ${channelId} LIMIT 20)`,
    );
    const ids = (await db.select({ id: channelMembers.id }).from(channelMembers)).map((r) => r.id);
    const reads = { counted: [] as number[], bare: [] as number[] };
    for (let r = 0; r < rounds; r++) {
      let t0 = performance.now();
      await unreadCounts(db, ids);
      reads.counted.push(performance.now() - t0);
      t0 = performance.now();
      await db.select().from(channelMembers).where(inArray(channelMembers.id, ids));
      reads.bare.push(performance.now() - t0);
    }
    console.log(
      `  read ${ids.length} memberships: with unread counts ${f(mean(reads.counted))} ms, rows alone ${f(mean(reads.bare))} ms`,
    );
  } finally {
    await lantern.close();
  }
}

async function main(): Promise<void> {
  const databases = [null, ...(process.env.DATABASE_URL ? [process.env.DATABASE_URL] : [])];
  for (const databaseUrl of databases) for (const n of memberCounts) await scenario(databaseUrl, n);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
