// One fuzz client in its own thread (its own JavaScript realm, as a browser worker is): the full store and
// the real sync engine, driven by commands from the test's thread. Over the held network (held-socket.ts)
// its clock is manual; over a real network (the proxy fuzz) it runs on real sockets and timers.
import 'fake-indexeddb/auto';
import { parentPort } from 'node:worker_threads';
import type { MessageDoc } from '../../schemas/collections.ts';
import type { User } from '../../schemas/protocol/index.ts';
import { type LanternDatabase, openLanternDatabase } from '../../src/store/database.ts';
import {
  deleteMessage,
  editMessage,
  enqueueMessageOperation,
  enqueuePoll,
  forwardMessage,
  togglePin,
  toggleReaction,
} from '../../src/store/message-outbox.ts';
import { enqueuePost } from '../../src/store/outbox.ts';
import { SyncEngine } from '../../worker/sync-engine.ts';
import type { Timings } from '../../worker/timings.ts';
import { HeldFetch, HeldSocket } from './held-socket.ts';
import type { DownMessage, UpMessage } from './link-messages.ts';
import { ManualClock } from './manual-clock.ts';

const port = parentPort;
if (!port) throw new Error('fuzz-client.ts runs in a worker thread');

export interface OpenCommand {
  databaseName: string;
  token: string;
  user: User;
  /** The person's member id in the workspace (reactions and votes carry it). */
  memberId: string;
  institutionId: string;
  /** Channels this client follows; the first is where it posts, the second (if any) receives forwards. */
  channelIds: string[];
  /** Over the held network when absent; otherwise the real server (or proxy) at this address. */
  realUrl?: string;
  timings: Timings;
}

/** A user action; `pick` (0 ≤ pick < 1) chooses the target among the eligible messages, in a stable order. */
export type FuzzAction =
  | { kind: 'post'; label: string }
  | { kind: 'poll'; label: string }
  | { kind: 'edit'; label: string; pick: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'react'; pick: number; emoji: string }
  | { kind: 'pin'; pick: number }
  | { kind: 'vote'; pick: number; option: number }
  | { kind: 'forward'; pick: number };

/** What an action did: the new messages it made (posts, polls, forward copies), or nothing to act on. */
export interface ActionResult {
  created: { genId: string; channelId: string; kind: 'post' | 'poll' | 'forward' }[];
  skipped: boolean;
}

export interface ClientSnapshot {
  messages: MessageDoc[];
  outbox: number;
  connection: string;
}

let db: LanternDatabase | null = null;
let engine: SyncEngine | null = null;
let clock: ManualClock | null = null;
let socket: HeldSocket | null = null;
let heldFetch: HeldFetch | null = null;
let session: OpenCommand | null = null;
let sentUp = 0;

function send(message: UpMessage): void {
  sentUp++;
  port?.postMessage(message);
}

async function open(command: OpenCommand): Promise<void> {
  session = command;
  db = await openLanternDatabase(command.databaseName);
  await db.session.upsert({
    id: 'current',
    token: command.token,
    user: command.user,
    selectedInstitutionId: command.institutionId,
  });
  for (const channelId of command.channelIds)
    await db.syncState.insert({ channelId, institutionId: command.institutionId, checkpoint: 0 });
  if (command.realUrl) {
    engine = new SyncEngine({ db, baseUrl: command.realUrl, timings: command.timings, log: () => {} });
  } else {
    const manual = new ManualClock();
    const fetcher = new HeldFetch(send);
    clock = manual;
    heldFetch = fetcher;
    engine = new SyncEngine({
      db,
      baseUrl: 'http://held.invalid',
      timings: command.timings,
      clock: manual,
      fetch: fetcher.fetch,
      socketFactory: (_url, options) => {
        socket = new HeldSocket(options, send, manual);
        return socket;
      },
      log: process.env.FUZZ_DEBUG
        ? (m, e) => console.error(`[${command.user.email}] ${m}`, e ?? '')
        : () => {},
    });
  }
  await engine.sessionChanged();
}

function need<T>(value: T | null): T {
  if (value === null) throw new Error('the client is not open');
  return value;
}

/** Messages of the client's own channels an action may target, in an order that does not depend on ids. */
async function targets(filter: (m: MessageDoc) => boolean): Promise<MessageDoc[]> {
  const all = (await need(db).messages.find().exec()).map((d) => d.toJSON() as MessageDoc);
  return all
    .filter((m) => m.deletedAt === null && filter(m))
    .sort((a, b) => a.content.localeCompare(b.content) || a.channelId.localeCompare(b.channelId));
}

const choose = <T>(list: T[], pick: number): T | undefined => list[Math.floor(pick * list.length)];

async function act(action: FuzzAction): Promise<ActionResult> {
  const store = need(db);
  const me = need(session);
  const memberId = me.memberId;
  const [channelId, otherChannelId] = me.channelIds as [string, string | undefined];
  const base = { institutionId: me.institutionId, channelId, memberId };
  const done = (created: ActionResult['created'] = []): ActionResult => ({ created, skipped: false });
  const skipped: ActionResult = { created: [], skipped: true };
  switch (action.kind) {
    case 'post': {
      const genId = await enqueuePost(store, { ...base, content: `<p>${action.label}</p>` });
      return done([{ genId, channelId, kind: 'post' }]);
    }
    case 'poll': {
      const genId = await enqueuePoll(store, {
        ...base,
        question: action.label,
        options: ['yes', 'no', 'maybe'],
        multiple: false,
      });
      return done([{ genId, channelId, kind: 'poll' }]);
    }
    case 'edit': {
      const target = choose(await targets((m) => m.memberId === memberId && m.poll === null), action.pick);
      if (!target) return skipped;
      await editMessage(store, target.genId, memberId, { content: `<p>${action.label}</p>` });
      return done();
    }
    case 'delete': {
      // Only sent messages: deleting a pending one only discards it here, which the post test covers.
      const target = choose(
        await targets((m) => m.memberId === memberId && m.status === 'confirmed'),
        action.pick,
      );
      if (!target) return skipped;
      await deleteMessage(store, target.genId, memberId);
      return done();
    }
    case 'react': {
      const target = choose(await targets((m) => m.status === 'confirmed'), action.pick);
      if (!target) return skipped;
      await toggleReaction(store, target.genId, memberId, action.emoji);
      return done();
    }
    case 'pin': {
      const target = choose(await targets((m) => m.status === 'confirmed'), action.pick);
      if (!target) return skipped;
      await togglePin(store, target.genId, memberId);
      return done();
    }
    case 'vote': {
      const target = choose(
        await targets((m) => m.status === 'confirmed' && m.poll !== null && m.poll.closedAt === null),
        action.pick,
      );
      if (!target) return skipped;
      await enqueueMessageOperation(store, target.genId, memberId, {
        kind: 'pollVote',
        optionIndexes: [action.option],
      });
      return done();
    }
    case 'forward': {
      if (!otherChannelId) return skipped;
      const target = choose(
        await targets((m) => m.status === 'confirmed' && m.channelId === channelId && m.poll === null),
        action.pick,
      );
      if (!target) return skipped;
      const genIds = await forwardMessage(store, target.genId, memberId, [otherChannelId]);
      return done(genIds.map((genId) => ({ genId, channelId: otherChannelId, kind: 'forward' as const })));
    }
  }
}

/**
 * Returns once the client has nothing left to do but wait for the network: no callback is queued and
 * nothing new went out for a few turns of the event loop. The held network never answers by itself,
 * so this is exact, not a sleep.
 */
async function quiesce(): Promise<void> {
  let calm = 0;
  for (let turn = 0; turn < 20_000; turn++) {
    const before = sentUp;
    await new Promise<void>((resolve) => setImmediate(resolve));
    const busy = process.getActiveResourcesInfo().includes('Immediate');
    if (busy || sentUp !== before) calm = 0;
    else if (++calm >= 3) return;
  }
  throw new Error('the client never went quiet');
}

async function snapshot(): Promise<ClientSnapshot> {
  const store = need(db);
  return {
    messages: (await store.messages.find().exec()).map((d) => d.toJSON() as MessageDoc),
    outbox: (await store.outbox.find().exec()).length,
    connection: await need(engine).getConnectionStatus(),
  };
}

async function close(): Promise<void> {
  engine?.close();
  if (!session?.realUrl) await quiesce();
  else await engine?.settled();
  // Each seed opens a database of its own name; closing is enough and much quicker than removing.
  await db?.close();
  db = null;
  engine = null;
  clock = null;
  socket = null;
  heldFetch = null;
  session = null;
}

async function run(command: string, args: unknown[]): Promise<unknown> {
  switch (command) {
    case 'open':
      await open(args[0] as OpenCommand);
      return quiesce();
    case 'act': {
      const result = await act(args[0] as FuzzAction);
      if (!session?.realUrl) await quiesce();
      return result;
    }
    case 'settle':
      return quiesce();
    case 'advance':
      need(clock).advance(args[0] as number);
      return quiesce();
    case 'catchUp':
      await need(engine).channelsChanged();
      return need(engine).settled();
    case 'snapshot':
      return snapshot();
    case 'close':
      return close();
    default:
      throw new Error(`unknown command ${command}`);
  }
}

port.on('message', (message: DownMessage) => {
  if (message.kind === 'call') {
    run(message.command, message.args).then(
      (value) => send({ kind: 'reply', callId: message.callId, value }),
      (error: unknown) =>
        send({
          kind: 'reply',
          callId: message.callId,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        }),
    );
  } else if (message.kind === 'response' || message.kind === 'networkError') {
    heldFetch?.deliver(message);
  } else {
    socket?.deliver(message);
  }
});
