// A member removed from a channel hears nothing more from it, even when their socket is still in the
// channel's room: the leave published through Redis was lost on their node, or a join that was checked
// before the removal landed after it. Both are replayed by putting the socket back in the room.
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rooms } from '../../server/context.ts';
import { channelUrl, channelWith, emitAck, makeTeam } from './channel-world.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import { collect, connect, disconnectAll, eventually, pause, restPost } from './messaging-world.ts';

/** Long enough for a broadcast that was going to arrive to arrive. */
const QUIET_MS = 300;

describe.each(databases)('channel delivery after removal on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterEach(() => disconnectAll());
  afterAll(async () => {
    await t?.close();
  });

  /** A channel with a member and an admin, each with a socket in its room, and what each hears. */
  async function memberAndAdminListening() {
    const { ws, primaryOwner: owner, member, admin } = await makeTeam(t);
    const channel = await channelWith(owner, ws, 'public', [member, admin]);
    const [memberSocket, adminSocket] = await Promise.all([
      connect(t, member.token),
      connect(t, admin.token),
    ]);
    for (const s of [memberSocket, adminSocket])
      await emitAck(s, 'joinChannel', { institutionId: ws.id, channelId: channel.id });
    return {
      ws,
      owner,
      member,
      channel,
      memberHeard: collect(memberSocket, 'newMessage'),
      adminHeard: collect(adminSocket, 'newMessage'),
    };
  }

  it('delivers nothing to a removed member whose socket is still in the room', async () => {
    const { ws, primaryOwner: owner, member } = await makeTeam(t);
    const channel = await channelWith(owner, ws, 'public', [member]);
    const socket = await connect(t, member.token);
    await emitAck(socket, 'joinChannel', { institutionId: ws.id, channelId: channel.id });
    const heard = collect(socket, 'newMessage');
    await restPost(owner, ws, channel.id, '<p>before</p>');
    await eventually(() => heard.length === 1);

    const removed = await owner.api.delete(`${channelUrl(ws, channel)}/members/remove`, {
      members: [member.memberId],
    });
    expect(removed.status).toBe(200);
    // The leave never reached this node: the socket is put back in the room.
    t.server.io.in(rooms.user(member.user.id)).socketsJoin(rooms.channel(channel.id));
    await eventually(() =>
      [...(t.server.io.of('/').adapter.rooms.get(rooms.channel(channel.id)) ?? [])].includes(socket.id ?? ''),
    );

    await restPost(owner, ws, channel.id, '<p>after the removal</p>');
    await restPost(owner, ws, channel.id, '<p>and again</p>');
    await pause(QUIET_MS);
    expect(heard.map((m) => m.content)).toEqual(['<p>before</p>']);
  });

  it('still delivers to members who stay, on the same channel, in order', async () => {
    const { ws, owner, member, channel, memberHeard, adminHeard } = await memberAndAdminListening();

    await owner.api.delete(`${channelUrl(ws, channel)}/members/remove`, { members: [member.memberId] });
    t.server.io.in(rooms.user(member.user.id)).socketsJoin(rooms.channel(channel.id));
    const texts = ['one', 'two', 'three', 'four'];
    for (const text of texts) await restPost(owner, ws, channel.id, `<p>${text}</p>`);
    await eventually(() => adminHeard.length === texts.length);
    expect(adminHeard.map((m) => m.content)).toEqual(texts.map((x) => `<p>${x}</p>`));
    await pause(QUIET_MS);
    expect(memberHeard).toEqual([]);
  });

  it('within a second stops delivering to a member removed by a write no code of this server saw', async () => {
    const { ws, owner, member, channel, memberHeard, adminHeard } = await memberAndAdminListening();
    await restPost(owner, ws, channel.id, '<p>before</p>');
    await eventually(() => memberHeard.length === 1 && adminHeard.length === 1);

    // Another node's removal, or an operator's SQL: no leave, no event, only the database knows.
    await t.ctx.db.execute(
      sql`DELETE FROM channel_members WHERE channel_id = ${channel.id} AND member_id = ${member.memberId}`,
    );
    // The member set read here is trusted for at most a second, then checked against the database.
    await pause(1_100);
    await restPost(owner, ws, channel.id, '<p>after</p>');
    await eventually(() => adminHeard.length === 2);
    await pause(QUIET_MS);
    expect(memberHeard.map((m) => m.content)).toEqual(['<p>before</p>']);
  });
});
