// The workspace change feed: a reconnect's catch-up of many channels in one request, each channel from
// its own checkpoint, and nothing from a channel the caller is not in, whatever ids they send.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHANGES_CHANNELS_MAX,
  type ChangesResponse,
  type WorkspaceChangesResponse,
} from '../../schemas/protocol/index.ts';
import { databases, startTestServer, type TestServer, type TestUser } from './harness.ts';
import {
  addMember,
  disconnectAll,
  makeChannel,
  makeWorkspace,
  messagesUrl,
  restPost,
  type Workspace,
} from './messaging-world.ts';

describe.each(databases)('the workspace change feed on %s', (kind) => {
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

  const feed = (user: TestUser, workspaceId: string, body: unknown) =>
    user.api.post<WorkspaceChangesResponse>(`/api/institutions/${workspaceId}/messages/changes`, body);

  it('answers every channel from its own checkpoint, in seq order, as the one-channel feed does', async () => {
    const a = await makeChannel(ws.owner, ws);
    const b = await makeChannel(ws.owner, ws);
    for (let i = 0; i < 3; i++) {
      await restPost(ws.owner, ws, a.id, `<p>a${i}</p>`);
      await restPost(ws.owner, ws, b.id, `<p>b${i}</p>`);
    }
    const res = await feed(ws.owner, ws.id, {
      channels: [
        { channelId: a.id, after: 1 },
        { channelId: b.id, after: 0 },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.notMember).toEqual([]);
    const byId = new Map(res.body.data.map((p) => [p.channelId, p]));
    expect(byId.get(a.id)?.data.map((m) => m.content)).toEqual(['<p>a1</p>', '<p>a2</p>']);
    expect(byId.get(b.id)?.data.map((m) => m.content)).toEqual(['<p>b0</p>', '<p>b1</p>', '<p>b2</p>']);
    // The same rows the per-channel feed gives.
    const single = await ws.owner.api.get<ChangesResponse>(`${messagesUrl(ws, a.id)}/changes?after=1`);
    const { channelId: _, ...aPage } = byId.get(a.id) ?? { channelId: '' };
    expect(aPage).toEqual(single.body);

    // Paged per channel: the limit, then the rest after each channel's lastSeq.
    const first = await feed(ws.owner, ws.id, {
      channels: [
        { channelId: a.id, after: 0 },
        { channelId: b.id, after: 2 },
      ],
      limit: 2,
    });
    const pages = new Map(first.body.data.map((p) => [p.channelId, p]));
    expect(pages.get(a.id)?.data.map((m) => m.seq)).toEqual([1, 2]);
    expect(pages.get(a.id)?.metadata).toEqual({ lastSeq: 2, hasMore: true });
    expect(pages.get(b.id)?.data.map((m) => m.seq)).toEqual([3]);
    expect(pages.get(b.id)?.metadata).toEqual({ lastSeq: 3, hasMore: false });
    const rest = await feed(ws.owner, ws.id, { channels: [{ channelId: a.id, after: 2 }], limit: 2 });
    expect(rest.body.data[0]?.data.map((m) => m.seq)).toEqual([3]);
    expect(rest.body.data[0]?.metadata).toEqual({ lastSeq: 3, hasMore: false });
  });

  it('sends nothing from channels the caller is not in, here or in a workspace they own', async () => {
    const secret = await makeChannel(ws.owner, ws, 'private');
    const unjoined = await makeChannel(ws.owner, ws, 'public');
    await restPost(ws.owner, ws, secret.id, '<p>secret plans</p>');
    await restPost(ws.owner, ws, unjoined.id, '<p>not joined</p>');
    const general = await restPost(ws.owner, ws, ws.general.id, '<p>for everyone</p>');
    // Bob is admin of a workspace of his own, with a channel of its own.
    const own = await makeWorkspace(t, 'Bob Co');
    const ownChannel = own.general;

    const asked = [
      { channelId: ws.general.id, after: general.seq - 1 },
      { channelId: secret.id, after: 0 },
      { channelId: unjoined.id, after: 0 },
      { channelId: ownChannel.id, after: 0 },
      { channelId: 'no-such-channel', after: 0 },
    ];
    const res = await feed(bob, ws.id, { channels: asked });
    expect(res.status).toBe(200);
    expect(res.body.data.map((p) => p.channelId)).toEqual([ws.general.id]);
    expect(res.body.data[0]?.data.map((m) => m.content)).toEqual(['<p>for everyone</p>']);
    expect(res.body.notMember.sort()).toEqual(
      [secret.id, unjoined.id, ownChannel.id, 'no-such-channel'].sort(),
    );
    expect(JSON.stringify(res.body)).not.toContain('secret plans');

    // Asking through another workspace's id (one the owner of it is in) reads nothing of this one.
    const crossed = await feed(own.owner, own.id, { channels: [{ channelId: secret.id, after: 0 }] });
    expect(crossed.status).toBe(200);
    expect(crossed.body).toEqual({ data: [], notMember: [secret.id], starred: [], starredComplete: true });
    // Not a member of the workspace at all.
    const stranger = await feed(own.owner, ws.id, { channels: [{ channelId: ws.general.id, after: 0 }] });
    expect(stranger.status).toBe(403);
    expect(stranger.body).toMatchObject({ message: 'You are not a member of this workspace' });
    const anonymous = await t.api().post(`/api/institutions/${ws.id}/messages/changes`, {
      channels: [{ channelId: ws.general.id, after: 0 }],
    });
    expect(anonymous.status).toBe(401);
  });

  it('refuses a malformed request with a sentence', async () => {
    const bad = async (body: unknown) => {
      const res = await feed(bob, ws.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      return (res.body as unknown as { message: string }).message;
    };
    expect(await bad({ channels: [] })).toContain('Name at least one channel');
    const twice = { channelId: ws.general.id, after: 0 };
    expect(await bad({ channels: [twice, twice] })).toContain('Name each channel once');
    const many = Array.from({ length: CHANGES_CHANNELS_MAX + 1 }, (_, i) => ({
      channelId: `c${i}`,
      after: 0,
    }));
    expect(await bad({ channels: many })).toContain(`at most ${CHANGES_CHANNELS_MAX} channels`);
    await bad({ channels: [{ channelId: ws.general.id, after: -1 }] });
    await bad({ channels: [{ channelId: ws.general.id, after: 1e300 }] });
    await bad({ channels: [{ channelId: ws.general.id, after: 0 }], limit: 100_000 });
    await bad({ channels: 'all' });
  });
});
