// The signed-in user's profile and sessions, and what their sockets see when memberships change.
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type {
  Institution,
  Member,
  ServerToClientEvents,
  User,
  UserSession,
} from '../../schemas/protocol/index.ts';
import { databases, startTestServer, type TestServer, uniqueEmail } from './harness.ts';

describe.each(databases)('users and sessions on %s', (kind) => {
  let t: TestServer;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function openSocket(token: string): Promise<Socket<ServerToClientEvents>> {
    const socket: Socket<ServerToClientEvents> = connect(t.url, {
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
    });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  }

  const nextEvent = <E extends keyof ServerToClientEvents>(socket: Socket<ServerToClientEvents>, event: E) =>
    new Promise<Parameters<ServerToClientEvents[E]>[0]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${event} within 5 s`)), 5000);
      socket.once(
        event as 'refresh',
        ((payload: Parameters<ServerToClientEvents[E]>[0]) => {
          clearTimeout(timer);
          resolve(payload);
        }) as never,
      );
    });

  it('renames the user and sets a picture, refusing an empty name', async () => {
    const { api } = await t.signUp();
    const res = await api.put<User>('/api/users', {
      name: '  Ada Lovelace ',
      profileImage: 'https://x.test/a.png',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Ada Lovelace', profileImage: 'https://x.test/a.png' });
    expect((await api.get<User>('/api/users')).body.name).toBe('Ada Lovelace');

    const empty = await api.put('/api/users', { name: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Name cannot be empty');
    expect((await api.put('/api/users', {})).status).toBe(400);
  });

  it('lists the live sessions of the user, marks the current one, and pings it', async () => {
    const email = uniqueEmail();
    const first = await t.signUp(email);
    const second = await t.signUp(email);
    const before = await second.api.get<{ data: UserSession[] }>('/api/users/sessions');
    expect(before.status).toBe(200);
    expect(before.body.data).toHaveLength(2);
    expect(before.body.data.filter((s) => s.current)).toHaveLength(1);

    expect((await first.api.put('/api/users/sessions/ping')).status).toBe(200);
    await first.api.put('/api/users/logout');
    const after = await second.api.get<{ data: UserSession[] }>('/api/users/sessions');
    expect(after.body.data).toHaveLength(1);
    expect(after.body.data[0]?.current).toBe(true);
  });

  it('ends only the logged-out session’s sockets; the same person on another device stays connected', async () => {
    const email = uniqueEmail();
    const phone = await t.signUp(email);
    const laptop = await t.signUp(email);
    const phoneSocket = await openSocket(phone.token);
    const laptopSocket = await openSocket(laptop.token);
    const closed = new Promise<string>((resolve) => phoneSocket.once('disconnect', resolve));

    await phone.api.put('/api/users/logout');
    expect(await closed).toBe('io server disconnect');
    expect(laptopSocket.connected).toBe(true);
  });

  it('shows a member online while they have a socket open', async () => {
    const owner = await t.signUp();
    const created = await owner.api.post<{ institution: Institution }>('/api/institutions', {
      name: 'Online',
    });
    const id = created.body.institution.id;
    const before = await owner.api.get<{ data: Member[] }>(`/api/institutions/${id}/members`);
    expect(before.body.data[0]?.user.isOnline).toBe(false);

    await openSocket(owner.token);
    const after = await owner.api.get<{ data: Member[] }>(`/api/institutions/${id}/members`);
    expect(after.body.data[0]?.user.isOnline).toBe(true);
  });

  it('tells the other person’s sockets to reload joined channels when a direct message opens', async () => {
    const owner = await t.signUp();
    const created = await owner.api.post<{ institution: Institution }>('/api/institutions', {
      name: 'Refresh',
    });
    const id = created.body.institution.id;
    const peer = await t.signUp();
    await owner.api.post(`/api/institutions/${id}/invited-members`, { emails: [peer.user.email] });
    const accepted = await peer.api.post<{ member: Member }>(`/api/institutions/${id}/members`);
    const peerSocket = await openSocket(peer.token);

    const refresh = nextEvent(peerSocket, 'refresh');
    await owner.api.post(`/api/institutions/${id}/channels/direct_messages`, {
      directMessageMemberId: accepted.body.member.id,
    });
    expect(await refresh).toEqual({ value: 'joinedChannels' });
  });

  it('tells the members of a deleted channel to reload joined channels', async () => {
    const owner = await t.signUp();
    const created = await owner.api.post<{ institution: Institution }>('/api/institutions', {
      name: 'Deleted',
    });
    const id = created.body.institution.id;
    const peer = await t.signUp();
    await owner.api.post(`/api/institutions/${id}/invited-members`, { emails: [peer.user.email] });
    await peer.api.post(`/api/institutions/${id}/members`);
    const channel = await owner.api.post<{ channel: { id: string } }>(`/api/institutions/${id}/channels`, {
      name: 'doomed',
    });
    await peer.api.post(`/api/institutions/${id}/channels/${channel.body.channel.id}/members`);
    const peerSocket = await openSocket(peer.token);

    const refresh = nextEvent(peerSocket, 'refresh');
    expect(
      (await owner.api.delete(`/api/institutions/${id}/channels/${channel.body.channel.id}`)).status,
    ).toBe(200);
    expect(await refresh).toEqual({ value: 'joinedChannels' });
  });

  it('refuses a socket without a valid token', async () => {
    const socket = connect(t.url, {
      auth: { token: 'nope' },
      transports: ['websocket'],
      reconnection: false,
    });
    sockets.push(socket);
    const err = await new Promise<Error>((resolve) => socket.once('connect_error', resolve));
    expect(err.message).toBe('session invalid');
  });
});
