// Factories for workspace tests: people in each workspace role (made through the real role route), their
// member ids, and a second workspace whose people and ids must never reach the first.
import type { Member, WorkspaceRole } from '../../schemas/protocol/index.ts';
import type { TestServer, TestUser } from './harness.ts';
import { addMember, makeWorkspace, type Workspace } from './messaging-world.ts';

export interface Person extends TestUser {
  memberId: string;
}

/** The member id of a person in a workspace, read from the directory. */
export async function memberIdOf(ws: Workspace, who: TestUser): Promise<string> {
  const res = await ws.owner.api.get<{ data: Member[] }>(`/api/institutions/${ws.id}/members`);
  const found = res.body.data.find((m) => m.user.id === who.user.id);
  if (!found) throw new Error(`${who.user.email} is not in workspace ${ws.id}`);
  return found.id;
}

/** A new person in the workspace with the given role, set by the primary owner. */
export async function addPerson(
  t: TestServer,
  ws: Workspace,
  role: WorkspaceRole = 'member',
): Promise<Person> {
  const person = await addMember(t, ws);
  const memberId = await memberIdOf(ws, person);
  if (role !== 'member') {
    const res = await ws.owner.api.put(`/api/institutions/${ws.id}/members/${memberId}`, { role });
    if (res.status !== 200) throw new Error(`set role ${role}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return { ...person, memberId };
}

export interface Team {
  ws: Workspace;
  primaryOwner: Person;
  owner: Person;
  admin: Person;
  member: Person;
  guest: Person;
  /** Signed in, in no workspace. */
  outsider: TestUser;
  /** Primary owner of another workspace. */
  stranger: Person;
  strangerWs: Workspace;
}

/** One workspace with a person in every role, a signed-in outsider, and someone from another workspace. */
export async function makeTeam(t: TestServer): Promise<Team> {
  const ws = await makeWorkspace(t);
  const primaryOwner = { ...ws.owner, memberId: await memberIdOf(ws, ws.owner) };
  const strangerWs = await makeWorkspace(t, 'Elsewhere');
  return {
    ws,
    primaryOwner,
    owner: await addPerson(t, ws, 'owner'),
    admin: await addPerson(t, ws, 'admin'),
    member: await addPerson(t, ws, 'member'),
    guest: await addPerson(t, ws, 'guest'),
    outsider: await t.signUp(),
    stranger: { ...strangerWs.owner, memberId: await memberIdOf(strangerWs, strangerWs.owner) },
    strangerWs,
  };
}
