// Messages over REST: posting is idempotent on genId, history pages and the change feed tell clients
// everything, unread counts follow posts, and nobody reads a channel they are not in.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangesResponse, JoinedChannels, Message, MessagePage } from '../../schemas/protocol/index.ts';
import { sanitizeMessageHtml } from '../../server/sanitize.ts';
import { databases, startTestServer, type TestServer, type TestUser } from './harness.ts';
import {
  addMember,
  connect,
  disconnectAll,
  makeChannel,
  makeWorkspace,
  messagesUrl,
  restPost,
  type Workspace,
} from './messaging-world.ts';

describe('the message sanitiser', () => {
  it('removes scripts, styles, images and event handlers', () => {
    const out = sanitizeMessageHtml(
      '<p onclick="steal()">hi<script>alert(1)</script><style>p{}</style><img src=x onerror="alert(1)"></p>',
    );
    expect(out).toBe('<p>hi</p>');
  });

  it('drops javascript: and protocol-relative links but keeps the text', () => {
    expect(sanitizeMessageHtml('<a href="javascript:alert(1)">click</a>')).not.toContain('javascript');
    expect(sanitizeMessageHtml('<a href="//evil.example">x</a>')).not.toContain('evil');
    expect(sanitizeMessageHtml('<a href="javascript:alert(1)">click</a>')).toContain('click');
  });

  it('keeps formatting, safe links opening apart, and mention chips', () => {
    expect(sanitizeMessageHtml('<p><strong>b</strong> <em>i</em> <s>s</s> <code>c</code></p>')).toBe(
      '<p><strong>b</strong> <em>i</em> <s>s</s> <code>c</code></p>',
    );
    expect(sanitizeMessageHtml('<a href="https://example.com" target="_self">x</a>')).toBe(
      '<a href="https://example.com" rel="noopener noreferrer nofollow" target="_blank">x</a>',
    );
    expect(
      sanitizeMessageHtml(
        '<span data-type="mention" data-id="m1" class="mention" style="color:red">@ann</span>',
      ),
    ).toBe('<span data-type="mention" data-id="m1" class="mention">@ann</span>');
  });
});

describe.each(databases)('messages over REST on %s', (kind) => {
  let t: TestServer;
  let ws: Workspace;
  let bob: TestUser;

  beforeAll(async () => {
    t = await startTestServer(kind);
    ws = await makeWorkspace(t);
    bob = await addMember(t, ws);
  });
  afterAll(async () => {
    disconnectAll();
    await t?.close();
  });

  const page = (user: TestUser, channelId: string, query = '') =>
    user.api.get<MessagePage>(`${messagesUrl(ws, channelId)}${query}`);
  const changes = (user: TestUser, channelId: string, after: number, limit = 200) =>
    user.api.get<ChangesResponse>(`${messagesUrl(ws, channelId)}/changes?after=${after}&limit=${limit}`);

  it('stores a post once however often the same genId is sent, answering repeats with the same message', async () => {
    const channel = await makeChannel(ws.owner, ws);
    const body = { content: '<p>only once</p>', genId: randomUUID() };
    const first = await ws.owner.api.post<Message>(messagesUrl(ws, channel.id), body);
    const again = await ws.owner.api.post<Message>(messagesUrl(ws, channel.id), body);
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const list = await page(ws.owner, channel.id);
    expect(list.body.data.map((m) => m.genId)).toEqual([body.genId]);
  });

  it('stores one row when identical posts race, and spends one sequence number on it', async () => {
    const channel = await makeChannel(ws.owner, ws);
    const body = { content: '<p>race</p>', genId: randomUUID() };
    const results = await Promise.all(
      Array.from({ length: 6 }, () => ws.owner.api.post<Message>(messagesUrl(ws, channel.id), body)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect((await page(ws.owner, channel.id)).body.metadata.total).toBe(1);
    const next = await restPost(ws.owner, ws, channel.id);
    expect(next.seq).toBe(2);
  });

  it('refuses a genId already used by someone else, and an empty message', async () => {
    const mine = await restPost(ws.owner, ws, ws.general.id);
    const stolen = await bob.api.post(messagesUrl(ws, ws.general.id), {
      content: '<p>x</p>',
      genId: mine.genId,
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body.message).toBe('This message id is already used');

    const empty = await bob.api.post(messagesUrl(ws, ws.general.id), {
      content: '<p> </p><p><br></p>',
      genId: randomUUID(),
    });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Message cannot be empty');
    const zeroWidth = await bob.api.post(messagesUrl(ws, ws.general.id), {
      content: '<p>\u200b&nbsp;\ufeff</p><p>&#8203;</p>',
      genId: randomUUID(),
    });
    expect(zeroWidth.status).toBe(400);
    expect(zeroWidth.body.message).toBe('Message cannot be empty');
    const onlyScript = await bob.api.post(messagesUrl(ws, ws.general.id), {
      content: '<script>alert(1)</script>',
      genId: randomUUID(),
    });
    expect(onlyScript.status).toBe(400);
  });

  it('stores the sanitised content', async () => {
    const stored = await restPost(bob, ws, ws.general.id, '<p>hi<img src=x onerror="alert(1)"></p>');
    expect(stored.content).toBe('<p>hi</p>');
  });

  // Spec §7 gives the REST post as {content}: the server picks a genId when none is sent, so each such post
  // is a message of its own (a retry without one posts again; the app always sends one).
  it('posts {content} alone, naming the message itself', async () => {
    const channel = await makeChannel(ws.owner, ws);
    const first = await ws.owner.api.post<Message>(messagesUrl(ws, channel.id), {
      content: '<p>from a script</p>',
    });
    const second = await ws.owner.api.post<Message>(messagesUrl(ws, channel.id), {
      content: '<p>from a script</p>',
    });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(first.body.genId).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.body.genId).not.toBe(first.body.genId);
    const list = await page(ws.owner, channel.id);
    expect(list.body.data.map((m) => m.genId).sort()).toEqual([first.body.genId, second.body.genId].sort());
  });

  it('answers bad bodies and queries with 400 and a message', async () => {
    const noContent = await bob.api.post(messagesUrl(ws, ws.general.id), { genId: randomUUID() });
    expect(noContent.status).toBe(400);
    const badGenId = await bob.api.post(messagesUrl(ws, ws.general.id), {
      content: 'x',
      genId: 'not-a-uuid',
    });
    expect(badGenId.status).toBe(400);
    expect((await page(bob, ws.general.id, '?limit=1000')).status).toBe(400);
    expect((await page(bob, ws.general.id, '?page=0')).status).toBe(400);
    for (const before of ['abc', '0', '1.5', '-3', '99999999999999999999']) {
      const refused = await bob.api.get(`${messagesUrl(ws, ws.general.id)}?before=${before}`);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe(
        '"before" names a message by its position in the channel: a whole number from 1.',
      );
    }
    expect((await changes(bob, ws.general.id, -1)).status).toBe(400);
  });

  it('pages the history newest first, 30 by default, without deleted messages', async () => {
    const channel = await makeChannel(ws.owner, ws);
    const posted: Message[] = [];
    for (let i = 0; i < 33; i++) posted.push(await restPost(ws.owner, ws, channel.id, `<p>${i}</p>`));
    const socket = await connect(t, ws.owner.token);
    const ref = { institutionId: ws.id, channelId: channel.id };
    await socket
      .timeout(5_000)
      .emitWithAck('deleteMessage', { ...ref, messageId: (posted[32] as Message).id });

    const first = await page(ws.owner, channel.id);
    expect(first.body.metadata).toEqual({ page: 1, limit: 30, total: 32, hasMore: true });
    expect(first.body.data[0]?.content).toBe('<p>31</p>');
    expect(first.body.data.at(-1)?.content).toBe('<p>2</p>');
    const second = await page(ws.owner, channel.id, '?page=2');
    expect(second.body.data.map((m) => m.content)).toEqual(['<p>1</p>', '<p>0</p>']);
    expect(second.body.metadata.hasMore).toBe(false);

    // The page before a message follows on from it, whatever was deleted or posted after it.
    await socket
      .timeout(5_000)
      .emitWithAck('deleteMessage', { ...ref, messageId: (posted[8] as Message).id });
    await restPost(ws.owner, ws, channel.id, '<p>later</p>');
    const olderThan = (m: number, query = '') =>
      page(ws.owner, channel.id, `?before=${(posted[m] as Message).createdSeq}${query}`);
    const older = await olderThan(12, '&limit=5');
    expect(older.status).toBe(200);
    expect(older.body.data.map((m) => m.content)).toEqual([
      '<p>11</p>',
      '<p>10</p>',
      '<p>9</p>',
      '<p>7</p>',
      '<p>6</p>',
    ]);
    expect(older.body.metadata.hasMore).toBe(true);
    const oldest = await olderThan(2, '&limit=5');
    expect(oldest.body.data.map((m) => m.content)).toEqual(['<p>1</p>', '<p>0</p>']);
    expect(oldest.body.metadata.hasMore).toBe(false);
    // Exactly a page left: nothing follows it.
    expect((await olderThan(2, '&limit=2')).body.metadata.hasMore).toBe(false);
    expect((await olderThan(0)).body).toMatchObject({ data: [], metadata: { hasMore: false } });
  });

  it('feeds every change after a seq in order, edits collapsed and deletes as tombstones, page by page', async () => {
    const channel = await makeChannel(ws.owner, ws);
    const ref = { institutionId: ws.id, channelId: channel.id };
    const a = await restPost(ws.owner, ws, channel.id, '<p>a</p>');
    const b = await restPost(ws.owner, ws, channel.id, '<p>b</p>');
    const c = await restPost(ws.owner, ws, channel.id, '<p>c</p>');
    const socket = await connect(t, ws.owner.token);
    const edited = (await socket
      .timeout(5_000)
      .emitWithAck('editMessage', { ...ref, messageId: a.id, content: '<p>a2</p>' })) as Message;
    const deleted = (await socket
      .timeout(5_000)
      .emitWithAck('deleteMessage', { ...ref, messageId: b.id })) as Message;
    expect([a.seq, b.seq, c.seq, edited.seq, deleted.seq]).toEqual([1, 2, 3, 4, 5]);
    expect(edited.createdSeq).toBe(1);

    const all = await changes(ws.owner, channel.id, 0);
    expect(all.body.data.map((m) => [m.id, m.seq])).toEqual([
      [c.id, 3],
      [a.id, 4],
      [b.id, 5],
    ]);
    expect(all.body.data[2]).toMatchObject({
      content: '',
      attachments: [],
      mentions: [],
      deletedAt: expect.any(String),
    });
    expect(all.body.metadata).toEqual({ lastSeq: 5, hasMore: false });

    const firstPage = await changes(ws.owner, channel.id, 0, 2);
    expect(firstPage.body.data.map((m) => m.seq)).toEqual([3, 4]);
    expect(firstPage.body.metadata).toEqual({ lastSeq: 4, hasMore: true });
    const rest = await changes(ws.owner, channel.id, firstPage.body.metadata.lastSeq, 2);
    expect(rest.body.data.map((m) => m.seq)).toEqual([5]);
    expect(rest.body.metadata).toEqual({ lastSeq: 5, hasMore: false });

    const nothing = await changes(ws.owner, channel.id, 5);
    expect(nothing.body).toEqual({ data: [], metadata: { lastSeq: 5, hasMore: false } });
  });

  it('tells a client which of its genIds the server holds, and only its own', async () => {
    const mine = await restPost(bob, ws, ws.general.id);
    const theirs = await restPost(ws.owner, ws, ws.general.id);
    const unsent = randomUUID();
    const res = await bob.api.post<{ data: Message[] }>(`/api/institutions/${ws.id}/messages/known`, {
      genIds: [mine.genId, theirs.genId, unsent],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((m) => m.id)).toEqual([mine.id]);
    const empty = await bob.api.post(`/api/institutions/${ws.id}/messages/known`, { genIds: [] });
    expect(empty.status).toBe(400);
  });

  it("raises every other member's unread count on a new message, but not the author's", async () => {
    const unread = async (user: TestUser) => {
      const joined = await user.api.get<JoinedChannels>(`/api/institutions/${ws.id}/channels/joined`);
      return joined.body.channelMembers.find((m) => m.channelId === ws.general.id)?.unreadCount;
    };
    const [ownerBefore, bobBefore] = [await unread(ws.owner), await unread(bob)];
    await restPost(ws.owner, ws, ws.general.id);
    await restPost(ws.owner, ws, ws.general.id);
    expect(await unread(ws.owner)).toBe(ownerBefore);
    expect(await unread(bob)).toBe((bobBefore ?? 0) + 2);
  });

  it('keeps channels apart: a non-member of a private channel and another workspace get no messages', async () => {
    const secret = await makeChannel(ws.owner, ws, 'private');
    await restPost(ws.owner, ws, secret.id, '<p>secret</p>');
    const notIn = await page(bob, secret.id);
    expect(notIn.status).toBe(403);
    expect(notIn.body).not.toHaveProperty('data');
    // Paging by place changes nothing of who may read.
    const notInBefore = await page(bob, secret.id, `?before=${Number.MAX_SAFE_INTEGER}`);
    expect(notInBefore.status).toBe(403);
    expect(notInBefore.body).not.toHaveProperty('data');
    expect((await changes(bob, secret.id, 0)).status).toBe(403);
    expect(
      (await bob.api.post(messagesUrl(ws, secret.id), { content: 'x', genId: randomUUID() })).status,
    ).toBe(403);

    const other = await makeWorkspace(t, 'Other');
    const outsider = other.owner;
    expect((await page(outsider, ws.general.id)).status).toBe(403);
    // Their own workspace id with our channel id: the channel does not exist there.
    const crossed = await outsider.api.get(
      `/api/institutions/${other.id}/channels/${ws.general.id}/messages`,
    );
    expect(crossed.status).toBe(404);
    const crossedBefore = await outsider.api.get(
      `/api/institutions/${other.id}/channels/${ws.general.id}/messages?before=${Number.MAX_SAFE_INTEGER}`,
    );
    expect(crossedBefore.status).toBe(404);
    const known = await outsider.api.post(`/api/institutions/${ws.id}/messages/known`, {
      genIds: [randomUUID()],
    });
    expect(known.status).toBe(403);
  });

  it('reads one message for a member of its channel only, a deleted one as its tombstone (decision 0085)', async () => {
    const original = await restPost(ws.owner, ws, ws.general.id, '<p>The plan, as agreed</p>');
    const one = (user: TestUser, channelId: string, messageId: string) =>
      user.api.get<Message & { message?: string }>(`${messagesUrl(ws, channelId)}/${messageId}`);
    const read = await one(bob, ws.general.id, original.id);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      id: original.id,
      content: '<p>The plan, as agreed</p>',
      isStarred: false,
    });

    const secret = await makeChannel(ws.owner, ws, 'private');
    const hidden = await restPost(ws.owner, ws, secret.id, '<p>only for the room</p>');
    expect((await one(bob, secret.id, hidden.id)).status).toBe(403);
    // Named through a channel bob is in: that channel holds no such message.
    const through = await one(bob, ws.general.id, hidden.id);
    expect(through.status).toBe(404);
    expect(through.body.message).toBe('Message not found');
    const outsider = (await makeWorkspace(t, 'Elsewhere')).owner;
    expect((await one(outsider, ws.general.id, original.id)).status).toBe(403);
    expect((await one(bob, ws.general.id, 'x'.repeat(65))).status).toBe(400);

    const socket = await connect(t, ws.owner.token);
    await socket.emitWithAck('joinChannel', { institutionId: ws.id, channelId: ws.general.id });
    await socket.emitWithAck('deleteMessage', {
      institutionId: ws.id,
      channelId: ws.general.id,
      messageId: original.id,
    });
    const gone = await one(bob, ws.general.id, original.id);
    expect(gone.status).toBe(200);
    expect(gone.body.deletedAt).not.toBeNull();
    expect(gone.body.content).toBe('');
  });

  it('answers 401 without a valid token', async () => {
    expect((await t.api().get(messagesUrl(ws, ws.general.id))).status).toBe(401);
    expect(
      (await t.api('nope').post(messagesUrl(ws, ws.general.id), { content: 'x', genId: randomUUID() }))
        .status,
    ).toBe(401);
  });
});
