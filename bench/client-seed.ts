// A DATA_DIR for the client benchmark, written before any server process opens it: two users in one
// workspace whose default channel holds `count` messages. Rows go straight into PGlite through the server's
// own schema and setup code (sign-in and posting are not what is measured), in large batches.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { hashToken, newToken } from '../server/auth/tokens.ts';
import { addChannelMember, createChannelWithRoles } from '../server/channels/setup.ts';
import { openDatabase } from '../server/db/client.ts';
import {
  channelMembers,
  channels,
  institutions,
  members,
  messages,
  sessions,
  users,
} from '../server/db/schema.ts';
import { newGenId } from '../src/store/gen-id.ts';

export interface SeededWorkspace {
  institutionId: string;
  channelId: string;
  /** Signs in through the UI with the mailed code, as a person would. */
  readerEmail: string;
  /** A second person posting through REST with this bearer token (the live-message figure). */
  posterToken: string;
  messageCount: number;
}

// Postgres allows 65,535 bind parameters per statement; a message row here takes 8.
const BATCH = 5_000;

export async function seedWorkspace(dataDir: string, count: number): Promise<SeededWorkspace> {
  const database = await openDatabase({ dbDir: path.join(dataDir, 'db') });
  const { db } = database;
  try {
    const reader = { id: randomUUID(), email: 'reader@bench.local', name: 'Rita Reader' };
    const poster = { id: randomUUID(), email: 'poster@bench.local', name: 'Paul Poster' };
    await db.insert(users).values([reader, poster]);
    const posterToken = newToken();
    await db
      .insert(sessions)
      .values({ id: randomUUID(), userId: poster.id, tokenHash: hashToken(posterToken) });

    const institutionId = randomUUID();
    await db.insert(institutions).values({ id: institutionId, name: 'Bench', createdBy: reader.id });
    const readerMember = {
      id: randomUUID(),
      institutionId,
      userId: reader.id,
      role: 'primary_owner' as const,
    };
    const posterMember = { id: randomUUID(), institutionId, userId: poster.id, role: 'member' as const };
    await db.insert(members).values([readerMember, posterMember]);
    const general = await createChannelWithRoles(db, {
      institutionId,
      name: 'general',
      type: 'public',
      isDefault: true,
      createdBy: readerMember.id,
    });
    const channelId = general.channel.id;
    await addChannelMember(
      db,
      channelId,
      readerMember.id,
      general.ownershipRole ? [general.ownershipRole.id] : [],
    );
    await addChannelMember(db, channelId, posterMember.id);

    // One message a minute up to now, alternating authors, so day dividers and grouping look like a real
    // channel; seq and createdSeq are the channel's change sequence 1..count.
    const start = Date.now() - count * 60_000;
    let lastId = '';
    for (let from = 1; from <= count; from += BATCH) {
      const rows: (typeof messages.$inferInsert)[] = [];
      for (let seq = from; seq < from + BATCH && seq <= count; seq++) {
        const at = start + seq * 60_000;
        lastId = randomUUID();
        rows.push({
          id: lastId,
          genId: newGenId(at),
          channelId,
          institutionId,
          memberId: seq % 3 === 0 ? posterMember.id : readerMember.id,
          content: `<p>Message ${seq}: the quick brown fox jumps over the lazy dog, then checks the channel.</p>`,
          createdAt: new Date(at),
          seq,
          createdSeq: seq,
        });
      }
      await db.insert(messages).values(rows);
    }
    await db
      .update(channels)
      .set({
        lastSeq: count,
        messageCount: count,
        lastMessageId: lastId || null,
        lastMessageAt: new Date(start + count * 60_000),
      })
      .where(eq(channels.id, channelId));
    // Both have read the history written around the post path: nothing of it is unread.
    await db
      .update(channelMembers)
      .set({ readSeq: count, readCount: count, lastReadMessageId: lastId || null })
      .where(eq(channelMembers.channelId, channelId));
    return { institutionId, channelId, readerEmail: reader.email, posterToken, messageCount: count };
  } finally {
    await database.close();
  }
}
