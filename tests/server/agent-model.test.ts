// Agent runs with a language model, end to end: the model is a local HTTP server speaking OpenAI
// chat-completions (tests/fixtures/openai-script-server.ts) that plays scripted turns; the tools are the
// real MCP reference server over stdio. A mention is answered by a streamed message (several
// newEditMessage events seen by a real socket), tool calls become cards and their results go back to the
// model, the answer cites the knowledge it used, every run leaves an audit row, and neither a connection's
// secret nor another channel's text is ever sent to the model.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, type Channel, MASKED_VALUE, type Message } from '../../schemas/protocol/index.ts';
import { agentRuns } from '../../server/db/schema.ts';
import {
  type AnthropicScriptServer,
  startAnthropicScriptServer,
} from '../fixtures/anthropic-script-server.ts';
import { type OpenAIScriptServer, startOpenAIScriptServer } from '../fixtures/openai-script-server.ts';
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

const SECRET = 'sk-live-do-not-leak-7731';
const everything = { type: 'stdio', command: 'mcp-server-everything', args: ['stdio'] } as const;

interface ChatMessage {
  role: string;
  content: unknown;
  tool_calls?: { function: { name: string } }[];
}

describe.each(databases)('agent runs with a model (%s)', (kind) => {
  let t: TestServer;
  let ws: Workspace;
  let asker: TestUser;
  let model: OpenAIScriptServer;

  beforeAll(async () => {
    model = await startOpenAIScriptServer();
    t = await startTestServer(kind, {
      env: {
        OPENAI_BASE_URL: model.url,
        OPENAI_API_KEY: 'test-key',
        OPENAI_MODEL: 'scripted-model',
        AGENT_MODELS: 'openai:scripted-model,openai:other-model,anthropic:claude-test',
        MCP_CONNECT_TIMEOUT_MS: '20000',
        MCP_STDIO_ALLOWLIST: 'mcp-server-everything stdio',
        MCP_STDIO_ENV_ALLOWLIST: 'SECRET_TOKEN',
      },
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

  async function newAgent(
    settings: Record<string, unknown> = {},
    knowledge: Record<string, string> = {},
    tools = true,
  ): Promise<Agent> {
    const res = await ws.owner.api.post<{ agent: Agent }>(`/api/institutions/${ws.id}/agents`, {
      name: `Helper ${randomUUID().slice(0, 4)}`,
      ...settings,
    });
    expect(res.status).toBe(201);
    const agent = res.body.agent;
    for (const [title, text] of Object.entries(knowledge))
      await ws.owner.api.post(`/api/institutions/${ws.id}/agents/${agent.id}/knowledge-sources`, {
        type: 'text',
        title,
        text,
      });
    if (tools) {
      const conn = await ws.owner.api.post(`/api/institutions/${ws.id}/agents/${agent.id}/mcp-connections`, {
        name: 'Everything',
        transport: everything,
        environmentVariables: { SECRET_TOKEN: SECRET },
      });
      expect(conn.status).toBe(201);
    }
    return agent;
  }

  async function watch(by: TestUser, channel: Channel) {
    const socket = await connect(t, by.token);
    await new Promise((resolve) =>
      socket.emit('joinChannel', { institutionId: ws.id, channelId: channel.id }, resolve),
    );
    return { created: collect(socket, 'newMessage'), edited: collect(socket, 'newEditMessage') };
  }

  async function ask(agent: Agent, question: string, channel = ws.general): Promise<Message> {
    const res = await asker.api.post<Message>(messagesUrl(ws, channel.id), {
      genId: randomUUID(),
      content: `<p><span data-type="mention" data-id="${agent.id}" class="mention">@${agent.name}</span> ${question}</p>`,
      mentions: [{ type: 'agent', id: agent.id }],
    });
    expect(res.status).toBe(201);
    return res.body;
  }

  /** The answer's edits in order, once one of them is final. */
  async function finalAnswer(edited: Message[], question: Message, ms = 30_000): Promise<Message> {
    const isFinal = (m: Message) =>
      m.replyTo === question.id && (m.agentAnswer?.status === 'done' || m.agentAnswer?.status === 'failed');
    await eventually(() => edited.some(isFinal), ms);
    return edited.find(isFinal) as Message;
  }

  /** The agent's audit rows, once there is one (it is written just after the final edit). */
  async function runsOf(agent: Agent) {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const rows = await t.ctx.db.select().from(agentRuns).where(eq(agentRuns.agentId, agent.id));
      if (rows.length > 0 || Date.now() > deadline) return rows;
      await pause(50);
    }
  }

  const messagesOf = (i: number) => (model.requests[i]?.body.messages ?? []) as ChatMessage[];

  it('streams an answer that calls an MCP tool, sends its result back to the model and cites its knowledge', async () => {
    const agent = await newAgent(
      { instructions: 'Always check with the echo tool first.' },
      {
        'Travel policy': 'Train tickets are reimbursed in second class. Taxis need a receipt.',
        'Holiday rules': 'Everyone gets twenty-five days of holiday a year.',
      },
    );
    // A private channel the asker cannot read: nothing of it may reach the model.
    const secret = await makeChannel(ws.owner, ws, 'private');
    await ws.owner.api.post(messagesUrl(ws, secret.id), {
      genId: randomUUID(),
      content: '<p>The launch code is zebra-forty-two.</p>',
    });
    await ws.owner.api.post(messagesUrl(ws, ws.general.id), {
      genId: randomUUID(),
      content: '<p>I am booking the trip to Lyon next week.</p>',
    });
    model.play(
      { toolCalls: [{ name: 'echo', arguments: { message: 'checking the travel policy' } }] },
      {
        text: ['Train tickets ', 'are reimbursed ', 'in second class ', '[1].'],
        delayMs: 450,
        usage: { prompt_tokens: 120, completion_tokens: 12 },
      },
    );
    const { created, edited } = await watch(asker, ws.general);
    const question = await ask(agent, 'Are train tickets reimbursed?');

    await eventually(() => created.some((m) => m.replyTo === question.id));
    const thinking = created.find((m) => m.replyTo === question.id);
    expect(thinking).toMatchObject({ memberId: agent.id, content: '<p>Thinking…</p>' });
    expect(thinking?.agentAnswer).toMatchObject({ status: 'thinking', toolCalls: [], citations: [] });

    const answer = await finalAnswer(edited, question);
    expect(answer.content).toBe('<p>Train tickets are reimbursed in second class [1].</p>');
    expect(answer.agentAnswer).toMatchObject({
      status: 'done',
      askerMemberId: thinking?.agentAnswer?.askerMemberId,
      toolCalls: [
        {
          name: 'echo',
          connectionName: 'Everything',
          arguments: JSON.stringify({ message: 'checking the travel policy' }),
          status: 'succeeded',
          result: 'Echo: checking the travel policy',
          destructive: false,
        },
      ],
      citations: [{ index: 1, title: 'Travel policy', passage: expect.stringContaining('second class') }],
    });

    // Streamed: several edits of the same message, in seq order, text growing while 'streaming'.
    const edits = edited.filter((m) => m.id === thinking?.id);
    const streaming = edits.filter(
      (m) => m.agentAnswer?.status === 'streaming' && m.content.includes('Train'),
    );
    expect(streaming.length).toBeGreaterThanOrEqual(2);
    expect(edits.map((m) => m.seq)).toEqual([...edits.map((m) => m.seq)].sort((a, b) => a - b));
    expect(new Set(streaming.map((m) => m.content)).size).toBe(streaming.length);

    // The first request offered the tools, the context and the numbered passages; the second carried the
    // tool's result back.
    expect(model.requests).toHaveLength(2);
    const first = model.requests[0];
    expect(first?.headers.authorization).toBe('Bearer test-key');
    expect(first?.body).toMatchObject({ model: 'scripted-model', stream: true });
    const tools = (first?.body.tools ?? []) as { function: { name: string } }[];
    expect(tools.map((tool) => tool.function.name)).toEqual(expect.arrayContaining(['echo', 'get-env']));
    const system = JSON.stringify(messagesOf(0).filter((m) => m.role === 'system'));
    expect(system).toContain('Always check with the echo tool first.');
    expect(system).toContain('[1] Travel policy');
    expect(JSON.stringify(messagesOf(0))).toContain('booking the trip to Lyon');
    const toolMessage = messagesOf(1).find((m) => m.role === 'tool');
    expect(JSON.stringify(toolMessage?.content)).toContain('Echo: checking the travel policy');
    for (const request of model.requests) {
      expect(request.raw).not.toContain('zebra');
      expect(request.raw).not.toContain(SECRET);
    }

    const [run] = await runsOf(agent);
    expect(run).toMatchObject({
      model: 'openai:scripted-model',
      outcome: 'succeeded',
      toolCalls: ['echo'],
      answerMessageId: thinking?.id,
      channelId: ws.general.id,
    });
    expect(run?.tokensIn).toBeGreaterThanOrEqual(120);
    expect(run?.tokensOut).toBeGreaterThanOrEqual(12);
  }, 60_000);

  it('never sends a connection variable to the model, even when a tool prints it', async () => {
    const agent = await newAgent();
    model.play({ toolCalls: [{ name: 'get-env', arguments: {} }] }, { text: 'Your environment is set.' });
    const { edited } = await watch(asker, ws.general);
    const question = await ask(agent, 'What is in your environment?');
    const answer = await finalAnswer(edited, question);
    const card = answer.agentAnswer?.toolCalls[0];
    expect(card).toMatchObject({ name: 'get-env', status: 'succeeded' });
    expect(card?.result).toContain('SECRET_TOKEN');
    expect(card?.result).toContain(MASKED_VALUE);
    expect(card?.result).not.toContain(SECRET);
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]?.raw).toContain('SECRET_TOKEN');
    for (const request of model.requests) expect(request.raw).not.toContain(SECRET);
  }, 60_000);

  it("stops at the agent's cap on tool steps and says so", async () => {
    const agent = await newAgent({ maxToolSteps: 2 });
    const echo = (n: number) => ({ toolCalls: [{ name: 'echo', arguments: { message: `round ${n}` } }] });
    model.play(echo(1), echo(2), echo(3), { text: 'never reached' });
    const { edited } = await watch(asker, ws.general);
    const question = await ask(agent, 'Echo forever');
    const answer = await finalAnswer(edited, question);
    expect(answer.agentAnswer?.status).toBe('done');
    expect(answer.content).toContain('I stopped after 2 tool steps');
    expect(answer.agentAnswer?.toolCalls.map((c) => c.status)).toEqual(['succeeded', 'succeeded']);
    expect(model.requests).toHaveLength(2);
    const [run] = await runsOf(agent);
    expect(run).toMatchObject({ outcome: 'stopped', toolCalls: ['echo', 'echo'] });
  }, 60_000);

  it('stops after three tool failures in a row', async () => {
    const agent = await newAgent();
    const bad = { toolCalls: [{ name: 'get-sum', arguments: { a: 'one', b: 'two' } }] };
    model.play(bad, bad, bad, bad, { text: 'never reached' });
    const { edited } = await watch(asker, ws.general);
    const question = await ask(agent, 'Add things badly');
    const answer = await finalAnswer(edited, question);
    expect(answer.content).toContain('I stopped after 3 tool calls in a row failed');
    expect(answer.agentAnswer?.toolCalls.map((c) => c.status)).toEqual(['failed', 'failed', 'failed']);
    expect(answer.agentAnswer?.toolCalls[0]?.result).toBeTruthy();
    expect(model.requests).toHaveLength(3);
    const runs = await runsOf(agent);
    expect(runs[0]).toMatchObject({ outcome: 'stopped' });
  }, 60_000);

  it('ends with a clear message when the model server answers with an error', async () => {
    const agent = await newAgent({}, {}, false);
    model.play({
      status: 401,
      body: JSON.stringify({
        error: { message: 'Incorrect API key provided', type: 'invalid_request_error' },
      }),
    });
    const { edited } = await watch(asker, ws.general);
    const question = await ask(agent, 'Hello?');
    const answer = await finalAnswer(edited, question);
    expect(answer.agentAnswer?.status).toBe('failed');
    expect(answer.content).toContain('Sorry, I could not finish this answer');
    // What went wrong with the key is for admins (the run below), not for the channel.
    expect(answer.content).not.toMatch(/HTTP 401|Incorrect API key/);
    const [run] = await runsOf(agent);
    expect(run).toMatchObject({ outcome: 'failed', model: 'openai:scripted-model' });
    expect(run?.error).toContain('Incorrect API key provided');
  }, 60_000);

  it('fails clearly when the agent names a provider that is not configured', async () => {
    const agent = await newAgent({ model: 'anthropic:claude-test' }, {}, false);
    const { edited } = await watch(asker, ws.general);
    const question = await ask(agent, 'Hello?');
    const answer = await finalAnswer(edited, question);
    expect(answer.agentAnswer?.status).toBe('failed');
    expect(answer.content).toContain("this agent's language model is not available on this server");
    expect(answer.content).not.toMatch(/anthropic:claude-test|ANTHROPIC_API_KEY/);
    const [run] = await runsOf(agent);
    expect(run?.error).toContain('ANTHROPIC_API_KEY');
    expect(model.requests).toHaveLength(0);
    const listed = await asker.api.get<{ defaultModel: string | null }>(`/api/institutions/${ws.id}/agents`);
    expect(listed.body.defaultModel).toBe('openai:scripted-model');
  }, 60_000);

  it('uses the model named by the agent on the default provider', async () => {
    const agent = await newAgent({ model: 'other-model' }, {}, false);
    model.play({ text: 'Hi from the other model.' });
    const { edited } = await watch(asker, ws.general);
    const question = await ask(agent, 'Hello?');
    const answer = await finalAnswer(edited, question);
    expect(answer.content).toBe('<p>Hi from the other model.</p>');
    expect(answer.agentAnswer?.citations).toEqual([]);
    expect(model.requests[0]?.body.model).toBe('other-model');
    const [run] = await runsOf(agent);
    expect(run).toMatchObject({ model: 'openai:other-model', outcome: 'succeeded' });
  }, 60_000);
});

/**
 * Where nothing listens: a port freed after a probe was handed to another test's server (a 404 from it
 * once failed the run); port 1 is privileged and never given out as an ephemeral port.
 */
const DOWN_PORT = 1;

// Provider choice: with both providers configured the OpenAI-compatible one is the default (here it points
// at a port where nothing listens: a model server that is down), and an agent naming anthropic:NAME
// streams from the Anthropic Messages API (a local server speaking it).
describe.each(databases)('model providers (%s)', (kind) => {
  let t: TestServer;
  let ws: Workspace;
  let asker: TestUser;
  let anthropic: AnthropicScriptServer;

  beforeAll(async () => {
    anthropic = await startAnthropicScriptServer();
    t = await startTestServer(kind, {
      env: {
        OPENAI_BASE_URL: `http://127.0.0.1:${DOWN_PORT}/v1`,
        OPENAI_MODEL: 'local-llama',
        ANTHROPIC_API_KEY: 'anthropic-test-key',
        ANTHROPIC_BASE_URL: anthropic.url,
        ANTHROPIC_MODEL: 'claude-default',
        AGENT_MODELS: 'openai:local-llama,anthropic:claude-test',
      },
    });
    ws = await makeWorkspace(t);
    asker = await addMember(t, ws);
  });
  afterEach(() => disconnectAll());
  afterAll(async () => {
    await t.close();
    await anthropic.close();
  });

  async function askNew(settings: Record<string, unknown>) {
    const created = await ws.owner.api.post<{ agent: Agent }>(`/api/institutions/${ws.id}/agents`, {
      name: `Model ${randomUUID().slice(0, 4)}`,
      ...settings,
    });
    const agent = created.body.agent;
    const socket = await connect(t, asker.token);
    await new Promise((resolve) =>
      socket.emit('joinChannel', { institutionId: ws.id, channelId: ws.general.id }, resolve),
    );
    const edited = collect(socket, 'newEditMessage');
    const res = await asker.api.post<Message>(messagesUrl(ws, ws.general.id), {
      genId: randomUUID(),
      content: `<p><span data-type="mention" data-id="${agent.id}" class="mention">@${agent.name}</span> Hello?</p>`,
      mentions: [{ type: 'agent', id: agent.id }],
    });
    const isFinal = (m: Message) =>
      m.replyTo === res.body.id && (m.agentAnswer?.status === 'done' || m.agentAnswer?.status === 'failed');
    await eventually(() => edited.some(isFinal), 30_000);
    return { edits: edited.filter((m) => m.replyTo === res.body.id), final: edited.find(isFinal) as Message };
  }

  it('lists the OpenAI-compatible provider as the default when both are configured', async () => {
    const listed = await asker.api.get<{ defaultModel: string | null }>(`/api/institutions/${ws.id}/agents`);
    expect(listed.body.defaultModel).toBe('openai:local-llama');
  });

  it('ends with a clear message when the model server is down', async () => {
    const { final } = await askNew({});
    expect(final.agentAnswer?.status).toBe('failed');
    // The channel reads a plain sentence; the model's error is for admins, in the run's audit.
    expect(final.content).toContain('the language model did not answer');
    expect(final.content).not.toMatch(/openai:local-llama|connect|ECONNREFUSED|fetch failed/i);
    const runs = await t.ctx.db.select().from(agentRuns).where(eq(agentRuns.answerMessageId, final.id));
    for (let i = 0; i < 50 && runs.length === 0; i++) {
      await pause(100);
      runs.push(...(await t.ctx.db.select().from(agentRuns).where(eq(agentRuns.answerMessageId, final.id))));
    }
    const run = runs[0];
    expect(run?.error).toContain('The language model (openai:local-llama) failed');
    expect(run?.error).toMatch(/connect|ECONNREFUSED|fetch failed/i);
  }, 40_000);

  it('streams from Anthropic when the agent names it', async () => {
    anthropic.play({
      text: 'Bonjour from the Messages API, streamed in parts.',
      delayMs: 400,
      usage: { input_tokens: 42, output_tokens: 9 },
    });
    const { edits, final } = await askNew({ model: 'anthropic:claude-test' });
    expect(final.content).toBe('<p>Bonjour from the Messages API, streamed in parts.</p>');
    expect(edits.filter((m) => m.agentAnswer?.status === 'streaming').length).toBeGreaterThanOrEqual(2);
    const request = anthropic.requests.at(-1);
    expect(request?.headers['x-api-key']).toBe('anthropic-test-key');
    expect(request?.body).toMatchObject({ model: 'claude-test', stream: true });
    const runs = await t.ctx.db.select().from(agentRuns).where(eq(agentRuns.answerMessageId, final.id));
    for (let i = 0; i < 50 && runs.length === 0; i++) {
      await pause(100);
      runs.push(...(await t.ctx.db.select().from(agentRuns).where(eq(agentRuns.answerMessageId, final.id))));
    }
    expect(runs[0]).toMatchObject({ model: 'anthropic:claude-test', tokensIn: 42, tokensOut: 9 });
  }, 40_000);
});
