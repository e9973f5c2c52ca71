// With no language model configured, `@agent /tool-name {json}` runs that MCP tool directly on the agent's
// connections (here the reference "everything" server over stdio) and the answer shows the result; an
// unknown tool or bad JSON gets a clear message, never silence.
import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Agent, Message } from '../../schemas/protocol/index.ts';
import { messages } from '../../server/db/schema.ts';
import { databases, startTestServer, type TestServer, type TestUser } from './harness.ts';
import {
  addMember,
  collect,
  connect,
  disconnectAll,
  eventually,
  makeWorkspace,
  messagesUrl,
  type Workspace,
} from './messaging-world.ts';

describe.each(databases)('MCP tool commands without a model (%s)', (kind) => {
  let t: TestServer;
  let ws: Workspace;
  let asker: TestUser;
  let agent: Agent;

  beforeAll(async () => {
    t = await startTestServer(kind, {
      env: { MCP_CONNECT_TIMEOUT_MS: '20000', MCP_STDIO_ALLOWLIST: 'mcp-server-everything stdio' },
    });
    ws = await makeWorkspace(t);
    asker = await addMember(t, ws);
    const res = await ws.owner.api.post<{ agent: Agent }>(`/api/institutions/${ws.id}/agents`, {
      name: 'Toolsmith',
    });
    agent = res.body.agent;
    const conn = await ws.owner.api.post(`/api/institutions/${ws.id}/agents/${agent.id}/mcp-connections`, {
      name: 'Everything',
      transport: { type: 'stdio', command: 'mcp-server-everything', args: ['stdio'] },
      environmentVariables: {},
    });
    expect(conn.status).toBe(201);
  });
  afterEach(() => disconnectAll());
  afterAll(() => t.close());

  /** Posts `@Toolsmith <command>` in #general and resolves with the agent's final answer. */
  async function command(text: string): Promise<string> {
    return (await commandAnswer(text)).content;
  }

  async function commandAnswer(text: string): Promise<Message> {
    const socket = await connect(t, asker.token);
    await new Promise((resolve) =>
      socket.emit('joinChannel', { institutionId: ws.id, channelId: ws.general.id }, resolve),
    );
    const edited = collect(socket, 'newEditMessage');
    const escaped = text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    const res = await asker.api.post<Message>(messagesUrl(ws, ws.general.id), {
      genId: randomUUID(),
      content: `<p><span data-type="mention" data-id="${agent.id}" class="mention">@Toolsmith</span> ${escaped}</p>`,
      mentions: [{ type: 'agent', id: agent.id }],
    });
    expect(res.status).toBe(201);
    await eventually(() => edited.some((m) => m.replyTo === res.body.id), 30_000);
    return edited.find((m) => m.replyTo === res.body.id) as Message;
  }

  it('runs the named tool with the JSON arguments and shows its text as a code block', async () => {
    const answer = await command('/echo {"message":"hi from the channel"}');
    expect(answer).toContain('<pre><code>Echo: hi from the channel</code></pre>');
  }, 40_000);

  it('shows the call as a tool-call card with its arguments and result', async () => {
    const answer = await commandAnswer('/get-sum {"a":2,"b":3}');
    expect(answer.agentAnswer).toMatchObject({
      status: 'done',
      toolCalls: [
        {
          name: 'get-sum',
          connectionName: 'Everything',
          arguments: '{"a":2,"b":3}',
          status: 'succeeded',
          result: expect.stringContaining('5'),
          destructive: false,
        },
      ],
    });
  }, 40_000);

  it('says plainly when no connected tool has that name', async () => {
    const answer = await command('/no-such-tool {}');
    expect(answer).toContain('No connected tool is named <code>no-such-tool</code>');
    const [final] = await t.ctx.db
      .select()
      .from(messages)
      .where(and(eq(messages.channelId, ws.general.id), eq(messages.memberId, agent.id)))
      .orderBy(desc(messages.createdSeq))
      .limit(1);
    expect(final?.agentAnswer).toMatchObject({ status: 'failed', toolCalls: [] });
  }, 40_000);

  it('says so when the arguments are not valid JSON', async () => {
    const answer = await command('/echo {message: hi}');
    expect(answer).toContain('not valid JSON');
  }, 40_000);
});
