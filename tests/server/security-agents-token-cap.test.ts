// Attack: a stranger who created a workspace lifts their own daily token cap as high as the schema allows
// and lets their agents burn the operator's model budget. AGENT_DAILY_TOKEN_CAP is a ceiling for every
// workspace: a workspace admin asking for more gets a 400, a cap stored above it is not honoured, and runs
// beyond it are refused with a plain message.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Agent, AgentUsageResponse, ErrorBody, Message } from '../../schemas/protocol/index.ts';
import { serverDailyCapMessage } from '../../server/agents/usage.ts';
import { institutions } from '../../server/db/schema.ts';
import { type OpenAIScriptServer, startOpenAIScriptServer } from '../fixtures/openai-script-server.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import {
  collect,
  connect,
  disconnectAll,
  eventually,
  makeWorkspace,
  messagesUrl,
  type Workspace,
} from './messaging-world.ts';

const SERVER_CAP = 1_000;

describe.each(databases)('server-wide daily token cap (%s)', (kind) => {
  let t: TestServer;
  let model: OpenAIScriptServer;

  beforeAll(async () => {
    model = await startOpenAIScriptServer();
    t = await startTestServer(kind, {
      env: {
        OPENAI_BASE_URL: model.url,
        OPENAI_API_KEY: 'test-key',
        OPENAI_MODEL: 'scripted-model',
        AGENT_DAILY_TOKEN_CAP: String(SERVER_CAP),
      },
    });
  });
  afterEach(() => {
    disconnectAll();
    model.reset();
  });
  afterAll(async () => {
    await t.close();
    await model.close();
  });

  const settingsUrl = (ws: Workspace) => `/api/institutions/${ws.id}/agent-settings`;

  async function ask(ws: Workspace, agent: Agent): Promise<Message> {
    const socket = await connect(t, ws.owner.token);
    await new Promise((resolve) =>
      socket.emit('joinChannel', { institutionId: ws.id, channelId: ws.general.id }, resolve),
    );
    const edited = collect(socket, 'newEditMessage');
    const asked = await ws.owner.api.post<Message>(messagesUrl(ws, ws.general.id), {
      genId: randomUUID(),
      content: `<p><span data-type="mention" data-id="${agent.id}" class="mention">@${agent.name}</span> hi</p>`,
      mentions: [{ type: 'agent', id: agent.id }],
    });
    const final = (m: Message) =>
      m.replyTo === asked.body.id && (m.agentAnswer?.status === 'done' || m.agentAnswer?.status === 'failed');
    await eventually(() => edited.some(final), 15_000);
    return edited.find(final) as Message;
  }

  it('refuses a workspace cap above the server cap with a 400, and accepts one below it', async () => {
    const ws = await makeWorkspace(t, 'Stranger Inc');
    const higher = await ws.owner.api.put<ErrorBody>(settingsUrl(ws), { dailyTokenCap: 1_000_000_000 });
    expect(higher.status).toBe(400);
    expect(higher.body.message).toBe(
      'This server allows each workspace at most 1,000 agent tokens a day; choose that or less.',
    );
    expect((await ws.owner.api.get(settingsUrl(ws))).body).toEqual({
      dailyTokenCap: null,
      serverDailyTokenCap: SERVER_CAP,
    });
    const lower = await ws.owner.api.put(settingsUrl(ws), { dailyTokenCap: 400 });
    expect(lower.status).toBe(200);
    expect(lower.body).toEqual({ dailyTokenCap: 400, serverDailyTokenCap: SERVER_CAP });
    const usage = await ws.owner.api.get<AgentUsageResponse>(`/api/institutions/${ws.id}/agents/usage`);
    expect(usage.body).toMatchObject({ dailyTokenCap: 400, serverDailyTokenCap: SERVER_CAP });
  });

  it('refuses runs once the workspace has used the server cap, even with its own cap stored higher', async () => {
    const ws = await makeWorkspace(t, 'Stranger Inc');
    // A cap stored before the operator set the ceiling: it must not lift it.
    await t.ctx.db
      .update(institutions)
      .set({ agentDailyTokenCap: 1_000_000_000 })
      .where(eq(institutions.id, ws.id));
    const created = await ws.owner.api.post<{ agent: Agent }>(`/api/institutions/${ws.id}/agents`, {
      name: 'Burner',
    });
    const agent = created.body.agent;
    model.play({ text: 'A long and costly answer.', usage: { prompt_tokens: 900, completion_tokens: 300 } });
    expect((await ask(ws, agent)).agentAnswer?.status).toBe('done');

    const refused = await ask(ws, agent);
    expect(refused.agentAnswer?.status).toBe('failed');
    expect(refused.content).toContain(serverDailyCapMessage(SERVER_CAP));
    expect(model.requests).toHaveLength(1);

    // Another workspace has its own day's allowance.
    const other = await makeWorkspace(t, 'Neighbour');
    const helper = await other.owner.api.post<{ agent: Agent }>(`/api/institutions/${other.id}/agents`, {
      name: 'Helper',
    });
    model.play({ text: 'Still answering here.' });
    expect((await ask(other, helper.body.agent)).agentAnswer?.status).toBe('done');
  });
});
