// Tool calls that wait for the asker: the memory reference server marks delete_entities destructive, so a
// model's call to it is shown as a card awaiting approval and runs only when the member who asked approves
// (anyone else gets 403, a second decision 409); a rejection is told to the model; an agent that asks
// before every tool waits on harmless ones too, and no decision in time counts as a rejection. With
// PostgreSQL, the decision also works when it reaches another server node than the run.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Agent, McpConnection, Message } from '../../schemas/protocol/index.ts';
import { createApp } from '../../server/app.ts';
import { agentRuns } from '../../server/db/schema.ts';
import { type OpenAIScriptServer, startOpenAIScriptServer } from '../fixtures/openai-script-server.ts';
import { databases, makeApi, startTestServer, type TestServer, type TestUser } from './harness.ts';
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

const APPROVAL_TIMEOUT_MS = 4_000;

describe.each(databases)('tool calls waiting for approval (%s)', (kind) => {
  let t: TestServer;
  let ws: Workspace;
  let asker: TestUser;
  let bystander: TestUser;
  let model: OpenAIScriptServer;

  beforeAll(async () => {
    model = await startOpenAIScriptServer();
    t = await startTestServer(kind, {
      env: {
        OPENAI_BASE_URL: model.url,
        OPENAI_MODEL: 'scripted-model',
        MCP_CONNECT_TIMEOUT_MS: '20000',
        MCP_STDIO_ALLOWLIST: 'mcp-server-memory,mcp-server-everything stdio',
        AGENT_APPROVAL_TIMEOUT_MS: String(APPROVAL_TIMEOUT_MS),
      },
    });
    ws = await makeWorkspace(t);
    asker = await addMember(t, ws);
    bystander = await addMember(t, ws);
  });
  afterEach(() => {
    disconnectAll();
    model.reset();
  });
  afterAll(async () => {
    await t.close();
    await model.close();
  });

  /** An agent with the memory server (its graph in a file of its own) or the everything server. */
  async function newAgent(server: 'memory' | 'everything', settings: Record<string, unknown> = {}) {
    const res = await ws.owner.api.post<{ agent: Agent }>(`/api/institutions/${ws.id}/agents`, {
      name: `Keeper ${randomUUID().slice(0, 4)}`,
      ...settings,
    });
    const agent = res.body.agent;
    const conn = await ws.owner.api.post<{ connection: McpConnection }>(
      `/api/institutions/${ws.id}/agents/${agent.id}/mcp-connections`,
      {
        name: server === 'memory' ? 'Memory' : 'Everything',
        transport:
          server === 'memory'
            ? { type: 'stdio', command: 'mcp-server-memory', args: [] }
            : { type: 'stdio', command: 'mcp-server-everything', args: ['stdio'] },
        environmentVariables: {},
      },
    );
    expect(conn.status).toBe(201);
    // The server keeps each Memory connection's graph in a file of its own.
    const memoryFile = path.join(t.config.dataDir, 'mcp', ws.id, `${conn.body.connection.id}.jsonl`);
    return { agent, memoryFile };
  }

  async function ask(agent: Agent, question: string) {
    const socket = await connect(t, asker.token);
    await new Promise((resolve) =>
      socket.emit('joinChannel', { institutionId: ws.id, channelId: ws.general.id }, resolve),
    );
    const edited = collect(socket, 'newEditMessage');
    const res = await asker.api.post<Message>(messagesUrl(ws, ws.general.id), {
      genId: randomUUID(),
      content: `<p><span data-type="mention" data-id="${agent.id}" class="mention">@${agent.name}</span> ${question}</p>`,
      mentions: [{ type: 'agent', id: agent.id }],
    });
    expect(res.status).toBe(201);
    const question_ = res.body;
    const waitFor = async (check: (m: Message) => boolean, ms = 30_000) => {
      await eventually(() => edited.some((m) => m.replyTo === question_.id && check(m)), ms);
      return edited.find((m) => m.replyTo === question_.id && check(m)) as Message;
    };
    return { waitFor };
  }

  const decisionUrl = (messageId: string, toolCallId: string) =>
    `${messagesUrl(ws, ws.general.id)}/${messageId}/tool-calls/${encodeURIComponent(toolCallId)}/decision`;
  const isFinal = (m: Message) => m.agentAnswer?.status === 'done' || m.agentAnswer?.status === 'failed';

  it('runs a destructive tool only when the asker approves; nobody else may decide', async () => {
    const { agent, memoryFile } = await newAgent('memory');
    model.play(
      {
        toolCalls: [
          {
            name: 'create_entities',
            arguments: { entities: [{ name: 'Lyon trip', entityType: 'trip', observations: ['booked'] }] },
          },
        ],
      },
      { toolCalls: [{ name: 'delete_entities', arguments: { entityNames: ['Lyon trip'] } }] },
      { text: 'Deleted the Lyon trip.' },
    );
    const run = await ask(agent, 'Remember the Lyon trip, then forget it.');
    const waiting = await run.waitFor((m) => m.agentAnswer?.status === 'awaiting_approval');
    const [created, deletion] = waiting.agentAnswer?.toolCalls ?? [];
    expect(created).toMatchObject({ name: 'create_entities', status: 'succeeded', destructive: false });
    expect(deletion).toMatchObject({
      name: 'delete_entities',
      connectionName: 'Memory',
      status: 'awaiting_approval',
      destructive: true,
      arguments: JSON.stringify({ entityNames: ['Lyon trip'] }),
    });
    const callId = deletion?.id ?? '';
    // Not run while it waits.
    await pause(300);
    expect(readFileSync(memoryFile, 'utf8')).toContain('Lyon trip');

    for (const other of [bystander, ws.owner]) {
      const refused = await other.api.post(decisionUrl(waiting.id, callId), { approve: true });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toContain('Only the person who asked');
    }
    expect((await asker.api.post(decisionUrl(waiting.id, 'no-such-call'), { approve: true })).status).toBe(
      404,
    );
    expect((await asker.api.post(decisionUrl(randomUUID(), callId), { approve: true })).status).toBe(404);
    expect((await asker.api.post(decisionUrl(waiting.id, callId), { approve: 'yes' })).status).toBe(400);

    const approved = await asker.api.post<{ message: Message }>(decisionUrl(waiting.id, callId), {
      approve: true,
    });
    expect(approved.status).toBe(200);
    expect(approved.body.message.agentAnswer?.toolCalls[1]?.status).toBe('running');

    const final = await run.waitFor(isFinal);
    expect(final.content).toBe('<p>Deleted the Lyon trip.</p>');
    expect(final.agentAnswer?.toolCalls.map((c) => [c.name, c.status])).toEqual([
      ['create_entities', 'succeeded'],
      ['delete_entities', 'succeeded'],
    ]);
    expect(readFileSync(memoryFile, 'utf8')).not.toContain('Lyon trip');
    const again = await asker.api.post(decisionUrl(waiting.id, callId), { approve: false });
    expect(again.status).toBe(409);
    const audited = async () => t.ctx.db.select().from(agentRuns).where(eq(agentRuns.agentId, agent.id));
    for (let i = 0; i < 50 && (await audited()).length === 0; i++) await pause(100);
    expect((await audited())[0]).toMatchObject({
      outcome: 'succeeded',
      toolCalls: ['create_entities', 'delete_entities'],
    });
  }, 60_000);

  it('does not run a rejected call and tells the model the person declined', async () => {
    const { agent } = await newAgent('memory');
    model.play(
      { toolCalls: [{ name: 'delete_entities', arguments: { entityNames: ['Budget'] } }] },
      { text: 'All right, I left it alone.' },
    );
    const run = await ask(agent, 'Forget the budget.');
    const waiting = await run.waitFor((m) => m.agentAnswer?.status === 'awaiting_approval');
    const callId = waiting.agentAnswer?.toolCalls[0]?.id ?? '';
    const rejected = await asker.api.post(decisionUrl(waiting.id, callId), { approve: false });
    expect(rejected.status).toBe(200);
    const final = await run.waitFor(isFinal);
    expect(final.agentAnswer?.toolCalls[0]).toMatchObject({
      status: 'rejected',
      result: 'Rejected by the person who asked.',
    });
    expect(final.content).toBe('<p>All right, I left it alone.</p>');
    expect(model.requests[1]?.raw).toContain('declined');
  }, 60_000);

  it('makes a typed /tool command wait for approval too when the tool is destructive', async () => {
    const { agent, memoryFile } = await newAgent('memory');
    const seeded = await ask(
      agent,
      '/create_entities {"entities":[{"name":"Old plan","entityType":"plan","observations":["x"]}]}',
    );
    const made = await seeded.waitFor(isFinal);
    expect(made.agentAnswer?.toolCalls[0]).toMatchObject({ name: 'create_entities', status: 'succeeded' });
    expect(readFileSync(memoryFile, 'utf8')).toContain('Old plan');

    const run = await ask(agent, '/delete_entities {"entityNames":["Old plan"]}');
    const waiting = await run.waitFor((m) => m.agentAnswer?.status === 'awaiting_approval');
    const card = waiting.agentAnswer?.toolCalls[0];
    expect(card).toMatchObject({ name: 'delete_entities', status: 'awaiting_approval', destructive: true });
    await pause(300);
    expect(readFileSync(memoryFile, 'utf8')).toContain('Old plan');
    const refused = await bystander.api.post(decisionUrl(waiting.id, card?.id ?? ''), { approve: true });
    expect(refused.status).toBe(403);
    const rejected = await asker.api.post(decisionUrl(waiting.id, card?.id ?? ''), { approve: false });
    expect(rejected.status).toBe(200);
    const final = await run.waitFor(isFinal);
    expect(final.agentAnswer?.toolCalls[0]?.status).toBe('rejected');
    expect(final.content).toContain('was not run');
    expect(readFileSync(memoryFile, 'utf8')).toContain('Old plan');
    // No model was asked anything: the command is run by the server itself.
    expect(model.requests).toHaveLength(0);
  }, 60_000);

  it('asks before every tool when the agent says so, and treats no decision in time as a rejection', async () => {
    const { agent } = await newAgent('everything', { approveAllTools: true });
    model.play(
      { toolCalls: [{ name: 'echo', arguments: { message: 'hello' } }] },
      { text: 'Nobody approved, so I did not echo.' },
    );
    const run = await ask(agent, 'Echo hello.');
    const waiting = await run.waitFor((m) => m.agentAnswer?.status === 'awaiting_approval');
    expect(waiting.agentAnswer?.toolCalls[0]).toMatchObject({ name: 'echo', destructive: false });
    const timedOut = await run.waitFor(
      (m) => m.agentAnswer?.toolCalls[0]?.status === 'rejected',
      APPROVAL_TIMEOUT_MS + 10_000,
    );
    expect(timedOut.agentAnswer?.toolCalls[0]?.result).toBe('No decision within 4 s: not run.');
    const final = await run.waitFor(isFinal);
    expect(final.content).toContain('Nobody approved');
    expect(model.requests[1]?.raw).toContain('Nobody approved this tool call in time');
    const late = await asker.api.post(decisionUrl(waiting.id, waiting.agentAnswer?.toolCalls[0]?.id ?? ''), {
      approve: true,
    });
    expect(late.status).toBe(409);
  }, 60_000);

  // Two nodes share one database only on PostgreSQL (PGlite is one process's), so the case exists only there.
  if (kind === 'postgres')
    it('takes a decision that reaches another server node', async () => {
      const other = await createApp({ ...t.config, PORT: 0 });
      const { url } = await other.listen();
      try {
        const { agent } = await newAgent('memory');
        model.play(
          { toolCalls: [{ name: 'delete_entities', arguments: { entityNames: ['Nobody'] } }] },
          { text: 'Done on the other node.' },
        );
        const run = await ask(agent, 'Forget nobody.');
        const waiting = await run.waitFor((m) => m.agentAnswer?.status === 'awaiting_approval');
        const callId = waiting.agentAnswer?.toolCalls[0]?.id ?? '';
        const viaOther = await makeApi(url, asker.token).post(decisionUrl(waiting.id, callId), {
          approve: true,
        });
        expect(viaOther.status).toBe(200);
        const final = await run.waitFor(isFinal);
        expect(final.agentAnswer?.toolCalls[0]?.status).toBe('succeeded');
        expect(final.content).toBe('<p>Done on the other node.</p>');
      } finally {
        await other.close();
      }
    }, 60_000);
});
