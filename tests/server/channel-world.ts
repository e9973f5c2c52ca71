// Factories for the channel role, membership and request tests: a workspace with one person per workspace
// role (roles other than member set directly in the database), an outsider, someone from another
// workspace, paths, and small socket helpers.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type {
  Channel,
  ChannelMemberEntry,
  ChannelRole,
  JoinedChannels,
  Message,
  WorkspaceRole,
} from '../../schemas/protocol/index.ts';
import { members } from '../../server/db/schema.ts';
import type { TestServer, TestUser } from './harness.ts';
import { addMember, type Client, makeChannel, makeWorkspace, type Workspace } from './messaging-world.ts';

export interface Person extends TestUser {
  /** Workspace member id in the team's workspace (the foreign person's is in their own). */
  memberId: string;
}

export interface Team {
  ws: Workspace;
  primaryOwner: Person;
  admin: Person;
  member: Person;
  guest: Person;
  /** Signed in, in no workspace. */
  outsider: TestUser;
  /** Primary owner of another workspace. */
  foreigner: Person;
  foreignWs: Workspace;
}

export async function memberIdOf(t: TestServer, institutionId: string, userId: string): Promise<string> {
  const [row] = await t.ctx.db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.institutionId, institutionId), eq(members.userId, userId)));
  if (!row) throw new Error('not a member');
  return row.id;
}

/** Sets a workspace role directly (the role route belongs to the workspace member work). */
export async function setWorkspaceRole(t: TestServer, ws: Workspace, who: TestUser, role: WorkspaceRole) {
  await t.ctx.db
    .update(members)
    .set({ role })
    .where(and(eq(members.institutionId, ws.id), eq(members.userId, who.user.id)));
}

async function person(t: TestServer, ws: Workspace, role: WorkspaceRole): Promise<Person> {
  const user = await addMember(t, ws);
  if (role !== 'member') await setWorkspaceRole(t, ws, user, role);
  return { ...user, memberId: await memberIdOf(t, ws.id, user.user.id) };
}

export async function makeTeam(t: TestServer): Promise<Team> {
  const ws = await makeWorkspace(t);
  const foreignWs = await makeWorkspace(t, 'Elsewhere');
  return {
    ws,
    primaryOwner: { ...ws.owner, memberId: await memberIdOf(t, ws.id, ws.owner.user.id) },
    admin: await person(t, ws, 'admin'),
    member: await person(t, ws, 'member'),
    guest: await person(t, ws, 'guest'),
    outsider: await t.signUp(),
    foreigner: { ...foreignWs.owner, memberId: await memberIdOf(t, foreignWs.id, foreignWs.owner.user.id) },
    foreignWs,
  };
}

export const channelsUrl = (ws: Workspace) => `/api/institutions/${ws.id}/channels`;
export const channelUrl = (ws: Workspace, channel: Pick<Channel, 'id'>) => `${channelsUrl(ws)}/${channel.id}`;

/** A channel made by `by` (who holds its ownership role), with the given people added. */
export async function channelWith(
  by: TestUser,
  ws: Workspace,
  type: 'public' | 'private',
  people: Person[] = [],
): Promise<Channel> {
  const channel = await makeChannel(by, ws, type);
  if (people.length > 0) {
    const res = await by.api.post(`${channelUrl(ws, channel)}/members/add`, {
      members: people.map((p) => p.memberId),
    });
    if (res.status !== 200) throw new Error(`add members: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return channel;
}

export async function rolesOf(by: TestUser, ws: Workspace, channel: Channel): Promise<ChannelRole[]> {
  const res = await by.api.get<{ data: ChannelRole[] }>(`${channelUrl(ws, channel)}/roles`);
  if (res.status !== 200) throw new Error(`roles: ${res.status}`);
  return res.body.data;
}

export async function roleNamed(by: TestUser, ws: Workspace, channel: Channel, name: string) {
  const role = (await rolesOf(by, ws, channel)).find((r) => r.name === name);
  if (!role) throw new Error(`no role ${name}`);
  return role;
}

export async function membersOf(by: TestUser, ws: Workspace, channel: Channel, roleId?: string) {
  const query = roleId ? `?role=${roleId}` : '';
  const res = await by.api.get<{ data: ChannelMemberEntry[] }>(`${channelUrl(ws, channel)}/members${query}`);
  if (res.status !== 200) throw new Error(`members: ${res.status}`);
  return res.body.data;
}

export async function joined(by: TestUser, ws: Workspace): Promise<JoinedChannels> {
  return (await by.api.get<JoinedChannels>(`${channelsUrl(ws)}/joined`)).body;
}

/** Posts through REST with a fresh genId; returns the raw response so refusals can be read. */
export function restPostRaw(
  by: TestUser,
  ws: Workspace,
  channel: Channel,
  body: Record<string, unknown> = {},
) {
  return by.api.post<Message & { message?: string }>(`${channelUrl(ws, channel)}/messages`, {
    content: '<p>hello</p>',
    genId: randomUUID(),
    ...body,
  });
}

/** Emits with an acknowledgement and resolves with the reply. */
export function emitAck<T>(socket: Client, event: string, payload: unknown): Promise<T> {
  return (socket.timeout(5_000) as unknown as { emitWithAck(e: string, p: unknown): Promise<T> }).emitWithAck(
    event,
    payload,
  );
}

/** Records every event of one name a socket receives. */
export function record<T>(socket: Client, event: string): T[] {
  const seen: T[] = [];
  (socket as unknown as { on(e: string, f: (v: T) => void): void }).on(event, (v: T) => seen.push(v));
  return seen;
}
