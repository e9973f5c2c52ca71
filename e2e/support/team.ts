// Issue 3 e2e set-up over the API: teammates who accept an invitation and carry a display name, and
// channels by name. The browser steps stay in the specs; this only builds the world they act in.
import { ApiFailure, type LanternServer } from './server.ts';

export interface Teammate {
  email: string;
  name: string;
  token: string;
  memberId: string;
}

interface MemberRow {
  id: string;
  email: string;
}

/** Invites `email` with the owner's token, signs them in, names them and joins the workspace. */
export async function addTeammate(
  server: LanternServer,
  workspaceId: string,
  ownerToken: string,
  email: string,
  name: string,
): Promise<Teammate> {
  await server.api('POST', `/api/institutions/${workspaceId}/invited-members`, ownerToken, {
    emails: [email],
  });
  const { token } = await server.signInApi(email);
  await server.api('PUT', '/api/users', token, { name });
  await server.api('POST', `/api/institutions/${workspaceId}/members`, token);
  const members = await server.api<{ data: MemberRow[] } | MemberRow[]>(
    'GET',
    `/api/institutions/${workspaceId}/members`,
    token,
  );
  const list = Array.isArray(members) ? members : members.data;
  const me = list.find((m) => m.email === email);
  if (!me) throw new Error(`${email} is not a member after joining`);
  return { email, name, token, memberId: me.id };
}

export async function createChannelApi(
  server: LanternServer,
  workspaceId: string,
  token: string,
  name: string,
  type: 'public' | 'private' = 'public',
): Promise<string> {
  const res = await server.api<{ channel?: { id: string }; id?: string }>(
    'POST',
    `/api/institutions/${workspaceId}/channels`,
    token,
    { name, type },
  );
  const id = res.channel?.id ?? res.id;
  if (!id) throw new Error(`no id for #${name}: ${JSON.stringify(res)}`);
  return id;
}

/** The id of a channel `token`'s person has joined, by name (a new workspace's #general, say). */
export async function joinedChannelId(
  server: LanternServer,
  workspaceId: string,
  token: string,
  name: string,
): Promise<string> {
  const joined = await server.api<{ channels: { id: string; name: string }[] }>(
    'GET',
    `/api/institutions/${workspaceId}/channels/joined`,
    token,
  );
  const channel = joined.channels.find((c) => c.name === name);
  if (!channel) throw new Error(`#${name} is not among the joined channels`);
  return channel.id;
}

/** Posts a paragraph of `text` to a channel as `token`'s person, through the REST API (not the UI). */
export async function postMessageApi(
  server: LanternServer,
  workspaceId: string,
  channelId: string,
  token: string,
  text: string,
): Promise<void> {
  await server.api('POST', `/api/institutions/${workspaceId}/channels/${channelId}/messages`, token, {
    content: `<p>${text}</p>`,
    genId: crypto.randomUUID(),
  });
}

/** Channels by name, created by `token`'s owner; returns their ids by name. */
export async function addChannelsOnly(
  server: LanternServer,
  workspaceId: string,
  token: string,
  names: string[],
): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const name of names) ids[name] = await createChannelApi(server, workspaceId, token, name);
  return ids;
}

const TEAM: { email: string; name: string; role: 'admin' | 'member' | 'guest' }[] = [
  { email: 'grace@example.com', name: 'Grace Hopper', role: 'admin' },
  { email: 'tomas@example.com', name: 'Tomas Berg', role: 'member' },
  { email: 'mira@example.com', name: 'Mira Okafor', role: 'member' },
  { email: 'linus@example.com', name: 'Linus Park', role: 'member' },
  { email: 'yuki@example.com', name: 'Yuki Tanaka', role: 'guest' },
];

/** Five teammates with names and roles; Grace joins the given channels and shows them on her profile. */
export async function seedTeam(
  server: LanternServer,
  workspaceId: string,
  ownerToken: string,
  graceChannels: string[] = [],
): Promise<Teammate[]> {
  const team: Teammate[] = [];
  for (const person of TEAM) {
    const mate = await addTeammate(server, workspaceId, ownerToken, person.email, person.name);
    if (person.role !== 'member') {
      // Screenshot dressing only: a server without the role route yet leaves everyone a member.
      await server
        .api('PUT', `/api/institutions/${workspaceId}/members/${mate.memberId}`, ownerToken, {
          role: person.role,
        })
        .catch((error: unknown) => {
          if (!(error instanceof ApiFailure && error.status === 404)) throw error;
        });
    }
    team.push(mate);
  }
  const grace = team[0];
  if (grace && graceChannels.length > 0) {
    for (const id of graceChannels) {
      await server.api('POST', `/api/institutions/${workspaceId}/channels/${id}/members`, grace.token);
    }
    await server.api('PUT', `/api/institutions/${workspaceId}/channels/profile-channels`, grace.token, {
      channels: graceChannels,
    });
  }
  return team;
}
