// A session's latest sign of activity (the ping, opening a channel, posting), one row per session: the push
// decision holds a push back while its person is active in the message's channel on any device.
import type { Db } from '../db/client.ts';
import { sessionActivity } from '../db/schema.ts';

export async function recordActivity(
  db: Db,
  session: { sessionId: string; userId: string },
  channelId: string | null,
  at = new Date(),
): Promise<void> {
  await db
    .insert(sessionActivity)
    .values({ sessionId: session.sessionId, userId: session.userId, channelId, activeAt: at })
    .onConflictDoUpdate({
      target: sessionActivity.sessionId,
      // A sign that names no channel (a bare ping) says "the app is open", not "still reading that channel".
      set: { activeAt: at, channelId },
    });
}
