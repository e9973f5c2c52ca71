// Asking to join a private channel never tells the asker its name: not in the answer, not in their list
// of requests, not in the live events, not in an error. Only once they are let in do they see it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelRequest } from '../../schemas/protocol/index.ts';
import { channelsUrl, channelUrl, channelWith, makeTeam } from './channel-world.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import { connect, disconnectAll, eventually } from './messaging-world.ts';

describe.each(databases)('join requests keep a private channel’s name on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterEach(() => disconnectAll());
  afterAll(async () => {
    await t?.close();
  });

  it('answers, lists, tells and refuses the requester without the name, then names it once they are in', async () => {
    const { ws, primaryOwner: owner, member: asker } = await makeTeam(t);
    const secret = await channelWith(owner, ws, 'private');
    const socket = await connect(t, asker.token);
    const heard: unknown[] = [];
    socket.onAny((_event: string, ...args: unknown[]) => heard.push(args));

    // The asker knows only the channel's id (from a link) and asks to join.
    const asked = await asker.api.post<{ request: ChannelRequest }>(`${channelUrl(ws, secret)}/requests`, {
      reason: 'let me in',
    });
    expect(asked.status).toBe(201);
    expect(asked.body.request.channelName).toBeNull();
    expect(JSON.stringify(asked.body)).not.toContain(secret.name);

    const twice = await asker.api.post(`${channelUrl(ws, secret)}/requests`, { reason: 'again' });
    expect(twice.status).toBe(409);
    expect(JSON.stringify(twice.body)).not.toContain(secret.name);

    const mine = await asker.api.get<{ data: ChannelRequest[] }>(`${channelsUrl(ws)}/requests/mine`);
    expect(mine.body.data.map((r) => r.channelName)).toEqual([null]);
    expect(JSON.stringify(mine.body)).not.toContain(secret.name);

    const peek = await asker.api.get(`${channelUrl(ws, secret)}/requests`);
    expect(peek.status).toBe(403);
    expect(JSON.stringify(peek.body)).not.toContain(secret.name);

    await eventually(() => heard.length > 0);
    expect(JSON.stringify(heard)).not.toContain(secret.name);

    // The owner sees the name; once approved, the asker is a member and sees it too.
    const listed = await owner.api.get<{ data: ChannelRequest[] }>(`${channelUrl(ws, secret)}/requests`);
    expect(listed.body.data.map((r) => r.channelName)).toEqual([secret.name]);
    const approved = await owner.api.put(`${channelUrl(ws, secret)}/requests/${asked.body.request.id}`, {
      status: 'approved',
    });
    expect(approved.status).toBe(200);
    const after = await asker.api.get<{ data: ChannelRequest[] }>(`${channelsUrl(ws)}/requests/mine`);
    expect(after.body.data.map((r) => r.channelName)).toEqual([secret.name]);
  });

  it('keeps the name from a requester who was turned down', async () => {
    const { ws, primaryOwner: owner, member: asker } = await makeTeam(t);
    const secret = await channelWith(owner, ws, 'private');
    const asked = await asker.api.post<{ request: ChannelRequest }>(`${channelUrl(ws, secret)}/requests`, {
      reason: 'let me in',
    });
    await owner.api.put(`${channelUrl(ws, secret)}/requests/${asked.body.request.id}`, {
      status: 'rejected',
    });
    const mine = await asker.api.get<{ data: ChannelRequest[] }>(`${channelsUrl(ws)}/requests/mine`);
    expect(mine.body.data.map((r) => [r.channelName, r.status])).toEqual([[null, 'rejected']]);
  });
});
