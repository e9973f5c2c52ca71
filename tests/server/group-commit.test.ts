// Group commit: posts sent at the same moment share transactions, yet each is acknowledged once, only
// after the commit that holds it, with its own seq; a post refused by a rule leaves its neighbours alone.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JoinedChannels, Message, MessagePage } from '../../schemas/protocol/index.ts';
import { HttpError } from '../../server/errors.ts';
import { type PostMessageInput, postMessage } from '../../server/messages/post.ts';
import {
  channelUrl,
  channelWith,
  joined,
  makeTeam,
  type Person,
  roleNamed,
  type Team,
} from './channel-world.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import {
  type Client,
  collect,
  connect,
  disconnectAll,
  eventually,
  messagesUrl,
  pause,
} from './messaging-world.ts';

/** Long enough for a broadcast that should not happen to have arrived on this machine. */
const QUIET_MS = 300;

describe.each(databases)('group commit on %s', (kind) => {
  let t: TestServer;
  let team: Team;

  beforeAll(async () => {
    t = await startTestServer(kind);
    team = await makeTeam(t);
  });
  afterAll(async () => {
    disconnectAll();
    await t?.close();
  });

  const ack = <T>(socket: Client, event: string, payload: unknown): Promise<T> =>
    (socket.timeout(10_000) as unknown as { emitWithAck(e: string, p: unknown): Promise<T> }).emitWithAck(
      event,
      payload,
    );

  it('acknowledges each of many simultaneous posts once, after its commit, with its own seq', async () => {
    const { ws, primaryOwner, admin, member } = team;
    const channel = await channelWith(primaryOwner, ws, 'public', [admin, member]);
    const senders: Client[] = [];
    for (const who of [primaryOwner, admin])
      for (let i = 0; i < 6; i++) senders.push(await connect(t, who.token));
    const listener = await connect(t, member.token);
    const ref = { institutionId: ws.id, channelId: channel.id };
    for (const s of [...senders, listener]) expect(await ack(s, 'joinChannel', ref)).toEqual({ ok: true });
    const heard = collect(listener, 'newMessage');

    const acks: Message[] = [];
    // Read back the moment each acknowledgement arrives: a post acknowledged before its commit would be
    // missing from the history.
    const readBack: Promise<boolean>[] = [];
    const posts = senders.flatMap((s, i) =>
      [0, 1, 2].map(async (round) => {
        const m = await ack<Message>(s, 'postMessage', {
          ...ref,
          genId: randomUUID(),
          content: `<p>burst ${i}.${round}</p>`,
        });
        acks.push(m);
        readBack.push(
          primaryOwner.api
            .get<MessagePage>(`${messagesUrl(ws, channel.id)}?limit=100`)
            .then((page) => page.body.data.some((row) => row.id === m.id)),
        );
      }),
    );
    await Promise.all(posts);
    expect(await Promise.all(readBack)).toEqual(acks.map(() => true));
    expect(acks.every((m) => typeof m.id === 'string' && m.channelId === channel.id)).toBe(true);
    const seqs = acks.map((m) => m.seq).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: acks.length }, (_, i) => i + 1));

    await eventually(() => heard.length >= acks.length);
    await pause(QUIET_MS);
    expect(heard.map((m) => m.id).sort()).toEqual(acks.map((m) => m.id).sort());
    // Delivered in seq order, as each batch commits.
    expect(heard.map((m) => m.seq)).toEqual(seqs);

    const joined = await member.api.get<JoinedChannels>(`/api/institutions/${ws.id}/channels/joined`);
    expect(joined.body.channelMembers.find((m) => m.channelId === channel.id)?.unreadCount).toBe(acks.length);
  });

  it('answers a refused post with its own reason and stores its neighbours from the same moment', async () => {
    const { ws, primaryOwner, admin, member, guest } = team;
    const channel = await channelWith(primaryOwner, ws, 'public', [admin, member]);
    const elsewhere = await channelWith(primaryOwner, ws, 'public', [admin, member]);
    const defaultRole = await roleNamed(primaryOwner, ws, channel, 'member');
    await primaryOwner.api.put(`${channelUrl(ws, channel)}/roles/${defaultRole.id}`, { canTag: false });
    const base = (by: Person) => ({ userId: by.user.id, institutionId: ws.id, channelId: channel.id });
    const send = (by: Person, input: Partial<PostMessageInput>) =>
      postMessage(t.ctx, base(by).userId, {
        institutionId: ws.id,
        channelId: channel.id,
        genId: randomUUID(),
        content: '<p>hi</p>',
        ...input,
      });
    const taken = await send(primaryOwner, {});
    const foreign = await send(primaryOwner, { channelId: elsewhere.id });
    const repeatId = randomUUID();

    // Handed over in one tick: they share a batch.
    const settled = await Promise.allSettled([
      send(admin, { content: '<p>first</p>' }),
      send(member, { mentions: [{ type: 'everyone', id: 'everyone' }] }),
      send(member, { genId: taken.message.genId }),
      send(guest, {}),
      send(member, { content: '<p><br></p>' }),
      send(member, { content: '<p>reply elsewhere</p>', replyTo: foreign.message.id }),
      send(admin, { content: '<p>reply here</p>', replyTo: taken.message.id }),
      send(member, { content: '<p>once</p>', genId: repeatId }),
      send(member, { content: '<p>once</p>', genId: repeatId }),
      send(admin, { content: '<p>last</p>' }),
    ]);
    const reason = (r: PromiseSettledResult<unknown>) =>
      r.status === 'rejected' && r.reason instanceof HttpError ? r.reason.message : null;
    expect(settled.map(reason)).toEqual([
      null,
      'You cannot mention people in this channel',
      'This message id is already used',
      'You are not a member of this channel',
      'Message cannot be empty',
      null,
      null,
      null,
      null,
      null,
    ]);
    const value = (i: number) => {
      const r = settled[i];
      if (r?.status !== 'fulfilled') throw new Error(`post ${i} was refused`);
      return r.value;
    };
    expect(value(5).message.replyTo).toBeNull();
    expect(value(6).message.replyTo).toBe(taken.message.id);
    expect(value(7).message.id).toBe(value(8).message.id);
    expect([value(7).created, value(8).created].sort()).toEqual([false, true]);

    const page = await primaryOwner.api.get<MessagePage>(`${messagesUrl(ws, channel.id)}?limit=100`);
    const stored = page.body.data.map((m) => m.content).sort();
    expect(stored).toEqual(
      [
        '<p>hi</p>',
        '<p>first</p>',
        '<p>reply elsewhere</p>',
        '<p>reply here</p>',
        '<p>once</p>',
        '<p>last</p>',
      ].sort(),
    );
    // Every stored message has its own seq, with no gap left by the refused ones.
    expect(page.body.data.map((m) => m.seq).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('numbers a burst of plain posts from known posters in arrival order, refusing only the empty one', async () => {
    // Posters who have posted here before are answered from memory, and a burst of plain posts (no files,
    // mentions or replies) is written in one statement (server/messages/post-statement.ts).
    const { ws, primaryOwner, admin, member } = team;
    const channel = await channelWith(primaryOwner, ws, 'public', [admin, member]);
    const send = (by: Person, content: string, genId: string = randomUUID()) =>
      postMessage(t.ctx, by.user.id, { institutionId: ws.id, channelId: channel.id, genId, content });
    const earlier = await send(admin, '<p>earlier</p>');
    await send(member, '<p>hello</p>');
    const burst = await Promise.allSettled([
      send(admin, '<p>one</p>'),
      send(member, '<p><br></p>'),
      send(member, '<p>two</p>'),
      send(admin, '<p>three</p>'),
    ]);
    expect(burst.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : null))).toEqual([
      null,
      'Message cannot be empty',
      null,
      null,
    ]);
    // Each acknowledgement carries the number stored with its message.
    expect(burst.map((r) => (r.status === 'fulfilled' ? r.value.message.seq : null))).toEqual([
      3,
      null,
      4,
      5,
    ]);
    const page = await primaryOwner.api.get<MessagePage>(`${messagesUrl(ws, channel.id)}?limit=100`);
    const bySeq = [...page.body.data].sort((a, b) => a.seq - b.seq);
    expect(bySeq.map((m) => [m.seq, m.content])).toEqual([
      [1, '<p>earlier</p>'],
      [2, '<p>hello</p>'],
      [3, '<p>one</p>'],
      [4, '<p>two</p>'],
      [5, '<p>three</p>'],
    ]);
    // A resend beside a new post: the resend is answered with what was stored, the new post numbered next.
    const [again, next] = await Promise.all([
      send(admin, '<p>earlier</p>', earlier.message.genId),
      send(member, '<p>four</p>'),
    ]);
    expect(again).toMatchObject({ created: false, message: { id: earlier.message.id, seq: 1 } });
    expect(next).toMatchObject({ created: true, message: { seq: 6 } });
    // The authors' own posts are not unread for them; the owner, who wrote none, has all six unread.
    const unread = async (who: Person) =>
      (await joined(who, ws)).channelMembers.find((m) => m.channelId === channel.id)?.unreadCount;
    expect(await unread(admin)).toBe(3);
    expect(await unread(member)).toBe(3);
    expect(await unread(primaryOwner)).toBe(6);
  });

  it('numbers a burst over two channels in each, and writes neither channel when one of them changed', async () => {
    const { ws, primaryOwner, admin, member } = team;
    const a = await channelWith(primaryOwner, ws, 'public', [admin, member]);
    const b = await channelWith(primaryOwner, ws, 'public', [admin, member]);
    const send = (by: Person, channel: { id: string }, content: string) =>
      postMessage(t.ctx, by.user.id, {
        institutionId: ws.id,
        channelId: channel.id,
        genId: randomUUID(),
        content,
      });
    for (const by of [admin, member]) for (const channel of [a, b]) await send(by, channel, '<p>hello</p>');
    const burst = await Promise.all([
      send(admin, a, '<p>a3</p>'),
      send(member, b, '<p>b3</p>'),
      send(admin, b, '<p>b4</p>'),
      send(member, a, '<p>a4</p>'),
    ]);
    expect(burst.map((r) => [r.message.channelId === a.id ? 'a' : 'b', r.message.seq])).toEqual([
      ['a', 3],
      ['b', 3],
      ['b', 4],
      ['a', 4],
    ]);
    // The member leaves b behind the server's back: the next burst over a and b refuses only their post in
    // b, and numbers the others on from where each channel stood.
    await t.ctx.db.execute(
      sql`DELETE FROM channel_members WHERE channel_id = ${b.id} AND member_id = ${member.memberId}`,
    );
    const settled = await Promise.allSettled([
      send(admin, a, '<p>a5</p>'),
      send(member, b, '<p>b?</p>'),
      send(admin, b, '<p>b5</p>'),
    ]);
    expect(
      settled.map((r) => (r.status === 'fulfilled' ? r.value.message.seq : (r.reason as Error).message)),
    ).toEqual([5, 'You are not a member of this channel', 5]);
    for (const [channel, count] of [
      [a, 5],
      [b, 5],
    ] as const) {
      const page = await primaryOwner.api.get<MessagePage>(`${messagesUrl(ws, channel.id)}?limit=100`);
      expect(page.body.data.map((m) => m.seq).sort((x, y) => x - y)).toEqual(
        Array.from({ length: count }, (_, i) => i + 1),
      );
    }
  });

  it("refuses a stranger's plain post into another workspace's channel, whichever workspace it names", async () => {
    // Sign-up is open: the foreigner owns a workspace of their own and knows this channel's id.
    const { ws, primaryOwner, member, foreigner, foreignWs } = team;
    const channel = await channelWith(primaryOwner, ws, 'public', [member]);
    const send = (by: Person, institutionId: string, content: string) =>
      postMessage(t.ctx, by.user.id, { institutionId, channelId: channel.id, genId: randomUUID(), content });
    await send(member, ws.id, '<p>ours</p>');
    const settled = await Promise.allSettled([
      send(member, ws.id, '<p>still ours</p>'),
      send(foreigner, ws.id, '<p>theirs</p>'),
      send(foreigner, foreignWs.id, '<p>theirs again</p>'),
    ]);
    expect(
      settled.map((r) => (r.status === 'fulfilled' ? r.value.message.seq : (r.reason as Error).message)),
    ).toEqual([2, 'You are not a member of this workspace', 'Channel not found']);
    const page = await primaryOwner.api.get<MessagePage>(`${messagesUrl(ws, channel.id)}?limit=100`);
    expect(page.body.data.map((m) => m.content).sort()).toEqual(['<p>ours</p>', '<p>still ours</p>']);
  });

  it.runIf(kind === 'postgres')(
    'retries a batch post by post when another connection commits the same genId under it',
    async () => {
      const { ws, primaryOwner, admin } = team;
      const channel = await channelWith(primaryOwner, ws, 'public', [admin]);
      const genId = randomUUID();
      // Another connection (another node, say) holds the channel and has stored this genId, not yet committed.
      const other = new pg.Client({ connectionString: t.config.DATABASE_URL });
      await other.connect();
      try {
        await other.query('BEGIN');
        const bumped = await other.query<{ last_seq: string }>(
          'UPDATE channels SET last_seq = last_seq + 1 WHERE id = $1 RETURNING last_seq',
          [channel.id],
        );
        const seq = Number(bumped.rows[0]?.last_seq);
        const storedId = randomUUID();
        await other.query(
          `INSERT INTO messages (id, gen_id, channel_id, institution_id, member_id, content, seq, created_seq)
           VALUES ($1, $2, $3, $4, $5, '<p>there first</p>', $6, $6)`,
          [storedId, genId, channel.id, ws.id, admin.memberId, seq],
        );
        const send = (content: string, id = randomUUID()) =>
          postMessage(t.ctx, admin.user.id, {
            institutionId: ws.id,
            channelId: channel.id,
            genId: id,
            content,
          });
        // One batch: its genId lookup misses the uncommitted row, then its insert waits behind it.
        const racing = Promise.all([send('<p>mine</p>', genId), send('<p>beside</p>')]);
        await pause(300);
        await other.query('COMMIT');
        const [repeat, beside] = await racing;
        expect(repeat).toMatchObject({
          created: false,
          message: { id: storedId, content: '<p>there first</p>' },
        });
        expect(beside.created).toBe(true);
        expect(beside.message.seq).toBe(seq + 1);
      } finally {
        await other.end();
      }
    },
  );
});
