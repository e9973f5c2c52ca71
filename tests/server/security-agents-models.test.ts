// Attack: a stranger who created a workspace points their agent at the most expensive model the
// provider account offers (or any model name at all), so the operator pays for whatever they pick. Agents
// may name only models on the operator's list (AGENT_MODELS): anything else is a 400 on create and update,
// and an override stored before the operator narrowed the list is not used: the run takes the default.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Agent, ErrorBody, Message } from '../../schemas/protocol/index.ts';
import { loadConfig } from '../../server/config.ts';
import { agentRuns, agents } from '../../server/db/schema.ts';
import { type OpenAIScriptServer, startOpenAIScriptServer } from '../fixtures/openai-script-server.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import {
  collect,
  connect,
  disconnectAll,
  eventually,
  makeWorkspace,
  messagesUrl,
  pause,
  type Workspace,
} from './messaging-world.ts';

describe.each(databases)('agent models from the operator list (%s)', (kind) => {
  let t: TestServer;
  let model: OpenAIScriptServer;
  let ws: Workspace;
  const agentsUrl = () => `/api/institutions/${ws.id}/agents`;

  beforeAll(async () => {
    model = await startOpenAIScriptServer();
    t = await startTestServer(kind, {
      env: {
        OPENAI_BASE_URL: model.url,
        OPENAI_API_KEY: 'test-key',
        OPENAI_MODEL: 'cheap-model',
        AGENT_MODELS: 'openai:cheap-model,openai:mid-model',
      },
    });
    ws = await makeWorkspace(t, 'Stranger Inc');
  });
  afterEach(() => {
    disconnectAll();
    model.reset();
  });
  afterAll(async () => {
    await t.close();
    await model.close();
  });

  it('lists the allowed models, the default first', async () => {
    const listed = await ws.owner.api.get<{ defaultModel: string; models: string[] }>(agentsUrl());
    expect(listed.body).toMatchObject({
      defaultModel: 'openai:cheap-model',
      models: ['openai:cheap-model', 'openai:mid-model'],
    });
  });

  it('refuses a model that is not on the list, on create and on update, with a sentence naming the choices', async () => {
    for (const wanted of ['openai:o1-pro-extravagant', 'o1-pro-extravagant', 'anthropic:claude-opus']) {
      const res = await ws.owner.api.post<ErrorBody>(agentsUrl(), { name: 'Spender', model: wanted });
      expect(res.status, wanted).toBe(400);
      expect(res.body.message).toBe(
        `The model "${wanted}" is not offered on this server. Choose one of: openai:cheap-model, openai:mid-model.`,
      );
    }
    const created = await ws.owner.api.post<{ agent: Agent }>(agentsUrl(), {
      name: 'Frugal',
      model: 'mid-model',
    });
    expect(created.status).toBe(201);
    const agent = created.body.agent;
    const changed = await ws.owner.api.put<ErrorBody>(`${agentsUrl()}/${agent.id}`, {
      model: 'openai:o1-pro-extravagant',
    });
    expect(changed.status).toBe(400);
    expect(changed.body.message).toContain('is not offered on this server');
    const after = await ws.owner.api.get<{ agents: Agent[] }>(agentsUrl());
    expect(after.body.agents.find((a) => a.id === agent.id)?.model).toBe('mid-model');
    // Back to the default is always allowed.
    const reset = await ws.owner.api.put<{ agent: Agent }>(`${agentsUrl()}/${agent.id}`, { model: null });
    expect(reset.status).toBe(200);
    expect(reset.body.agent.model).toBeNull();
  });

  it('answers with the default model when the stored override is no longer on the list', async () => {
    const created = await ws.owner.api.post<{ agent: Agent }>(agentsUrl(), { name: 'Veteran' });
    const agent = created.body.agent;
    // Saved while the operator still offered it (or written before the list existed).
    await t.ctx.db.update(agents).set({ model: 'openai:retired-model' }).where(eq(agents.memberId, agent.id));
    model.play({ text: 'Answered by the default.' });

    const socket = await connect(t, ws.owner.token);
    await new Promise((resolve) =>
      socket.emit('joinChannel', { institutionId: ws.id, channelId: ws.general.id }, resolve),
    );
    const edited = collect(socket, 'newEditMessage');
    const asked = await ws.owner.api.post<Message>(messagesUrl(ws, ws.general.id), {
      genId: randomUUID(),
      content: `<p><span data-type="mention" data-id="${agent.id}" class="mention">@Veteran</span> hi</p>`,
      mentions: [{ type: 'agent', id: agent.id }],
    });
    const done = (m: Message) => m.replyTo === asked.body.id && m.agentAnswer?.status === 'done';
    await eventually(() => edited.some(done), 15_000);
    expect(model.requests.map((r) => r.body.model)).toEqual(['cheap-model']);
    let runs = await t.ctx.db.select().from(agentRuns).where(eq(agentRuns.agentId, agent.id));
    for (let i = 0; i < 50 && runs.length === 0; i++) {
      await pause(100);
      runs = await t.ctx.db.select().from(agentRuns).where(eq(agentRuns.agentId, agent.id));
    }
    expect(runs[0]?.model).toBe('openai:cheap-model');
  });
});

describe.each(databases)('agent models with no provider configured (%s)', (kind) => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterAll(() => t.close());

  it('offers no model and refuses any model name', async () => {
    const ws = await makeWorkspace(t, 'Stranger Inc');
    const listed = await ws.owner.api.get<{ defaultModel: null; models: string[] }>(
      `/api/institutions/${ws.id}/agents`,
    );
    expect(listed.body).toMatchObject({ defaultModel: null, models: [] });
    const res = await ws.owner.api.post<ErrorBody>(`/api/institutions/${ws.id}/agents`, {
      name: 'Spender',
      model: 'openai:gpt-4o',
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'No language model is configured on this server, so an agent cannot name one. Leave the model empty.',
    );
  });
});

describe('the operator list itself', () => {
  it('reads AGENT_MODELS as provider:model entries and stops start-up on anything else, naming the variable', () => {
    expect(loadConfig({ AGENT_MODELS: ' openai:a , anthropic:b,' }).AGENT_MODELS).toEqual([
      'openai:a',
      'anthropic:b',
    ]);
    expect(loadConfig({}).AGENT_MODELS).toEqual([]);
    expect(() => loadConfig({ AGENT_MODELS: 'gpt-4o' })).toThrow(
      /AGENT_MODELS.*each model must be written provider:model/,
    );
  });
});
