// Agent runs with no language model configured: a mention is answered at once with "Thinking…" as a reply
// from the agent, then edited (newEditMessage) into the best passages of the agent's own knowledge with
// numbered citations (also in agentAnswer.citations); every run is audited, and a spent daily token cap is
// answered with its message. Agents nobody may invoke stay quiet, and a private channel never leaks.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Agent, Channel, Message } from '../../schemas/protocol/index.ts';
import { NO_MODEL_LINE, NOT_A_MEMBER_LINE, THINKING_HTML } from '../../server/agents/answer.ts';
import { dailyCapMessage, recordRun } from '../../server/agents/usage.ts';
import { agentRuns, institutions } from '../../server/db/schema.ts';
import { databases, startTestServer, type TestServer, type TestUser } from './harness.ts';
import {
  addMember,
  collect,
  connect,
  disconnectAll,
  eventually,
  makeChannel,
  makeWorkspace,
  messagesUrl,
  pause,
  type Workspace,
} from './messaging-world.ts';

describe.each(databases)('agent runs without a model (%s)', (kind) => {
  let t: TestServer;
  let ws: Workspace;
  let asker: TestUser;

  beforeAll(async () => {
    t = await startTestServer(kind);
    ws = await makeWorkspace(t);
    asker = await addMember(t, ws);
  });
  afterEach(() => disconnectAll());
  afterAll(() => t.close());

  async function newAgent(knowledge: Record<string, string>, settings: Record<string, unknown> = {}) {
    const res = await ws.owner.api.post<{ agent: Agent }>(`/api/institutions/${ws.id}/agents`, {
      name: `Agent ${randomUUID().slice(0, 4)}`,
      ...settings,
    });
    const agent = res.body.agent;
    for (const [title, text] of Object.entries(knowledge))
      await ws.owner.api.post(`/api/institutions/${ws.id}/agents/${agent.id}/knowledge-sources`, {
        type: 'text',
        title,
        text,
      });
    return agent;
  }

  /** A socket of this person that has joined the channel's room. */
  async function watch(by: TestUser, channel: Channel) {
    const socket = await connect(t, by.token);
    await new Promise((resolve) =>
      socket.emit('joinChannel', { institutionId: ws.id, channelId: channel.id }, resolve),
    );
    return socket;
  }

  async function ask(by: TestUser, channel: Channel, agent: Agent, question: string): Promise<Message> {
    const res = await by.api.post<Message>(messagesUrl(ws, channel.id), {
      genId: randomUUID(),
      content: `<p><span data-type="mention" data-id="${agent.id}" class="mention">@${agent.name}</span> ${question}</p>`,
      mentions: [{ type: 'agent', id: agent.id }],
    });
    expect(res.status).toBe(201);
    return res.body;
  }

  it('answers a mention with "Thinking…", then the matching passages with citations', async () => {
    const agent = await newAgent({
      'Travel policy': 'Train tickets are reimbursed in second class. Taxis need a receipt.',
      'Holiday rules': 'Everyone gets twenty-five days of holiday a year.',
    });
    const socket = await watch(asker, ws.general);
    const created = collect(socket, 'newMessage');
    const edited = collect(socket, 'newEditMessage');
    const question = await ask(asker, ws.general, agent, 'Are train tickets reimbursed?');

    await eventually(() => created.some((m) => m.memberId === agent.id));
    const thinking = created.find((m) => m.memberId === agent.id);
    expect(thinking).toMatchObject({ content: THINKING_HTML, replyTo: question.id });

    await eventually(() => edited.some((m) => m.id === thinking?.id));
    const answer = edited.find((m) => m.id === thinking?.id);
    expect(answer?.content).toContain(NO_MODEL_LINE);
    expect(answer?.content).toContain('Train tickets are reimbursed in second class');
    expect(answer?.content).toContain('[1] <em>Travel policy</em>');
    expect(answer?.content).not.toContain('twenty-five days');
    expect(answer?.seq).toBeGreaterThan(thinking?.seq ?? Number.POSITIVE_INFINITY);
    expect(thinking?.agentAnswer).toMatchObject({
      status: 'thinking',
      askerMemberId: await ownMemberId(asker),
    });
    expect(answer?.agentAnswer).toMatchObject({
      status: 'done',
      toolCalls: [],
      citations: [{ index: 1, title: 'Travel policy', passage: expect.stringContaining('second class') }],
    });
    const runs = await auditedRuns(agent.id);
    expect(runs[0]).toMatchObject({ outcome: 'succeeded', model: null, tokensIn: 0, tokensOut: 0 });
  });

  it('quotes each matching passage once, from its own section only, and leaves the configuration to admins', async () => {
    const handbook = [
      '# Travel',
      'Train tickets are reimbursed in second class. Taxis need a receipt.',
      '# Parking',
      'The car park closes at ten and visitors park on level two.',
    ].join('\n\n');
    // The same handbook added twice, as people do: still one quote.
    const agent = await newAgent({ Handbook: handbook, 'Handbook (copy)': handbook });
    const socket = await watch(asker, ws.general);
    const edited = collect(socket, 'newEditMessage');
    const question = await ask(asker, ws.general, agent, 'Are train tickets reimbursed?');
    await eventually(() => edited.some((m) => m.replyTo === question.id && m.agentAnswer?.status === 'done'));
    const answer = edited.find((m) => m.replyTo === question.id && m.agentAnswer?.status === 'done');
    expect(answer?.content.match(/Train tickets are reimbursed/g)).toHaveLength(1);
    expect(answer?.content).not.toContain('car park');
    expect(answer?.content).not.toMatch(/language model|configured/i);
    expect(answer?.agentAnswer?.citations).toEqual([
      {
        index: 1,
        sourceId: expect.any(String),
        title: expect.stringMatching(/^Handbook/),
        passage: expect.stringContaining('Travel\nTrain tickets'),
      },
    ]);
  });

  it("refuses with the cap's message once the workspace has used its daily tokens", async () => {
    const agent = await newAgent({ Notes: 'The office opens at eight.' });
    await t.ctx.db.update(institutions).set({ agentDailyTokenCap: 100 }).where(eq(institutions.id, ws.id));
    try {
      await recordRun(t.ctx.db, {
        institutionId: ws.id,
        agentId: agent.id,
        askerMemberId: await ownMemberId(asker),
        channelId: ws.general.id,
        answerMessageId: null,
        model: 'openai:earlier',
        tokensIn: 90,
        tokensOut: 20,
        toolCalls: [],
        durationMs: 1,
        outcome: 'succeeded',
        error: null,
      });
      const socket = await watch(asker, ws.general);
      const edited = collect(socket, 'newEditMessage');
      const question = await ask(asker, ws.general, agent, 'When does the office open?');
      await eventually(() => edited.some((m) => m.replyTo === question.id));
      const answer = edited.find((m) => m.replyTo === question.id);
      expect(answer?.agentAnswer?.status).toBe('failed');
      expect(answer?.content).toContain(dailyCapMessage(100));
      expect(answer?.content).not.toContain('eight');
      const runs = await auditedRuns(agent.id, 2);
      expect(runs.map((r) => r.outcome).sort()).toEqual(['refused', 'succeeded']);
    } finally {
      await t.ctx.db.update(institutions).set({ agentDailyTokenCap: null }).where(eq(institutions.id, ws.id));
    }
  });

  it('stays quiet when nobody may invoke the agent', async () => {
    const quiet = await newAgent({ Notes: 'The office opens at eight.' }, { invokableBy: 'nobody' });
    const helpful = await newAgent({ Notes: 'The office opens at eight.' });
    const socket = await watch(asker, ws.general);
    const created = collect(socket, 'newMessage');
    await ask(asker, ws.general, quiet, 'When does the office open?');
    await ask(asker, ws.general, helpful, 'When does the office open?');
    await eventually(() => created.some((m) => m.memberId === helpful.id));
    await pause(200);
    expect(created.filter((m) => m.memberId === quiet.id)).toEqual([]);
  });

  it('lets only channel owners invoke an agent limited to them', async () => {
    const agent = await newAgent({ Notes: 'Deploys happen on Tuesdays.' }, { invokableBy: 'channel_owners' });
    const room = await makeChannel(ws.owner, ws);
    await ws.owner.api.post(`/api/institutions/${ws.id}/channels/${room.id}/members/add`, {
      members: [await ownMemberId(asker)],
    });
    const socket = await watch(asker, room);
    const created = collect(socket, 'newMessage');
    const byMember = await ask(asker, room, agent, 'When are deploys?');
    const byOwner = await ask(ws.owner, room, agent, 'When are deploys?');
    await eventually(() => created.some((m) => m.memberId === agent.id));
    await pause(200);
    const answers = created.filter((m) => m.memberId === agent.id);
    expect(answers.map((m) => m.replyTo)).toEqual([byOwner.id]);
    expect(byMember.id).not.toBe(byOwner.id);
  });

  it('never quotes a private channel in an answer asked elsewhere', async () => {
    const agent = await newAgent({ Launch: 'The launch review is on Friday.' });
    const secret = await makeChannel(ws.owner, ws, 'private');
    await ws.owner.api.post(`/api/institutions/${ws.id}/channels/${secret.id}/members/add`, {
      members: [agent.id],
    });
    await ws.owner.api.post(messagesUrl(ws, secret.id), {
      genId: randomUUID(),
      content: '<p>The launch code is zebra-forty-two.</p>',
    });
    const socket = await watch(asker, ws.general);
    const edited = collect(socket, 'newEditMessage');
    await ask(asker, ws.general, agent, 'What is the launch code?');
    await eventually(() => edited.some((m) => m.memberId === agent.id));
    const answer = edited.find((m) => m.memberId === agent.id);
    expect(answer?.content).toContain('launch review is on Friday');
    expect(answer?.content).not.toContain('zebra');
  });

  it('says in one line that it cannot read a private channel it was not added to', async () => {
    const agent = await newAgent({ Notes: 'The budget meeting is on Monday.' });
    const secret = await makeChannel(ws.owner, ws, 'private');
    await ws.owner.api.post(`/api/institutions/${ws.id}/channels/${secret.id}/members/add`, {
      members: [await ownMemberId(asker)],
    });
    await ws.owner.api.post(messagesUrl(ws, secret.id), {
      genId: randomUUID(),
      content: '<p>The secret budget is forty thousand.</p>',
    });
    const socket = await watch(asker, secret);
    const created = collect(socket, 'newMessage');
    const edited = collect(socket, 'newEditMessage');
    const question = await ask(asker, secret, agent, 'When is the budget meeting?');
    await eventually(() => created.some((m) => m.memberId === agent.id));
    await pause(200);
    const answers = created.filter((m) => m.memberId === agent.id);
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ content: `<p>${NOT_A_MEMBER_LINE}</p>`, replyTo: question.id });
    expect(edited.filter((m) => m.memberId === agent.id)).toEqual([]);
    const members = await ws.owner.api.get<{ data: { member: { id: string } }[] }>(
      `/api/institutions/${ws.id}/channels/${secret.id}/members`,
    );
    const ids = members.body.data.map((m) => m.member.id);
    expect(ids).toContain(await ownMemberId(asker));
    expect(ids).not.toContain(agent.id);
  });

  /** The agent's audit rows once there are `count` (each is written just after the run's final edit). */
  async function auditedRuns(agentId: string, count = 1) {
    for (let i = 0; ; i++) {
      const rows = await t.ctx.db.select().from(agentRuns).where(eq(agentRuns.agentId, agentId));
      if (rows.length >= count || i > 100) return rows;
      await pause(50);
    }
  }

  async function ownMemberId(who: TestUser): Promise<string> {
    const res = await who.api.get<{ data: { id: string; user: { id: string } }[] }>(
      `/api/institutions/${ws.id}/members`,
    );
    return res.body.data.find((m) => m.user.id === who.user.id)?.id ?? '';
  }
});
