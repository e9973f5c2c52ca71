// Visits: opening a profile, a channel or a group is recorded for metrics, but only by members of the
// workspace and only for what they may see; anything else gets an error acknowledgement and no record.
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Ack, Group } from '../../schemas/protocol/index.ts';
import { visits } from '../../server/db/schema.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import { type Client, connect, disconnectAll, makeChannel } from './messaging-world.ts';
import { makeTeam, type Team } from './workspace-world.ts';

type Visit = 'visitMember' | 'visitChannel' | 'visitGroup';

describe.each(databases)('visits on %s', (kind) => {
  let t: TestServer;
  let team: Team;
  let group: Group;
  beforeAll(async () => {
    t = await startTestServer(kind);
    team = await makeTeam(t);
    const res = await team.admin.api.post<{ group: Group }>(`/api/institutions/${team.ws.id}/groups`, {
      name: 'Support',
    });
    group = res.body.group;
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(() => disconnectAll());

  function send(socket: Client, event: Visit, payload: unknown): Promise<Ack<{ ok: true }>> {
    return new Promise((resolve) => {
      (socket.emit as (e: string, p: unknown, ack: (r: Ack<{ ok: true }>) => void) => void)(
        event,
        payload,
        resolve,
      );
    });
  }

  const recorded = async (targetId: string) =>
    t.ctx.db
      .select()
      .from(visits)
      .where(and(eq(visits.institutionId, team.ws.id), eq(visits.targetId, targetId)));

  it('records a member visiting a profile, a public channel and a group', async () => {
    const socket = await connect(t, team.guest.token);
    const room = await makeChannel(team.owner, team.ws);
    expect(
      await send(socket, 'visitMember', { institutionId: team.ws.id, memberId: team.admin.memberId }),
    ).toEqual({
      ok: true,
    });
    expect(await send(socket, 'visitChannel', { institutionId: team.ws.id, channelId: room.id })).toEqual({
      ok: true,
    });
    expect(await send(socket, 'visitGroup', { institutionId: team.ws.id, groupId: group.id })).toEqual({
      ok: true,
    });

    expect(await recorded(team.admin.memberId)).toEqual([
      expect.objectContaining({ visitorMemberId: team.guest.memberId, targetType: 'member' }),
    ]);
    expect(await recorded(room.id)).toEqual([
      expect.objectContaining({ visitorMemberId: team.guest.memberId, targetType: 'channel' }),
    ]);
    expect((await recorded(group.id)).filter((v) => v.visitorMemberId === team.guest.memberId)).toHaveLength(
      1,
    );
  });

  it('refuses a private channel the visitor is not in, recording nothing', async () => {
    const secret = await makeChannel(team.owner, team.ws, 'private');
    const socket = await connect(t, team.member.token);
    const ack = await send(socket, 'visitChannel', { institutionId: team.ws.id, channelId: secret.id });
    expect(ack).toEqual({ error: { message: 'Channel not found' } });
    expect(await recorded(secret.id)).toEqual([]);

    const ownerSocket = await connect(t, team.owner.token);
    expect(
      await send(ownerSocket, 'visitChannel', { institutionId: team.ws.id, channelId: secret.id }),
    ).toEqual({
      ok: true,
    });
  });

  it('refuses people outside the workspace and ids from another workspace', async () => {
    const outsider = await connect(t, team.outsider.token);
    const stranger = await connect(t, team.stranger.token);
    const cases: [Client, Visit, object][] = [
      [outsider, 'visitMember', { institutionId: team.ws.id, memberId: team.admin.memberId }],
      [outsider, 'visitChannel', { institutionId: team.ws.id, channelId: team.ws.general.id }],
      [outsider, 'visitGroup', { institutionId: team.ws.id, groupId: group.id }],
      [stranger, 'visitMember', { institutionId: team.ws.id, memberId: team.admin.memberId }],
      [stranger, 'visitMember', { institutionId: team.strangerWs.id, memberId: team.admin.memberId }],
      [stranger, 'visitChannel', { institutionId: team.strangerWs.id, channelId: team.ws.general.id }],
      [stranger, 'visitGroup', { institutionId: team.strangerWs.id, groupId: group.id }],
    ];
    for (const [socket, event, payload] of cases) {
      const ack = await send(socket, event, payload);
      expect(ack, `${event} ${JSON.stringify(payload)}`).toEqual({ error: { message: expect.any(String) } });
    }
    const strays = await t.ctx.db
      .select()
      .from(visits)
      .where(eq(visits.visitorMemberId, team.stranger.memberId));
    expect(strays).toEqual([]);
  });

  it('answers malformed payloads with an error acknowledgement', async () => {
    const socket = await connect(t, team.member.token);
    for (const payload of [
      undefined,
      {},
      { institutionId: team.ws.id },
      { institutionId: 5, memberId: 'x' },
    ]) {
      const ack = await send(socket, 'visitMember', payload);
      expect(ack).toEqual({ error: { message: expect.any(String) } });
    }
    // The connection carries on.
    expect(await send(socket, 'visitGroup', { institutionId: team.ws.id, groupId: group.id })).toEqual({
      ok: true,
    });
  });
});
