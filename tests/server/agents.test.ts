// Agents as workspace members of their own kind: admins create, change and remove them; every member lists
// them; bad input is a 400 with a message; an agent can be added to a channel like a person.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent, ErrorBody, Member } from '../../schemas/protocol/index.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import { makeTeam, type Team } from './workspace-world.ts';

describe.each(databases)('agents (%s)', (kind) => {
  let t: TestServer;
  let team: Team;
  const agentsUrl = () => `/api/institutions/${team.ws.id}/agents`;

  beforeAll(async () => {
    // No provider is configured here, so only a model the operator listed may be named.
    t = await startTestServer(kind, { env: { AGENT_MODELS: 'openai:llama3' } });
    team = await makeTeam(t);
  });
  afterAll(() => t.close());

  async function createAgent(body: Record<string, unknown> = {}) {
    const res = await team.admin.api.post<{ agent: Agent }>(agentsUrl(), { name: 'Helper', ...body });
    expect(res.status).toBe(201);
    return res.body.agent;
  }

  it('lets an admin create an agent with defaults, and every member list it', async () => {
    const agent = await createAgent({ name: 'Librarian', instructions: 'Answer from the handbook.' });
    expect(agent).toMatchObject({
      name: 'Librarian',
      instructions: 'Answer from the handbook.',
      model: null,
      invokableBy: 'everyone',
      maxToolSteps: 8,
      profileImage: null,
    });
    const listed = await team.guest.api.get<{ agents: Agent[] }>(agentsUrl());
    expect(listed.status).toBe(200);
    expect(listed.body.agents.map((a) => a.id)).toContain(agent.id);
  });

  it('gives the agent a member row in the workspace directory', async () => {
    const agent = await createAgent({ name: 'Scribe' });
    const res = await team.member.api.get<{ data: Member[] }>(`/api/institutions/${team.ws.id}/members`);
    expect(res.body.data.find((m) => m.id === agent.id)?.name).toBe('Scribe');
  });

  it('never gives an agent a workspace role, alone or in a bulk change', async () => {
    const agent = await createAgent({ name: 'Clerk' });
    const one = await team.admin.api.put<ErrorBody>(`/api/institutions/${team.ws.id}/members/${agent.id}`, {
      role: 'admin',
    });
    expect(one.status).toBe(403);
    expect(one.body.message).toBe('An agent has no workspace role; its settings say who may ask it');
    const bulk = await team.admin.api.put<ErrorBody>(`/api/institutions/${team.ws.id}/members/bulk`, {
      memberIds: [team.member.memberId, agent.id],
      update: { role: 'guest' },
    });
    expect(bulk.status).toBe(403);
    const res = await team.member.api.get<{ data: Member[] }>(`/api/institutions/${team.ws.id}/members`);
    expect(res.body.data.find((m) => m.id === agent.id)?.role).toBe('member');
    expect(res.body.data.find((m) => m.id === team.member.memberId)?.role).toBe('member');
  });

  it('never lets anyone sign in as an agent, even with the address of its user', async () => {
    const agent = await createAgent({ name: 'Gatekeeper' });
    const email = `agent-${agent.id}@agents.lantern.invalid`;
    const anon = t.api();
    const asked = await anon.get<ErrorBody>(`/api/auth/signin_otp?email=${encodeURIComponent(email)}`);
    expect(asked.status).toBe(400);
    expect(asked.body.message).toBe('This address belongs to an AI agent and cannot sign in');
    const signedIn = await anon.post<ErrorBody>('/api/auth/signin', { email, code: '123456' });
    expect(signedIn.status).toBe(400);
  });

  it('lets an admin change the settings and the name', async () => {
    const agent = await createAgent();
    const res = await team.owner.api.put<{ agent: Agent }>(`${agentsUrl()}/${agent.id}`, {
      name: 'Renamed',
      model: 'openai:llama3',
      invokableBy: 'channel_owners',
      maxToolSteps: 3,
    });
    expect(res.status).toBe(200);
    expect(res.body.agent).toMatchObject({
      name: 'Renamed',
      model: 'openai:llama3',
      invokableBy: 'channel_owners',
      maxToolSteps: 3,
    });
  });

  it('refuses writes by members and guests, and reads by strangers', async () => {
    const agent = await createAgent();
    expect((await team.member.api.post(agentsUrl(), { name: 'Nope' })).status).toBe(403);
    expect((await team.guest.api.put(`${agentsUrl()}/${agent.id}`, { name: 'Nope' })).status).toBe(403);
    expect((await team.member.api.delete(`${agentsUrl()}/${agent.id}`)).status).toBe(403);
    expect((await team.stranger.api.get(agentsUrl())).status).toBe(403);
  });

  it('answers bad input with a 400 and a message', async () => {
    for (const body of [
      { name: '' },
      { name: 'x', invokableBy: 'robots' },
      { name: 'x', maxToolSteps: 0 },
      {},
    ]) {
      const res = await team.admin.api.post<ErrorBody>(agentsUrl(), body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBeTruthy();
    }
  });

  it('removes an agent, and an agent of another workspace is not found', async () => {
    const agent = await createAgent();
    expect((await team.admin.api.delete(`${agentsUrl()}/${agent.id}`)).status).toBe(200);
    const listed = await team.admin.api.get<{ agents: Agent[] }>(agentsUrl());
    expect(listed.body.agents.map((a) => a.id)).not.toContain(agent.id);
    const elsewhere = await team.stranger.api.post<{ agent: Agent }>(
      `/api/institutions/${team.strangerWs.id}/agents`,
      {
        name: 'Theirs',
      },
    );
    expect(
      (await team.admin.api.put(`${agentsUrl()}/${elsewhere.body.agent.id}`, { name: 'Mine' })).status,
    ).toBe(404);
  });
});
