// An agent's answer never stays "thinking" for ever: a server that stops closes the answers it is running
// (people watching see the closing line live), and a single server that starts closes the ones a crash
// left behind. Each closed answer gets its audit row. With Redis (several nodes) a starting node leaves
// other nodes' answers alone.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Agent, AgentRun, Message } from '../../schemas/protocol/index.ts';
import { startAnswer } from '../../server/agents/answer.ts';
import { INTERRUPTED_LINE } from '../../server/agents/interrupted-answers.ts';
import { createApp } from '../../server/app.ts';
import { members } from '../../server/db/schema.ts';
import { type OpenAIScriptServer, startOpenAIScriptServer } from '../fixtures/openai-script-server.ts';
import { databases, startTestServer, type TestServer, type TestUser } from './harness.ts';
import {
  addMember,
  collect,
  connect,
  disconnectAll,
  eventually,
  makeWorkspace,
  messagesUrl,
  pause,
  type Workspace,
} from './messaging-world.ts';

describe.each(databases)('answers interrupted by a server stop (%s)', (kind) => {
  let t: TestServer;
  let ws: Workspace;
  let asker: TestUser;
  let model: OpenAIScriptServer;

  beforeAll(async () => {
    model = await startOpenAIScriptServer();
    t = await startTestServer(kind, {
      onDisk: true,
      env: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'test-key', OPENAI_MODEL: 'scripted-model' },
    });
    ws = await makeWorkspace(t);
    asker = await addMember(t, ws);
  });
  afterEach(() => {
    disconnectAll();
    model.reset();
  });
  afterAll(async () => {
    await t.close();
    await model.close();
  });

  async function newAgent(): Promise<Agent> {
    const res = await ws.owner.api.post<{ agent: Agent }>(`/api/institutions/${ws.id}/agents`, {
      name: `Helper ${randomUUID().slice(0, 4)}`,
    });
    expect(res.status).toBe(201);
    return res.body.agent;
  }

  async function ask(agent: Agent, question: string): Promise<Message> {
    const res = await asker.api.post<Message>(messagesUrl(ws, ws.general.id), {
      genId: randomUUID(),
      content: `<p><span data-type="mention" data-id="${agent.id}" class="mention">@${agent.name}</span> ${question}</p>`,
      mentions: [{ type: 'agent', id: agent.id }],
    });
    expect(res.status).toBe(201);
    return res.body;
  }

  async function stored(messageId: string): Promise<Message | undefined> {
    const res = await asker.api.get<{ data: { message: Message }[] } | { data: Message[] }>(
      `${messagesUrl(ws, ws.general.id)}?limit=100`,
    );
    const list = res.body.data.map((item) => ('message' in item ? item.message : item));
    return list.find((m) => m.id === messageId);
  }

  async function runsOf(agent: Agent): Promise<AgentRun[]> {
    const res = await ws.owner.api.get<{ runs: AgentRun[] }>(
      `/api/institutions/${ws.id}/agents/${agent.id}/runs`,
    );
    expect(res.status).toBe(200);
    return res.body.runs;
  }

  it('a stopping server closes the answer it is streaming, and the people watching see it', async () => {
    const agent = await newAgent();
    const socket = await connect(t, asker.token);
    await new Promise((resolve) =>
      socket.emit('joinChannel', { institutionId: ws.id, channelId: ws.general.id }, resolve),
    );
    const edited = collect(socket, 'newEditMessage');
    // A slow model: one chunk a second, far longer than the test waits.
    model.play({
      text: ['The first part. ', ...Array.from({ length: 30 }, (_, i) => `more ${i} `)],
      delayMs: 1_000,
    });
    const question = await ask(agent, 'Tell me everything.');
    await eventually(
      () => edited.some((m) => m.replyTo === question.id && m.content.includes('The first part')),
      15_000,
    );
    const answerId = edited.find((m) => m.replyTo === question.id)?.id ?? '';

    await t.restart();

    const seenLive = edited.filter((m) => m.id === answerId).at(-1);
    expect(seenLive?.agentAnswer?.status).toBe('failed');
    expect(seenLive?.content).toContain('The first part');
    expect(seenLive?.content).toContain(INTERRUPTED_LINE);
    // The old run's model stream goes on for a while: nothing it writes reopens the answer.
    await pause(1_500);
    const after = await stored(answerId);
    expect(after?.agentAnswer?.status).toBe('failed');
    expect(after?.content).toBe(seenLive?.content);
    const runs = (await runsOf(agent)).filter((r) => r.answerMessageId === answerId);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ outcome: 'failed', error: 'interrupted by a server restart' });
  }, 60_000);

  it('a single server starting closes an answer a crash left thinking', async () => {
    const agent = await newAgent();
    const question = await ask(agent, 'Are you there?');
    const [agentMember] = await t.ctx.db.select().from(members).where(eq(members.id, agent.id));
    // What a crash leaves: an answer created "thinking" whose run no process is running any more.
    const answerId = await startAnswer(
      t.ctx,
      {
        institutionId: ws.id,
        channelId: ws.general.id,
        agentMemberId: agent.id,
        agentUserId: agentMember?.userId ?? '',
        replyTo: question.id,
      },
      randomUUID(),
      question.memberId,
    );
    expect((await stored(answerId))?.agentAnswer?.status).toBe('thinking');

    if (kind === 'postgres' && process.env.REDIS_URL) {
      // With Redis there may be other nodes, and this could be one of their answers: left alone.
      const node = await createApp({ ...t.config, PORT: 0, REDIS_URL: process.env.REDIS_URL });
      await node.close();
      expect((await stored(answerId))?.agentAnswer?.status).toBe('thinking');
    }

    await t.restart();
    const closed = await stored(answerId);
    expect(closed?.agentAnswer?.status).toBe('failed');
    expect(closed?.content).toBe(`<p><em>${INTERRUPTED_LINE}</em></p>`);
    const runs = (await runsOf(agent)).filter((r) => r.answerMessageId === answerId);
    expect(runs).toMatchObject([{ outcome: 'failed', error: 'interrupted by a server restart' }]);
  }, 60_000);
});
