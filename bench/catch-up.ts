// `npm run bench:catch-up`: a client that missed 1,000 messages over 20 channels reconnects; how long until
// its store holds every one and every channel's checkpoint is current. The client is the app's own sync
// engine (worker/sync-engine.ts) with its RxDB store over fake-indexeddb, as in the sync fuzz. Next to it,
// the floor: the same rows read in one query and written to a fresh store in one bulk insert, the least
// any catch-up has to do. Env: CATCH_UP_MESSAGES (1000), CATCH_UP_CHANNELS (20).
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { Message } from '../schemas/protocol/index.ts';
import { channelMembers, members, messages } from '../server/db/schema.ts';
import { toWireMessage } from '../server/messages/wire.ts';
import { openLanternDatabase } from '../src/store/database.ts';
import { toConfirmedDoc } from '../src/store/message-merge.ts';
import { SyncEngine } from '../worker/sync-engine.ts';
import { startLantern } from './lantern-fixture.ts';
import { connect } from './load.ts';

const envInt = (name: string, fallback: number) => {
  const v = Number.parseInt(process.env[name] ?? '', 10);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const total = envInt('CATCH_UP_MESSAGES', 1000);
const channelCount = envInt('CATCH_UP_CHANNELS', 20);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  console.log(`catch-up bench: ${total} missed messages over ${channelCount} channels`);
  // One socket writes everything the others missed: the per-socket event budget (an abuse limit) is lifted.
  const lantern = await startLantern(1, channelCount, {
    SOCKET_EVENTS_PER_SECOND: '100000',
    SOCKET_EVENT_BURST: '100000',
  });
  try {
    const { db, target } = lantern;
    const { institutionId, channelIds } = target;
    // The one person is in the first channel; put them in every other one too.
    const [member] = await db
      .select({ id: members.id })
      .from(members)
      .where(eq(members.institutionId, institutionId));
    if (!member) throw new Error('no member');
    await db
      .insert(channelMembers)
      .values(channelIds.slice(1).map((channelId) => ({ id: randomUUID(), channelId, memberId: member.id })));

    // Written while the client was away, through the real post path.
    const writer = await connect(target.url, target.tokens[0] as string);
    await Promise.all(
      Array.from(
        { length: total },
        (_, i) =>
          new Promise<void>((resolve, reject) =>
            writer.emit(
              'postMessage',
              {
                institutionId,
                channelId: channelIds[i % channelIds.length] as string,
                genId: randomUUID(),
                content: `<p>missed ${i}</p>`,
              },
              (r) => ('error' in r ? reject(new Error(r.error.message)) : resolve()),
            ),
          ),
      ),
    );
    writer.disconnect();
    const lastSeq = new Map<string, number>();
    for (let i = 0; i < total; i++) {
      const c = channelIds[i % channelIds.length] as string;
      lastSeq.set(c, (lastSeq.get(c) ?? 0) + 1);
    }

    // The client: its checkpoints are where it left, before any of these messages.
    // The whole store, as the worker opens it.
    const store = await openLanternDatabase(`catch-up-${randomUUID()}`);
    for (const channelId of channelIds)
      await store.syncState.insert({ channelId, institutionId, checkpoint: 0 });
    const engine = new SyncEngine({
      db: store,
      baseUrl: target.url,
      getToken: async () => target.tokens[0] as string,
      log: () => {},
    });
    const converged = async () => {
      if ((await store.messages.count().exec()) < total) return false;
      const states = await store.syncState.find().exec();
      return states.every((s) => s.checkpoint >= (lastSeq.get(s.channelId) ?? 0));
    };
    const started = performance.now();
    await engine.sessionChanged();
    void engine.channelsChanged().catch(() => undefined);
    while (!(await converged())) {
      if (performance.now() - started > 60_000) throw new Error('the client did not converge in 60 s');
      await sleep(5);
    }
    const catchUpMs = performance.now() - started;
    engine.close();

    // The floor: one read of the same rows and one bulk write of them into a fresh store.
    // Only the messages (RxDB's free tier allows 13 collections in one process; the client's store has 12).
    const floorStore = await openLanternDatabase(`catch-up-floor-${randomUUID()}`, {
      collections: ['messages'],
    });
    const floorStarted = performance.now();
    const rows = await db
      .select()
      .from(messages)
      .where(and(eq(messages.institutionId, institutionId), inArray(messages.channelId, channelIds)));
    const wire = JSON.parse(JSON.stringify(rows.map(toWireMessage))) as Message[];
    await floorStore.messages.bulkInsert(wire.map((m) => toConfirmedDoc(m)));
    const floorMs = performance.now() - floorStarted;
    if ((await floorStore.messages.count().exec()) !== total) throw new Error('floor stored the wrong count');

    console.log(`Lantern sync engine (${lantern.database})  converged in ${catchUpMs.toFixed(0)} ms`);
    console.log(`one bulk pull (floor)          ${floorMs.toFixed(0)} ms`);
    console.log(`ratio Lantern/floor: ×${(catchUpMs / floorMs).toFixed(2)}`);
    await store.close();
    await floorStore.close();
  } finally {
    await lantern.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
