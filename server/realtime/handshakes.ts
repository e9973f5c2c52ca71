// The socket handshake's database read, shared by every socket that arrives in the same turn: one statement
// finds their live sessions and their people's workspaces, and one more moves the last-active time of those
// due (as findSession does for a single token). 2,000 people reconnecting at once were two statements each,
// and on PGlite (which runs them on the server's own thread) a hundred of them could run back to back in one
// turn of the event loop, 100–250 ms during which nothing else was served (issue 11 item 3).
import { and, eq, inArray } from 'drizzle-orm';
import { liveSessionCondition, type SessionLifetime, touchIsDue } from '../auth/session-lifetime.ts';
import { hashToken, mayBeToken } from '../auth/tokens.ts';
import type { Db } from '../db/client.ts';
import { members, sessions } from '../db/schema.ts';

/** Who a handshake's token belongs to, and the workspaces whose rooms the socket joins. */
export interface HandshakeIdentity {
  sessionId: string;
  userId: string;
  institutionIds: string[];
}

export interface Handshakes {
  /** The live session behind `token` and its person's workspaces; null for a missing, revoked or expired one. */
  identify(token: string | null): Promise<HandshakeIdentity | null>;
}

/**
 * Tokens per statement, and so sockets admitted per turn: every socket a read admits connects (its rooms,
 * listeners, first packets) on the same turn, 0.2–0.4 ms each here, so a read of 64 keeps that turn near
 * 20 ms; a storm larger than that is read 64 at a time, one read per turn.
 */
export const MAX_HANDSHAKES_PER_READ = 64;

interface Waiting {
  hash: string;
  settle(outcome: { identity: HandshakeIdentity | null } | { error: unknown }): void;
}

export function createHandshakes(db: Db, lifetime: SessionLifetime): Handshakes {
  let waiting: Waiting[] = [];
  let inFlight = false;

  const read = async (batch: Waiting[]) => {
    const now = Date.now();
    const hashes = [...new Set(batch.map((w) => w.hash))];
    const rows = await db
      .select({
        sessionId: sessions.id,
        userId: sessions.userId,
        tokenHash: sessions.tokenHash,
        lastUsedAt: sessions.lastUsedAt,
        institutionId: members.institutionId,
      })
      .from(sessions)
      .leftJoin(members, eq(members.userId, sessions.userId))
      .where(and(inArray(sessions.tokenHash, hashes), liveSessionCondition(lifetime, now)));
    const found = new Map<string, HandshakeIdentity>();
    const due: string[] = [];
    for (const row of rows) {
      let identity = found.get(row.tokenHash);
      if (!identity) {
        identity = { sessionId: row.sessionId, userId: row.userId, institutionIds: [] };
        found.set(row.tokenHash, identity);
        if (touchIsDue(row.lastUsedAt, now)) due.push(row.sessionId);
      }
      if (row.institutionId !== null) identity.institutionIds.push(row.institutionId);
    }
    // Using a session counts as activity (server/auth/tokens.ts): written before the sockets are admitted.
    if (due.length > 0)
      await db
        .update(sessions)
        .set({ lastUsedAt: new Date(now) })
        .where(inArray(sessions.id, due));
    for (const w of batch) {
      const identity = found.get(w.hash);
      // Each socket its own copy: the list is its socket.data, which later joins may change.
      w.settle({ identity: identity ? { ...identity, institutionIds: [...identity.institutionIds] } : null });
    }
  };

  const run = async () => {
    try {
      while (waiting.length > 0) {
        const batch = waiting.slice(0, MAX_HANDSHAKES_PER_READ);
        waiting = waiting.slice(batch.length);
        try {
          await read(batch);
        } catch (error) {
          for (const w of batch) w.settle({ error });
        }
        // The sockets admitted by this read take the rest of this turn; the next read runs on a later one,
        // with every handshake received meanwhile.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } finally {
      inFlight = false;
    }
  };

  return {
    identify(token) {
      if (!mayBeToken(token)) return Promise.resolve(null);
      return new Promise((resolve, reject) => {
        waiting.push({
          hash: hashToken(token),
          settle: (outcome) => ('error' in outcome ? reject(outcome.error) : resolve(outcome.identity)),
        });
        // Started after this turn's I/O, so every handshake already received shares the statement; none
        // waits on a timer.
        if (!inFlight) {
          inFlight = true;
          setImmediate(() => void run());
        }
      });
    },
  };
}
