// `npm run bench:catch-up`: a client that missed 1,000 messages over 20 channels reconnects; how long until
// its store holds every one and every channel's checkpoint is current. The client is the app's own sync
// engine (worker/sync-engine.ts) with its RxDB store over fake-indexeddb, as in the sync fuzz. Next to it,
// the floor: the same rows read in one query and written to a fresh store in one bulk insert, the least
// any catch-up has to do. Each is run CATCH_UP_ROUNDS times (5), each time into a fresh store, and the
// medians compared; next to them, the change feed alone (the same requests, nothing stored), which is
// the part of the gap no client work can close. Env: CATCH_UP_MESSAGES (1000), CATCH_UP_CHANNELS (20), CATCH_UP_ROUNDS (5).
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { CHANGES_PAGE_MAX, type Message } from '../schemas/protocol/index.ts';
import { channelMembers, members, messages } from '../server/db/schema.ts';
import { toWireMessage } from '../server/messages/wire.ts';
import { openLanternDatabase } from '../src/store/database.ts';
import { createHttp } from '../src/store/http.ts';
import { toConfirmedDoc } from '../src/store/message-merge.ts';
import { SyncEngine } from '../worker/sync-engine.ts';
import { startLantern } from './lantern-fixture.ts';
import { connect } from './load.ts';
import { median } from './stats.ts';

const envInt = (name: string, fallback: number) => {
  const v = Number.parseInt(process.env[name] ?? '', 10);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const total = envInt('CATCH_UP_MESSAGES', 1000);
const channelCount = envInt('CATCH_UP_CHANNELS', 20);
const rounds = envInt('CATCH_UP_ROUNDS', 5);
const ms = (v: number | undefined) => `${(v ?? Number.NaN).toFixed(0)} ms`;
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
    const catchUp = async (): Promise<number> => {
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
      const ms = performance.now() - started;
      engine.close();
      await store.close();
      return ms;
    };

    // The floor: one read of the same rows and one bulk write of them into a fresh store.
    // Only the messages (RxDB's free tier allows 13 open collections in one process; the client's store
    // has 12, closed before this one opens).
    const floor = async (): Promise<number> => {
      const floorStore = await openLanternDatabase(`catch-up-floor-${randomUUID()}`, {
        collections: ['messages'],
      });
      const started = performance.now();
      const rows = await db
        .select()
        .from(messages)
        .where(and(eq(messages.institutionId, institutionId), inArray(messages.channelId, channelIds)));
      const wire = JSON.parse(JSON.stringify(rows.map(toWireMessage))) as Message[];
      await floorStore.messages.bulkInsert(wire.map((m) => toConfirmedDoc(m)));
      const ms = performance.now() - started;
      if ((await floorStore.messages.count().exec()) !== total)
        throw new Error('floor stored the wrong count');
      await floorStore.close();
      return ms;
    };

    // What the change feed alone costs: the request the puller makes (every channel in one workspace
    // change feed), through the app's HTTP client, nothing stored. The part of the gap to the floor no
    // store write can close.
    const http = createHttp({ baseUrl: target.url, getToken: async () => target.tokens[0] as string });
    const feedOnly = async (): Promise<number> => {
      const started = performance.now();
      const answer = await http.call('workspaceChanges', {
        params: { id: institutionId },
        body: { channels: channelIds.map((channelId) => ({ channelId, after: 0 })), limit: CHANGES_PAGE_MAX },
      });
      const pages = answer.data;
      const ms = performance.now() - started;
      if (pages.reduce((n, p) => n + p.data.length, 0) !== total) throw new Error('the feed lost messages');
      return ms;
    };

    // Rounds alternate which goes first, so neither always runs on a colder process or a quieter
    // moment; on a shared machine the medians are the figures to read.
    const lanternRuns: number[] = [];
    const floorRuns: number[] = [];
    const feedRuns: number[] = [];
    for (let round = 0; round < rounds; round++) {
      if (round % 2 === 0) {
        lanternRuns.push(await catchUp());
        floorRuns.push(await floor());
      } else {
        floorRuns.push(await floor());
        lanternRuns.push(await catchUp());
      }
      feedRuns.push(await feedOnly());
      console.log(
        `round ${round + 1}: Lantern ${ms(lanternRuns[round])}, floor ${ms(floorRuns[round])}, feed alone ${ms(feedRuns[round])}`,
      );
    }
    const lanternMs = median(lanternRuns);
    const floorMs = median(floorRuns);
    console.log(`Lantern sync engine (${lantern.database})  converged in ${ms(lanternMs)} (median)`);
    console.log(`one bulk pull (floor)          ${ms(floorMs)} (median)`);
    console.log(`the change feed alone          ${ms(median(feedRuns))} (median)`);
    console.log(`ratio Lantern/floor: ×${(lanternMs / floorMs).toFixed(2)}`);
    console.log(
      `ratio (Lantern − feed)/floor, the store's share: ×${((lanternMs - median(feedRuns)) / floorMs).toFixed(2)}`,
    );
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
