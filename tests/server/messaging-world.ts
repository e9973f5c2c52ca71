// Small factories for the messaging tests: a workspace with its owner and #general, members invited into
// it, channels, socket clients, and posts. Everything goes through the real API and socket.
import { randomUUID } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import type { z } from 'zod';
import type {
  Channel,
  ClientToServerEvents,
  channelWithMembership,
  createInstitutionResponse,
  FileEntity,
  JoinedChannels,
  Message,
  ServerToClientEvents,
} from '../../schemas/protocol/index.ts';
import type { TestServer, TestUser } from './harness.ts';

type CreateInstitutionResponse = z.infer<typeof createInstitutionResponse>;
type ChannelWithMembership = z.infer<typeof channelWithMembership>;

export type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface Workspace {
  id: string;
  owner: TestUser;
  general: Channel;
}

export async function makeWorkspace(t: TestServer, name = 'Acme'): Promise<Workspace> {
  const owner = await t.signUp();
  const created = await owner.api.post<CreateInstitutionResponse>('/api/institutions', { name });
  if (created.status !== 201) throw new Error(`create workspace: ${created.status}`);
  const id = created.body.institution.id;
  const joined = await owner.api.get<JoinedChannels>(`/api/institutions/${id}/channels/joined`);
  const general = joined.body.channels.find((c) => c.isDefault);
  if (!general) throw new Error('workspace has no default channel');
  return { id, owner, general };
}

/** A new user invited by the owner who accepts: a plain member, in #general. */
export async function addMember(t: TestServer, ws: Workspace): Promise<TestUser> {
  const person = await t.signUp();
  await ws.owner.api.post(`/api/institutions/${ws.id}/invited-members`, { emails: [person.user.email] });
  const accepted = await person.api.post(`/api/institutions/${ws.id}/members`);
  if (accepted.status !== 200) throw new Error(`accept invitation: ${accepted.status}`);
  return person;
}

export async function makeChannel(
  by: TestUser,
  ws: Workspace,
  type: 'public' | 'private' = 'public',
): Promise<Channel> {
  const res = await by.api.post<ChannelWithMembership>(`/api/institutions/${ws.id}/channels`, {
    name: `room-${randomUUID().slice(0, 8)}`,
    type,
  });
  if (res.status !== 201) throw new Error(`create channel: ${res.status}`);
  return res.body.channel;
}

export const messagesUrl = (ws: Workspace, channelId: string) =>
  `/api/institutions/${ws.id}/channels/${channelId}/messages`;

/** Posts through REST; resolves with the stored message. */
export async function restPost(by: TestUser, ws: Workspace, channelId: string, content = '<p>hello</p>') {
  const res = await by.api.post<Message>(messagesUrl(ws, channelId), { content, genId: randomUUID() });
  if (res.status !== 201) throw new Error(`post: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Sends a message carrying these registered files, as the composer does: shared with the channel from now on. */
export async function postFiles(
  by: TestUser,
  ws: Workspace,
  channelId: string,
  files: readonly Pick<FileEntity, 'id' | 'fileName' | 'fileType' | 'fileSize' | 'url'>[],
) {
  const attachments = files.map(({ id, fileName, fileType, fileSize, url }) => ({
    id,
    fileName,
    fileType,
    fileSize,
    url,
  }));
  const res = await by.api.post<Message>(messagesUrl(ws, channelId), {
    content: '<p>here</p>',
    attachments,
    genId: randomUUID(),
  });
  if (res.status !== 201) throw new Error(`post with files: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const openSockets = new Set<Client>();

export function connect(t: TestServer, token: string | undefined): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket: Client = io(t.url, {
      transports: ['websocket'],
      auth: token === undefined ? {} : { token },
      forceNew: true,
      reconnection: false,
    });
    openSockets.add(socket);
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => reject(err));
  });
}

export function disconnectAll(): void {
  for (const s of openSockets) s.disconnect();
  openSockets.clear();
}

/** Collects every event of one kind a client receives. */
export function collect<E extends 'newMessage' | 'newEditMessage' | 'newDeleteMessage'>(
  socket: Client,
  event: E,
) {
  const seen: Message[] = [];
  socket.on(event as 'newMessage', (m: Message) => seen.push(m));
  return seen;
}

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `check` holds (polling), or fails after `ms`. */
export async function eventually(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await pause(20);
  }
}
