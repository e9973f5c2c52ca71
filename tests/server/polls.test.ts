// Polls over the socket: created once per genId/opId with canPost, voted on by single or multiple choice
// (a vote replaces the voter's earlier one), votes removed, closed only by the author or a manager, and a
// closed poll takes no more votes. Every change is a live result: newEditMessage to the channel, once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, Message } from '../../schemas/protocol/index.ts';
import { channelWith, emitAck, makeTeam, type Person, record, type Team } from './channel-world.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import { type Client, connect, disconnectAll, pause } from './messaging-world.ts';

type AckError = { error: { message: string } };
const QUIET_MS = 150;

describe.each(databases)('polls on %s', (kind) => {
  let t: TestServer;
  let team: Team;
  let room: Channel;
  let author: Client;
  let voter: Client;

  beforeAll(async () => {
    t = await startTestServer(kind);
    team = await makeTeam(t);
    room = await channelWith(team.primaryOwner, team.ws, 'public', [team.member, team.admin]);
    author = await joinedSocket(team.admin);
    voter = await joinedSocket(team.member);
  });
  afterAll(async () => {
    disconnectAll();
    await t?.close();
  });

  async function joinedSocket(who: Person): Promise<Client> {
    const socket = await connect(t, who.token);
    await emitAck(socket, 'joinChannel', { institutionId: team.ws.id, channelId: room.id });
    return socket;
  }

  const newPoll = (multiple: boolean, options = ['Tea', 'Coffee', 'Water']) => ({
    institutionId: team.ws.id,
    channelId: room.id,
    opId: randomUUID(),
    genId: randomUUID(),
    question: 'What to drink?',
    options,
    multiple,
  });
  const on = (poll: Message) => ({
    institutionId: team.ws.id,
    channelId: room.id,
    messageId: poll.id,
    opId: randomUUID(),
  });
  const votes = (m: Message) => m.poll?.options.map((o) => o.votes);

  it('creates a poll message once, however often the op is sent', async () => {
    const watcher = await joinedSocket(team.primaryOwner);
    const created = record<Message>(watcher, 'newMessage');
    const payload = newPoll(false);
    const poll = await emitAck<Message>(author, 'createPoll', payload);
    expect(poll.poll).toEqual({
      question: 'What to drink?',
      options: [
        { text: 'Tea', votes: 0, memberIds: [] },
        { text: 'Coffee', votes: 0, memberIds: [] },
        { text: 'Water', votes: 0, memberIds: [] },
      ],
      multiple: false,
      closedAt: null,
    });
    expect(poll.memberId).toBe(team.admin.memberId);
    expect(await emitAck<Message>(author, 'createPoll', payload)).toEqual(poll);
    await pause(QUIET_MS);
    expect(created.map((m) => m.id)).toEqual([poll.id]);
  });

  it('refuses a poll with fewer than two options or an empty question', async () => {
    const one = await emitAck<AckError>(author, 'createPoll', newPoll(false, ['Only']));
    expect(one.error.message).toContain('A poll needs at least 2 options');
    const blank = await emitAck<AckError>(author, 'createPoll', { ...newPoll(false), question: ' ' });
    expect(blank.error.message).toContain('Question cannot be empty');
    const outsider = await connect(t, team.guest.token);
    const refused = await emitAck<AckError>(outsider, 'createPoll', newPoll(false));
    expect(refused.error.message).toBe('You are not a member of this channel');
  });

  it('a single-choice vote takes one option and replaces the earlier one; removing it empties it', async () => {
    const poll = await emitAck<Message>(author, 'createPoll', newPoll(false));
    const two = await emitAck<AckError>(voter, 'voteOnPoll', { ...on(poll), optionIndexes: [0, 1] });
    expect(two.error.message).toBe('This poll allows only one choice');
    const outOfRange = await emitAck<AckError>(voter, 'voteOnPoll', { ...on(poll), optionIndexes: [3] });
    expect(outOfRange.error.message).toBe('No such option in this poll');

    const first = await emitAck<Message>(voter, 'voteOnPoll', { ...on(poll), optionIndexes: [1] });
    expect(votes(first)).toEqual([0, 1, 0]);
    expect(first.poll?.options[1]?.memberIds).toEqual([team.member.memberId]);
    const changed = await emitAck<Message>(voter, 'voteOnPoll', { ...on(poll), optionIndexes: [2] });
    expect(votes(changed)).toEqual([0, 0, 1]);
    const removed = await emitAck<Message>(voter, 'removeVoteOnPoll', on(poll));
    expect(votes(removed)).toEqual([0, 0, 0]);
  });

  it('a multiple-choice vote takes several options; each vote op counts once and is broadcast once', async () => {
    const poll = await emitAck<Message>(author, 'createPoll', newPoll(true));
    const watcher = await joinedSocket(team.primaryOwner);
    const edits = record<Message>(watcher, 'newEditMessage');
    const payload = { ...on(poll), optionIndexes: [0, 2] };
    const voted = await emitAck<Message>(voter, 'voteOnPoll', payload);
    expect(votes(voted)).toEqual([1, 0, 1]);
    expect(await emitAck<Message>(voter, 'voteOnPoll', payload)).toEqual(voted);
    const mine = await emitAck<Message>(author, 'voteOnPoll', { ...on(poll), optionIndexes: [2] });
    expect(votes(mine)).toEqual([1, 0, 2]);
    await pause(QUIET_MS);
    expect(edits.map(votes)).toEqual([
      [1, 0, 1],
      [1, 0, 2],
    ]);
  });

  it('only the author or a channel manager closes a poll, and a closed poll takes no votes', async () => {
    const poll = await emitAck<Message>(author, 'createPoll', newPoll(false));
    const notYours = await emitAck<AckError>(voter, 'closePoll', on(poll));
    expect(notYours.error.message).toBe('Only the author of the poll can close it');
    const closed = await emitAck<Message>(author, 'closePoll', on(poll));
    expect(closed.poll?.closedAt).toBeTruthy();
    const late = await emitAck<AckError>(voter, 'voteOnPoll', { ...on(poll), optionIndexes: [0] });
    expect(late.error.message).toBe('This poll is closed');
    const unvote = await emitAck<AckError>(voter, 'removeVoteOnPoll', on(poll));
    expect(unvote.error.message).toBe('This poll is closed');

    const another = await emitAck<Message>(author, 'createPoll', newPoll(false));
    const owner = await joinedSocket(team.primaryOwner);
    const byManager = await emitAck<Message>(owner, 'closePoll', on(another));
    expect(byManager.poll?.closedAt).toBeTruthy();

    // The workspace admin (the author above) holds no ownership role here: someone else's poll is not theirs
    // to close (spec §6, decision 0080).
    const members = await emitAck<Message>(voter, 'createPoll', newPoll(false));
    const byWorkspaceAdmin = await emitAck<AckError>(author, 'closePoll', on(members));
    expect(byWorkspaceAdmin.error.message).toBe('Only the author of the poll can close it');
  });

  it('refuses votes on a message that is not a poll', async () => {
    const plain = await emitAck<Message>(author, 'postMessage', {
      institutionId: team.ws.id,
      channelId: room.id,
      content: '<p>not a poll</p>',
      genId: randomUUID(),
    });
    const refused = await emitAck<AckError>(voter, 'voteOnPoll', { ...on(plain), optionIndexes: [0] });
    expect(refused.error.message).toBe('This message is not a poll');
  });
});
