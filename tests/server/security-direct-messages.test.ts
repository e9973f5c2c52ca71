// Direct messages belong to their two people (spec §6): a workspace owner who is one of them cannot delete
// the other's messages, and someone who was blocked can no longer edit, react or pin there. Each case is
// the attack replayed over the socket by a stranger who created their own workspace.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, Message, MessagePage } from '../../schemas/protocol/index.ts';
import { channelsUrl, channelUrl, emitAck, makeTeam, type Person, type Team } from './channel-world.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import { connect, disconnectAll, messagesUrl, restPost } from './messaging-world.ts';

type AckError = { error: { message: string } };

describe.each(databases)('direct message rules on %s', (kind) => {
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

  /** A fresh direct message between the workspace's primary owner and a plain member. */
  async function directMessage(): Promise<Channel> {
    const res = await team.primaryOwner.api.post<{ channel: Channel }>(
      `${channelsUrl(team.ws)}/direct_messages`,
      {
        directMessageMemberId: team.member.memberId,
      },
    );
    if (res.status !== 201 && res.status !== 200) throw new Error(`direct message: ${res.status}`);
    return res.body.channel;
  }

  const ref = (dm: Channel) => ({ institutionId: team.ws.id, channelId: dm.id });

  async function stored(dm: Channel, messageId: string): Promise<Message | undefined> {
    const list = await team.member.api.get<MessagePage>(`${messagesUrl(team.ws, dm.id)}?page=1`);
    return list.body.data.find((m) => m.id === messageId);
  }

  it("refuses the workspace owner deleting the other person's message, which stays", async () => {
    const dm = await directMessage();
    const theirs = await restPost(team.member, team.ws, dm.id, '<p>only mine to delete</p>');
    const owner = await connect(t, team.primaryOwner.token);
    const refused = await emitAck<AckError>(owner, 'deleteMessage', { ...ref(dm), messageId: theirs.id });
    expect(refused.error.message).toBe('You cannot delete this message');
    const after = await stored(dm, theirs.id);
    expect(after?.deletedAt ?? null).toBeNull();
    expect(after?.content).toContain('only mine to delete');

    // Each person still deletes their own.
    const member = await connect(t, team.member.token);
    const own = await emitAck<Message>(member, 'deleteMessage', { ...ref(dm), messageId: theirs.id });
    expect(own.deletedAt).not.toBeNull();
  });

  it('refuses a blocked person editing, reacting and pinning, and lets them again once unblocked', async () => {
    const dm = await directMessage();
    const blocked: Person = team.member;
    const theirs = await restPost(blocked, team.ws, dm.id, '<p>before the block</p>');
    const ownerMessage = await restPost(team.primaryOwner, team.ws, dm.id, '<p>stop writing to me</p>');
    expect((await team.primaryOwner.api.put(`${channelUrl(team.ws, dm)}/block`)).status).toBe(200);

    const socket = await connect(t, blocked.token);
    const edit = await emitAck<AckError>(socket, 'editMessage', {
      ...ref(dm),
      messageId: theirs.id,
      content: '<p>rewritten after the block</p>',
    });
    expect(edit.error.message).toBe('You cannot message this person');
    const react = await emitAck<AckError>(socket, 'toggleReaction', {
      ...ref(dm),
      messageId: ownerMessage.id,
      opId: randomUUID(),
      emoji: '👎',
      reacted: true,
    });
    expect(react.error.message).toBe('You cannot message this person');
    const pin = await emitAck<AckError>(socket, 'togglePinMessage', {
      ...ref(dm),
      messageId: ownerMessage.id,
      opId: randomUUID(),
      pinned: true,
    });
    expect(pin.error.message).toBe('You cannot message this person');

    const untouchedMine = await stored(dm, theirs.id);
    expect(untouchedMine?.content).toContain('before the block');
    const untouchedTheirs = await stored(dm, ownerMessage.id);
    expect(untouchedTheirs?.reactions ?? []).toEqual([]);
    expect(untouchedTheirs?.isPinned).toBe(false);

    // The person who blocked is not limited, and unblocking gives the other person their rights back.
    const owner = await connect(t, team.primaryOwner.token);
    const ownerPin = await emitAck<Message>(owner, 'togglePinMessage', {
      ...ref(dm),
      messageId: theirs.id,
      opId: randomUUID(),
      pinned: true,
    });
    expect(ownerPin.isPinned).toBe(true);
    expect((await team.primaryOwner.api.put(`${channelUrl(team.ws, dm)}/unblock`)).status).toBe(200);
    const reactAgain = await emitAck<Message>(socket, 'toggleReaction', {
      ...ref(dm),
      messageId: ownerMessage.id,
      opId: randomUUID(),
      emoji: '👍',
      reacted: true,
    });
    expect(reactAgain.reactions.map((r) => r.emoji)).toEqual(['👍']);
  });
});
