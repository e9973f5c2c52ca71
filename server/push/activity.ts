// A session's latest sign of activity (the ping, opening a channel, marking it read), one row per session:
// the push decision holds a push back while its person is active in the message's channel on any device.
import type { Db } from '../db/client.ts';
import { sessionActivity } from '../db/schema.ts';

/**
 * The same sign again this soon is not written: reading a busy channel marks it read on every message,
 * and the decision's 20 s window loses nothing to a row up to 5 s old.
 */
const REWRITE_AFTER_MS = 5_000;
/** Past this many sessions the memory of recent writes starts over (it only saves writes). */
const REMEMBERED_MAX = 50_000;

const lastWritten = new WeakMap<Db, Map<string, { channelId: string | null; at: number }>>();

export async function recordActivity(
  db: Db,
  session: { sessionId: string; userId: string },
  channelId: string | null,
  at = new Date(),
): Promise<void> {
  let recent = lastWritten.get(db);
  if (!recent) {
    recent = new Map();
    lastWritten.set(db, recent);
  }
  const last = recent.get(session.sessionId);
  if (last && last.channelId === channelId && at.getTime() - last.at < REWRITE_AFTER_MS) return;
  if (recent.size >= REMEMBERED_MAX) recent.clear();
  recent.set(session.sessionId, { channelId, at: at.getTime() });
  await db
    .insert(sessionActivity)
    .values({ sessionId: session.sessionId, userId: session.userId, channelId, activeAt: at })
    .onConflictDoUpdate({
      target: sessionActivity.sessionId,
      // A sign that names no channel (a bare ping) says "the app is open", not "still reading that channel".
      set: { activeAt: at, channelId },
    });
}
