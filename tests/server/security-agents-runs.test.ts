// Attack: a stranger creates a workspace, makes many agents and mentions them all at once, so that every
// run holds a model request (and its MCP processes) open together. With AGENT_RUNS_PER_WORKSPACE the
// workspace gets at most that many runs going; the rest wait their turn and are all answered, and another
// workspace is not kept waiting behind them.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Agent, Message } from '../../schemas/protocol/index.ts';
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

const CAP = 2;
/** A slow answer: six chunks 300 ms apart keep each model request open for about 1.5 s. */
const slowTurn = { text: ['One ', 'two ', 'three ', 'four ', 'five ', 'six.'], delayMs: 300 };

describe.each(databases)('concurrent agent runs per workspace (%s)', (kind) => {
  let t: TestServer;
  let model: OpenAIScriptServer;

  beforeAll(async () => {
    model = await startOpenAIScriptServer();
    t = await startTestServer(kind, {
      env: {
        OPENAI_BASE_URL: model.url,
        OPENAI_API_KEY: 'test-key',
        OPENAI_MODEL: 'scripted-model',
        AGENT_RUNS_PER_WORKSPACE: String(CAP),
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

  async function agentsOf(ws: Workspace, n: number): Promise<Agent[]> {
    const made: Agent[] = [];
    for (let i = 0; i < n; i++) {
      const res = await ws.owner.api.post<{ agent: Agent }>(`/api/institutions/${ws.id}/agents`, {
        name: `Worker ${i} ${randomUUID().slice(0, 4)}`,
      });
      expect(res.status).toBe(201);
      made.push(res.body.agent);
    }
    return made;
  }

  async function mentionAll(ws: Workspace, agents: Agent[]): Promise<Message> {
    const res = await ws.owner.api.post<Message>(messagesUrl(ws, ws.general.id), {
      genId: randomUUID(),
      content: `<p>${agents.map((a) => `<span data-type="mention" data-id="${a.id}" class="mention">@${a.name}</span>`).join(' ')} go</p>`,
      mentions: agents.map((a) => ({ type: 'agent', id: a.id })),
    });
    expect(res.status).toBe(201);
    return res.body;
  }

  it('runs at most AGENT_RUNS_PER_WORKSPACE at once, answers every one in the end, and keeps other workspaces moving', async () => {
    const attacker = await makeWorkspace(t, 'Flood');
    const bystander = await makeWorkspace(t, 'Quiet');
    const floodAgents = await agentsOf(attacker, 5);
    const [helper] = await agentsOf(bystander, 1);
    if (!helper) throw new Error('no agent');
    model.play(...Array.from({ length: 6 }, () => slowTurn));

    const socket = await connect(t, attacker.owner.token);
    await new Promise((resolve) =>
      socket.emit('joinChannel', { institutionId: attacker.id, channelId: attacker.general.id }, resolve),
    );
    const edited = collect(socket, 'newEditMessage');
    const question = await mentionAll(attacker, floodAgents);

    // Two runs reach the model; the other three wait while those two are still answering.
    await eventually(() => model.requests.length >= CAP);
    await pause(600);
    expect(model.requests).toHaveLength(CAP);

    // Another workspace is not behind the flood: its run starts while the flood's two still hold slots.
    await mentionAll(bystander, [helper]);
    await eventually(() => model.requests.length === CAP + 1, 1_000);

    // Nothing was dropped: every flood agent answers in the end, one model request each.
    const done = (m: Message) => m.replyTo === question.id && m.agentAnswer?.status === 'done';
    await eventually(() => new Set(edited.filter(done).map((m) => m.memberId)).size === 5, 20_000);
    expect(model.requests).toHaveLength(6);
  });
});
