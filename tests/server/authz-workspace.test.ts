// Authorization matrix for the workspace routes of issue 3 (sections, groups, member roles, profiles,
// leaving): every route × every kind of caller → the status they get. Then every route that takes an id,
// called by someone of another workspace through their own workspace with our ids → 404, never our data.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, Section } from '../../schemas/protocol/index.ts';
import { type ApiResponse, databases, startTestServer, type TestServer, type TestUser } from './harness.ts';
import { addPerson, makeTeam, type Team } from './workspace-world.ts';

const CALLERS = ['primary_owner', 'admin', 'member', 'guest', 'non-member', 'other workspace'] as const;
type Caller = (typeof CALLERS)[number];

interface RouteCase {
  route: string;
  /** Makes the request as `who`; `fixture` gives what the route needs (made fresh when it is consumed). */
  call: (who: TestUser, f: Fixtures) => Promise<ApiResponse<unknown>>;
  expected: Record<Caller, number>;
  /** The caller is a fresh person of that role (the request changes who they are, e.g. leaving). */
  freshCaller?: boolean;
}

interface Fixtures {
  team: Team;
  base: string;
  /** A section of the primary owner. */
  section(): Promise<Section>;
  /** A group of the workspace. */
  group(): Promise<Group>;
}

/** Everyone in the workspace gets `inside`; non-members and other workspaces' people get 403. */
const forMembers = (inside: number): Record<Caller, number> => ({
  primary_owner: inside,
  admin: inside,
  member: inside,
  guest: inside,
  'non-member': 403,
  'other workspace': 403,
});
/** Workspace admins get `ok`; members and guests are refused. */
const forAdmins = (ok: number): Record<Caller, number> => ({
  ...forMembers(403),
  primary_owner: ok,
  admin: ok,
});
/** Only the owner of a per-person thing (the primary owner's section) finds it; others get 404. */
const forPrimaryOwnersOwn = (ok: number): Record<Caller, number> => ({
  ...forMembers(404),
  primary_owner: ok,
});

const ROUTES: RouteCase[] = [
  {
    route: 'GET channels/sections',
    call: (w, f) => w.api.get(`${f.base}/channels/sections`),
    expected: forMembers(200),
  },
  {
    route: 'POST channels/sections',
    call: (w, f) => w.api.post(`${f.base}/channels/sections`, { name: 'Mine' }),
    expected: forMembers(201),
  },
  {
    route: 'PUT channels/sections',
    call: (w, f) => w.api.put(`${f.base}/channels/sections`, { sections: [] }),
    expected: forMembers(200),
  },
  {
    route: 'PUT channels/sections/reorder',
    call: async (w, f) =>
      w.api.put(`${f.base}/channels/sections/reorder`, { sectionIds: [(await f.section()).id] }),
    expected: forPrimaryOwnersOwn(200),
  },
  {
    route: 'PUT channels/sections/:sectionId',
    call: async (w, f) =>
      w.api.put(`${f.base}/channels/sections/${(await f.section()).id}`, { name: 'Renamed' }),
    expected: forPrimaryOwnersOwn(200),
  },
  {
    route: 'DELETE channels/sections/:sectionId',
    call: async (w, f) => w.api.delete(`${f.base}/channels/sections/${(await f.section()).id}`),
    expected: forPrimaryOwnersOwn(200),
  },
  { route: 'GET groups', call: (w, f) => w.api.get(`${f.base}/groups`), expected: forMembers(200) },
  {
    route: 'POST groups',
    call: (w, f) => w.api.post(`${f.base}/groups`, { name: `Group ${randomUUID()}` }),
    expected: forAdmins(201),
  },
  {
    route: 'PUT groups/:groupId',
    call: async (w, f) =>
      w.api.put(`${f.base}/groups/${(await f.group()).id}`, { name: `Group ${randomUUID()}` }),
    expected: forAdmins(200),
  },
  {
    route: 'DELETE groups/:groupId',
    call: async (w, f) => w.api.delete(`${f.base}/groups/${(await f.group()).id}`),
    expected: forAdmins(200),
  },
  {
    route: 'PUT groups/:groupId/emails',
    call: async (w, f) =>
      w.api.put(`${f.base}/groups/${(await f.group()).id}/emails`, {
        emails: [f.team.member.user.email],
        action: 'add',
      }),
    expected: forAdmins(200),
  },
  {
    route: 'GET members/:memberId',
    call: (w, f) => w.api.get(`${f.base}/members/${f.team.member.memberId}`),
    expected: forMembers(200),
  },
  {
    route: 'PUT members/:memberId',
    call: (w, f) => w.api.put(`${f.base}/members/${f.team.member.memberId}`, { role: 'member' }),
    expected: forAdmins(200),
  },
  {
    route: 'PUT members/bulk',
    call: (w, f) =>
      w.api.put(`${f.base}/members/bulk`, {
        memberIds: [f.team.member.memberId],
        update: { role: 'member' },
      }),
    expected: forAdmins(200),
  },
  {
    route: 'DELETE members/me',
    call: (w, f) => w.api.delete(`${f.base}/members/me`),
    expected: { ...forMembers(200), primary_owner: 403 },
    freshCaller: true,
  },
];

describe.each(databases)('workspace authorization matrix on %s', (kind) => {
  let t: TestServer;
  let team: Team;
  let fixtures: Fixtures;
  beforeAll(async () => {
    t = await startTestServer(kind);
    team = await makeTeam(t);
    const base = `/api/institutions/${team.ws.id}`;
    fixtures = {
      team,
      base,
      async section() {
        const res = await team.primaryOwner.api.post<{ section: Section }>(`${base}/channels/sections`, {
          name: 'Fixture',
        });
        if (res.status !== 201) throw new Error(`section fixture: ${res.status}`);
        return res.body.section;
      },
      async group() {
        const res = await team.admin.api.post<{ group: Group }>(`${base}/groups`, {
          name: `Fixture ${randomUUID()}`,
        });
        if (res.status !== 201) throw new Error(`group fixture: ${res.status}`);
        return res.body.group;
      },
    };
  });
  afterAll(async () => {
    await t?.close();
  });

  async function caller(who: Caller, fresh: boolean): Promise<TestUser> {
    switch (who) {
      case 'primary_owner':
        return team.primaryOwner;
      case 'admin':
      case 'member':
      case 'guest':
        return fresh ? addPerson(t, team.ws, who) : team[who];
      case 'non-member':
        return team.outsider;
      case 'other workspace':
        return team.stranger;
    }
  }

  const cases = ROUTES.flatMap((r) => CALLERS.map((who) => ({ ...r, who, status: r.expected[who] })));

  it.each(cases)('$route as $who → $status', async ({ call, who, status, freshCaller }) => {
    const res = await call(await caller(who, freshCaller ?? false), fixtures);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    if (status >= 400) expect((res.body as { message?: unknown }).message).toEqual(expect.any(String));
  });

  describe('ids of this workspace, sent through another workspace', () => {
    const foreign: [string, (f: Fixtures, own: string) => Promise<ApiResponse<unknown>>][] = [
      [
        'PUT channels/sections/reorder',
        async (f, own) =>
          f.team.stranger.api.put(`${own}/channels/sections/reorder`, {
            sectionIds: [(await f.section()).id],
          }),
      ],
      [
        'PUT channels/sections/:sectionId',
        async (f, own) =>
          f.team.stranger.api.put(`${own}/channels/sections/${(await f.section()).id}`, { name: 'x' }),
      ],
      [
        'DELETE channels/sections/:sectionId',
        async (f, own) => f.team.stranger.api.delete(`${own}/channels/sections/${(await f.section()).id}`),
      ],
      [
        'PUT groups/:groupId',
        async (f, own) => f.team.stranger.api.put(`${own}/groups/${(await f.group()).id}`, { name: 'x' }),
      ],
      [
        'DELETE groups/:groupId',
        async (f, own) => f.team.stranger.api.delete(`${own}/groups/${(await f.group()).id}`),
      ],
      [
        'PUT groups/:groupId/emails',
        async (f, own) =>
          f.team.stranger.api.put(`${own}/groups/${(await f.group()).id}/emails`, {
            emails: [f.team.stranger.user.email],
            action: 'add',
          }),
      ],
      [
        'GET members/:memberId',
        async (f, own) => f.team.stranger.api.get(`${own}/members/${f.team.member.memberId}`),
      ],
      [
        'PUT members/:memberId',
        async (f, own) =>
          f.team.stranger.api.put(`${own}/members/${f.team.member.memberId}`, { role: 'guest' }),
      ],
      [
        'PUT members/bulk',
        async (f, own) =>
          f.team.stranger.api.put(`${own}/members/bulk`, {
            memberIds: [f.team.member.memberId],
            update: { role: 'guest' },
          }),
      ],
    ];

    it.each(foreign)('%s → 404 and nothing of ours in the answer', async (_route, call) => {
      const res = await call(fixtures, `/api/institutions/${team.strangerWs.id}`);
      expect(res.status).toBe(404);
      const text = JSON.stringify(res.body);
      expect(text).not.toContain(team.member.user.email);
      expect(text).not.toContain('Fixture');
    });
  });
});
