// Agent usage and audit: the per-agent usage table and the runs list are computed from the audit rows the
// run loop writes (recordRun); the workspace's daily token cap counts today's tokens only, is set by
// admins, and turns further runs away with a clear message. Only owners and admins see any of it.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Agent,
  AgentRun,
  AgentUsageResponse,
  ErrorBody,
  Message,
} from '../../schemas/protocol/index.ts';
import {
  dailyCapMessage,
  dailyCapRefusal,
  type RunRecord,
  recordRun,
  serverDailyTokenCap,
  startOfUtcDay,
  tokensUsedToday,
} from '../../server/agents/usage.ts';
import { agentRuns } from '../../server/db/schema.ts';
import { databases, startTestServer, type TestServer, type TestUser } from './harness.ts';
import { collect, connect, disconnectAll, eventually, messagesUrl } from './messaging-world.ts';
import { makeTeam, type Team } from './workspace-world.ts';

const DAY = 24 * 60 * 60 * 1000;

describe.each(databases)('agent usage and audit (%s)', (kind) => {
  let t: TestServer;
  let team: Team;
  const base = () => `/api/institutions/${team.ws.id}`;
  const serverCap = () => serverDailyTokenCap(t.config.AGENT_DAILY_TOKEN_CAP);

  beforeAll(async () => {
    t = await startTestServer(kind);
    team = await makeTeam(t);
  });
  afterAll(async () => {
    disconnectAll();
    await t.close();
  });

  /** A fresh workspace with its own agents, so totals are not shared between tests. */
  async function newTeam() {
    return makeTeam(t);
  }

  async function createAgent(by: TestUser, institutionId: string, name: string): Promise<Agent> {
    const res = await by.api.post<{ agent: Agent }>(`/api/institutions/${institutionId}/agents`, { name });
    expect(res.status).toBe(201);
    return res.body.agent;
  }

  /** Writes a run through recordRun, then moves it back in time when asked (the clock of the data). */
  async function run(
    institutionId: string,
    agentId: string,
    fields: Partial<RunRecord> = {},
    at?: Date,
  ): Promise<string> {
    const id = await recordRun(t.ctx.db, {
      institutionId,
      agentId,
      askerMemberId: randomUUID(),
      channelId: randomUUID(),
      answerMessageId: randomUUID(),
      model: 'openai:test',
      tokensIn: 0,
      tokensOut: 0,
      toolCalls: [],
      durationMs: 100,
      outcome: 'succeeded',
      error: null,
      ...fields,
    });
    if (at) await t.ctx.db.update(agentRuns).set({ createdAt: at }).where(eq(agentRuns.id, id));
    return id;
  }

  it('sums runs, failures, tokens and tool calls per agent over the chosen days, with idle agents at zero', async () => {
    const { ws, admin, strangerWs, stranger } = await newTeam();
    const writer = await createAgent(admin, ws.id, 'Writer');
    const reader = await createAgent(admin, ws.id, 'Reader');
    const idle = await createAgent(admin, ws.id, 'Idle');
    const theirs = await createAgent(stranger, strangerWs.id, 'Theirs');
    const now = Date.now();

    await run(ws.id, writer.id, { tokensIn: 100, tokensOut: 20, toolCalls: ['search', 'search'] });
    await run(ws.id, writer.id, { tokensIn: 50, tokensOut: 5, toolCalls: ['fetch'], outcome: 'failed' });
    await run(ws.id, writer.id, { tokensIn: 7, outcome: 'refused' }, new Date(now - 3 * DAY));
    // Older than the window: counted with days=30, not with days=7.
    await run(ws.id, writer.id, { tokensIn: 1000, toolCalls: ['old'] }, new Date(now - 10 * DAY));
    await run(ws.id, reader.id, { tokensIn: 1, tokensOut: 2, outcome: 'stopped' });
    // Another workspace's run with the same kind of data never shows.
    await run(strangerWs.id, theirs.id, { tokensIn: 9999, toolCalls: ['x'] });
    await run(strangerWs.id, writer.id, { tokensIn: 5555 });

    const week = await admin.api.get<AgentUsageResponse>(`/api/institutions/${ws.id}/agents/usage?days=7`);
    expect(week.status).toBe(200);
    expect(new Date(week.body.since).getTime()).toBeGreaterThan(now - 7 * DAY - 60_000);
    const rows = new Map(week.body.rows.map((r) => [r.name, r]));
    expect([...rows.keys()].sort()).toEqual(['Idle', 'Reader', 'Writer']);
    expect(rows.get('Writer')).toMatchObject({
      agentId: writer.id,
      runs: 3,
      failedRuns: 1,
      tokensIn: 157,
      tokensOut: 25,
      toolCalls: 3,
    });
    expect(rows.get('Reader')).toMatchObject({ runs: 1, failedRuns: 0, tokensIn: 1, tokensOut: 2 });
    expect(rows.get('Idle')).toEqual({
      agentId: idle.id,
      name: 'Idle',
      runs: 0,
      failedRuns: 0,
      tokensIn: 0,
      tokensOut: 0,
      toolCalls: 0,
      lastRunAt: null,
    });
    expect(Date.now() - new Date(rows.get('Writer')?.lastRunAt ?? 0).getTime()).toBeLessThan(60_000);
    // Today: the two runs of Writer and the one of Reader (3 days ago is not today).
    expect(week.body.tokensToday).toBe(100 + 20 + 50 + 5 + 1 + 2);
    expect(week.body.dailyTokenCap).toBeNull();

    const month = await admin.api.get<AgentUsageResponse>(`/api/institutions/${ws.id}/agents/usage`);
    const writerMonth = month.body.rows.find((r) => r.agentId === writer.id);
    expect(writerMonth).toMatchObject({ runs: 4, tokensIn: 1157, toolCalls: 4 });
  });

  it('lists an agent’s runs newest first, limited, with everything the audit records', async () => {
    const { ws, owner } = await newTeam();
    const agent = await createAgent(owner, ws.id, 'Audited');
    const now = Date.now();
    await run(ws.id, agent.id, { tokensIn: 1 }, new Date(now - 3000));
    await run(
      ws.id,
      agent.id,
      { tokensIn: 2, outcome: 'failed', error: 'The model did not answer', toolCalls: ['a', 'b'] },
      new Date(now - 2000),
    );
    await run(ws.id, agent.id, { tokensIn: 3, answerMessageId: null }, new Date(now - 1000));

    const all = await owner.api.get<{ runs: AgentRun[] }>(
      `/api/institutions/${ws.id}/agents/${agent.id}/runs`,
    );
    expect(all.status).toBe(200);
    expect(all.body.runs.map((r) => r.tokensIn)).toEqual([3, 2, 1]);
    expect(all.body.runs[1]).toMatchObject({
      agentId: agent.id,
      model: 'openai:test',
      outcome: 'failed',
      error: 'The model did not answer',
      toolCalls: ['a', 'b'],
      durationMs: 100,
    });
    expect(all.body.runs[0]?.answerMessageId).toBeNull();

    const two = await owner.api.get<{ runs: AgentRun[] }>(
      `/api/institutions/${ws.id}/agents/${agent.id}/runs?limit=2`,
    );
    expect(two.body.runs.map((r) => r.tokensIn)).toEqual([3, 2]);
  });

  it('refuses runs once today’s tokens reach the cap, and does not count yesterday', async () => {
    const { ws, admin } = await newTeam();
    const agent = await createAgent(admin, ws.id, 'Capped');
    const settings = `/api/institutions/${ws.id}/agent-settings`;

    expect((await admin.api.get<{ dailyTokenCap: number | null }>(settings)).body).toEqual({
      dailyTokenCap: null,
      serverDailyTokenCap: 1_000_000,
    });
    // Yesterday's big run: never counted today.
    await run(ws.id, agent.id, { tokensIn: 50_000 }, new Date(startOfUtcDay().getTime() - 1000));
    await run(ws.id, agent.id, { tokensIn: 600, tokensOut: 300 });
    expect(await tokensUsedToday(t.ctx.db, ws.id)).toBe(900);
    expect(await dailyCapRefusal(t.ctx.db, ws.id, serverCap())).toBeNull();

    const set = await admin.api.put<{ dailyTokenCap: number | null }>(settings, { dailyTokenCap: 1000 });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ dailyTokenCap: 1000, serverDailyTokenCap: 1_000_000 });
    expect((await admin.api.get<{ dailyTokenCap: number }>(settings)).body.dailyTokenCap).toBe(1000);
    expect(await dailyCapRefusal(t.ctx.db, ws.id, serverCap())).toBeNull();

    await run(ws.id, agent.id, { tokensOut: 100 });
    const refusal = await dailyCapRefusal(t.ctx.db, ws.id, serverCap());
    expect(refusal).toBe(dailyCapMessage(1000));
    expect(refusal).toContain('daily allowance of 1,000 agent tokens');
    const usage = await admin.api.get<AgentUsageResponse>(`/api/institutions/${ws.id}/agents/usage`);
    expect(usage.body).toMatchObject({ tokensToday: 1000, dailyTokenCap: 1000 });

    // Raising the cap lets runs through again; null removes it.
    await admin.api.put(settings, { dailyTokenCap: 5000 });
    expect(await dailyCapRefusal(t.ctx.db, ws.id, serverCap())).toBeNull();
    await admin.api.put(settings, { dailyTokenCap: 10 });
    expect(await dailyCapRefusal(t.ctx.db, ws.id, serverCap())).toBe(dailyCapMessage(10));
    const removed = await admin.api.put<{ dailyTokenCap: null }>(settings, { dailyTokenCap: null });
    expect(removed.body).toEqual({ dailyTokenCap: null, serverDailyTokenCap: 1_000_000 });
    expect(await dailyCapRefusal(t.ctx.db, ws.id, serverCap())).toBeNull();
  });

  it('answers bad input with a 400 and a message', async () => {
    const agent = await createAgent(team.admin, team.ws.id, 'Strict');
    const cases: [string, 'get' | 'put', unknown?][] = [
      [`${base()}/agents/usage?days=0`, 'get'],
      [`${base()}/agents/usage?days=abc`, 'get'],
      [`${base()}/agents/usage?days=366`, 'get'],
      [`${base()}/agents/${agent.id}/runs?limit=0`, 'get'],
      [`${base()}/agents/${agent.id}/runs?limit=201`, 'get'],
      [`${base()}/agent-settings`, 'put', { dailyTokenCap: 0 }],
      [`${base()}/agent-settings`, 'put', { dailyTokenCap: -5 }],
      [`${base()}/agent-settings`, 'put', { dailyTokenCap: 1.5 }],
      [`${base()}/agent-settings`, 'put', { dailyTokenCap: 'lots' }],
      [`${base()}/agent-settings`, 'put', {}],
    ];
    for (const [url, method, body] of cases) {
      const res =
        method === 'get'
          ? await team.admin.api.get<ErrorBody>(url)
          : await team.admin.api.put<ErrorBody>(url, body);
      expect(res.status, url).toBe(400);
      // A sentence naming the field in words (decision 0048), never zod's schema text.
      expect(res.body.message, url).toMatch(/^The (number of days|page size|daily token cap) .+\.$/);
    }
  });

  it('lets owners and admins in, keeps members, guests and other workspaces out', async () => {
    const agent = await createAgent(team.admin, team.ws.id, 'Guarded');
    const elsewhere = await createAgent(team.stranger, team.strangerWs.id, 'Foreign');
    const reads = [`${base()}/agents/usage`, `${base()}/agents/${agent.id}/runs`, `${base()}/agent-settings`];
    for (const who of [team.primaryOwner, team.owner, team.admin]) {
      for (const url of reads) expect((await who.api.get(url)).status, url).toBe(200);
      expect((await who.api.put(`${base()}/agent-settings`, { dailyTokenCap: 123 })).status).toBe(200);
    }
    for (const who of [team.member, team.guest, team.outsider, team.stranger]) {
      for (const url of reads) expect((await who.api.get(url)).status, url).toBe(403);
      expect((await who.api.put(`${base()}/agent-settings`, { dailyTokenCap: 1 })).status).toBe(403);
    }
    expect((await t.api().get(`${base()}/agents/usage`)).status).toBe(401);
    // The cap a member tried to set was not written.
    const settings = await team.admin.api.get<{ dailyTokenCap: number }>(`${base()}/agent-settings`);
    expect(settings.body.dailyTokenCap).toBe(123);
    // An agent of another workspace is not found, even for an admin here.
    const foreign = await team.admin.api.get<ErrorBody>(`${base()}/agents/${elsewhere.id}/runs`);
    expect(foreign.status).toBe(404);
    await team.admin.api.put(`${base()}/agent-settings`, { dailyTokenCap: null });
  });

  it('answers a mention with the refusal once the cap is spent, audits it as refused, and answers again when raised', async () => {
    const { ws, admin, member } = await newTeam();
    const agent = await createAgent(admin, ws.id, 'Frugal');
    await admin.api.post(`/api/institutions/${ws.id}/agents/${agent.id}/knowledge-sources`, {
      type: 'text',
      title: 'Opening hours',
      text: 'The library opens at nine on weekdays.',
    });
    await admin.api.put(`/api/institutions/${ws.id}/agent-settings`, { dailyTokenCap: 500 });
    await run(ws.id, agent.id, { tokensIn: 400, tokensOut: 100 });

    const socket = await connect(t, member.token);
    await new Promise((resolve) =>
      socket.emit('joinChannel', { institutionId: ws.id, channelId: ws.general.id }, resolve),
    );
    const edited = collect(socket, 'newEditMessage');
    const ask = async () => {
      const res = await member.api.post<Message>(messagesUrl(ws, ws.general.id), {
        genId: randomUUID(),
        content: `<p><span data-type="mention" data-id="${agent.id}" class="mention">@Frugal</span> When does the library open?</p>`,
        mentions: [{ type: 'agent', id: agent.id }],
      });
      expect(res.status).toBe(201);
      return res.body;
    };
    const isFinal = (m: Message) => m.agentAnswer?.status === 'done' || m.agentAnswer?.status === 'failed';
    const finalAnswerTo = async (question: Message) => {
      await eventually(() => edited.some((m) => m.replyTo === question.id && isFinal(m)));
      return edited.find((m) => m.replyTo === question.id && isFinal(m));
    };

    const refused = await finalAnswerTo(await ask());
    expect(refused?.memberId).toBe(agent.id);
    expect(refused?.agentAnswer?.status).toBe('failed');
    expect(refused?.content).toContain(dailyCapMessage(500));
    expect(refused?.content).not.toContain('opens at nine');
    // The audit row is written just after the final edit.
    let audited: AgentRun | undefined;
    for (let tries = 0; !audited && tries < 100; tries++) {
      const runs = await admin.api.get<{ runs: AgentRun[] }>(
        `/api/institutions/${ws.id}/agents/${agent.id}/runs`,
      );
      audited = runs.body.runs.find((r) => r.answerMessageId === refused?.id);
      if (!audited) await new Promise((r) => setTimeout(r, 20));
    }
    expect(audited).toMatchObject({
      outcome: 'refused',
      error: dailyCapMessage(500),
      tokensIn: 0,
      tokensOut: 0,
      answerMessageId: refused?.id,
    });

    await admin.api.put(`/api/institutions/${ws.id}/agent-settings`, { dailyTokenCap: 10_000 });
    const answered = await finalAnswerTo(await ask());
    expect(answered?.content).toContain('The library opens at nine on weekdays.');
    expect(answered?.content).not.toContain('daily allowance');
  });
});
