// Server-side request forgery through HTTP MCP connections, replayed through the public API by a stranger
// who created their own workspace: a loopback service on a random port must receive nothing (connect test,
// saved connection used by an agent, SSE fallback), error bodies must not come back, and a saved
// connection re-pointed at another host must not carry its stored secrets there.

import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { hostname } from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Agent, McpConnection, McpConnectResponse, Message } from '../../schemas/protocol/index.ts';
import { type ScriptHttpServer, serveScript } from '../fixtures/script-http.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import {
  collect,
  connect as connectSocket,
  disconnectAll,
  eventually,
  makeWorkspace,
  messagesUrl,
  type Workspace,
} from './messaging-world.ts';

interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

/** A loopback service that records every request and answers each with `status` and a telling body. */
async function loopbackService(
  status = 500,
): Promise<{ origin: string; seen: Recorded[]; server: ScriptHttpServer }> {
  const seen: Recorded[] = [];
  const server = await serveScript(async (req, _raw, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end('INTERNAL-ADMIN-PANEL db_password=hunter2');
  });
  return { origin: new URL(server.url).origin, seen, server };
}

interface Stranger extends Workspace {
  agent: Agent;
}

async function stranger(t: TestServer): Promise<Stranger> {
  const ws = await makeWorkspace(t, `Mine ${randomUUID().slice(0, 4)}`);
  const made = await ws.owner.api.post<{ agent: Agent }>(`/api/institutions/${ws.id}/agents`, {
    name: 'Helper',
  });
  if (made.status !== 201) throw new Error(`agent: ${made.status}`);
  return { ...ws, agent: made.body.agent };
}

const connectTest = (s: Stranger, body: unknown) =>
  s.owner.api.post<McpConnectResponse>(`/api/institutions/${s.id}/mcp-connections/connect`, body);
const connectionsUrl = (s: Stranger, rest = '') =>
  `/api/institutions/${s.id}/agents/${s.agent.id}/mcp-connections${rest}`;

async function askTool(t: TestServer, s: Stranger, text: string): Promise<string> {
  const socket = await connectSocket(t, s.owner.token);
  await new Promise((resolve) =>
    socket.emit('joinChannel', { institutionId: s.id, channelId: s.general.id }, resolve),
  );
  const edited = collect(socket, 'newEditMessage');
  const res = await s.owner.api.post<Message>(messagesUrl(s, s.general.id), {
    genId: randomUUID(),
    content: `<p><span data-type="mention" data-id="${s.agent.id}" class="mention">@Helper</span> ${text}</p>`,
    mentions: [{ type: 'agent', id: s.agent.id }],
  });
  expect(res.status).toBe(201);
  await eventually(() => edited.some((m) => m.replyTo === res.body.id && !!m.agentAnswer), 30_000);
  return (edited.filter((m) => m.replyTo === res.body.id).at(-1) as Message).content;
}

describe.each(databases)('HTTP MCP connections under the default configuration (%s)', (kind) => {
  let t: TestServer;
  let s: Stranger;
  let target: Awaited<ReturnType<typeof loopbackService>>;
  beforeAll(async () => {
    t = await startTestServer(kind, { env: { MCP_CONNECT_TIMEOUT_MS: '5000' } });
    s = await stranger(t);
    target = await loopbackService(404);
  });
  afterEach(() => disconnectAll());
  afterAll(async () => {
    await target.server.close();
    await t.close();
  });

  it('refuses a loopback or private address with a 400 before any request, in a test or a save', async () => {
    const port = new URL(target.origin).port;
    for (const url of [
      `${target.origin}/mcp`,
      `http://localhost:${port}/mcp`,
      `http://[::ffff:127.0.0.1]:${port}/mcp`,
      `http://[::ffff:7f00:1]:${port}/mcp`,
      `http://2130706433:${port}/mcp`,
      `http://0x7f.1:${port}/mcp`,
      `http://[64:ff9b::127.0.0.1]:${port}/mcp`,
      `http://[2002:7f00:1::]:${port}/mcp`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://100.100.100.200/latest/meta-data/',
    ]) {
      const tested = await connectTest(s, { transport: { type: 'http', url } });
      expect(tested.status, url).toBe(400);
      const saved = await s.owner.api.post(connectionsUrl(s), {
        name: 'Probe',
        transport: { type: 'http', url },
      });
      expect(saved.status, url).toBe(400);
    }
    expect(target.seen).toEqual([]);
  }, 30_000);

  it('refuses a host name that resolves to loopback when connecting, over streamable HTTP and SSE', async () => {
    // The host's own name (127.0.0.1 in /etc/hosts) cannot be judged from the form: only the lookup made
    // when connecting can refuse it.
    const url = `http://${hostname()}:${new URL(target.origin).port}/mcp`;
    const tested = await connectTest(s, { transport: { type: 'http', url } });
    expect(tested.status).toBe(200);
    expect(tested.body).toEqual({ error: expect.stringContaining('private-network') });
    expect(target.seen).toEqual([]);
  }, 30_000);

  it('never reaches loopback from a saved connection when an agent runs its tools', async () => {
    const url = `http://${hostname()}:${new URL(target.origin).port}/mcp`;
    const saved = await s.owner.api.post<{ connection: McpConnection }>(connectionsUrl(s), {
      name: 'Intranet',
      transport: { type: 'http', url },
    });
    expect(saved.status).toBe(201);
    const answer = await askTool(t, s, '/anything {}');
    expect(answer).toContain('Intranet');
    expect(answer).not.toContain('INTERNAL-ADMIN-PANEL');
    expect(target.seen).toEqual([]);
    await s.owner.api.delete(connectionsUrl(s, `/${saved.body.connection.id}`));
  }, 40_000);
});

describe.each(databases)('HTTP MCP connections where the operator allows private addresses (%s)', (kind) => {
  let t: TestServer;
  let s: Stranger;
  beforeAll(async () => {
    t = await startTestServer(kind, {
      env: { MCP_CONNECT_TIMEOUT_MS: '5000', MCP_HTTP_ALLOW_PRIVATE: 'true' },
    });
    s = await stranger(t);
  });
  afterAll(() => t.close());

  it('answers a short reason without the error body the service sent', async () => {
    const target = await loopbackService(500);
    try {
      const res = await connectTest(s, { transport: { type: 'http', url: `${target.origin}/mcp` } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ error: expect.stringContaining('HTTP 500') });
      expect(JSON.stringify(res.body)).not.toContain('INTERNAL-ADMIN-PANEL');
      expect(JSON.stringify(res.body)).not.toContain('hunter2');
    } finally {
      await target.server.close();
    }
  }, 30_000);

  it('does not follow a redirect to another origin', async () => {
    const inner = await loopbackService(404);
    const outer = await serveScript(async (_req, _raw, res) => {
      res.writeHead(307, { location: `${inner.origin}/mcp` });
      res.end();
    });
    try {
      const res = await connectTest(s, {
        transport: { type: 'http', url: `${new URL(outer.url).origin}/mcp` },
      });
      expect(res.body).toEqual({ error: expect.stringContaining('Could not connect') });
      expect(inner.seen).toEqual([]);
    } finally {
      await outer.close();
      await inner.server.close();
    }
  }, 30_000);

  it('makes a connection re-pointed at a new host take its secrets again, and never sends them there', async () => {
    const home = await loopbackService(404);
    const elsewhere = await loopbackService(404);
    try {
      const transport = (origin: string) => ({
        type: 'http',
        url: `${origin}/mcp`,
        headers: { authorization: `Bearer \${TOKEN}` },
      });
      const saved = await s.owner.api.post<{ connection: McpConnection }>(connectionsUrl(s), {
        name: 'Remote',
        transport: transport(home.origin),
        environmentVariables: { TOKEN: 'tok-secret-9981' },
      });
      expect(saved.status).toBe(201);
      const id = saved.body.connection.id;
      // The stored secret still goes to its own host.
      await connectTest(s, {
        id,
        transport: transport(home.origin),
        environmentVariables: { TOKEN: '••••' },
      });
      expect(JSON.stringify(home.seen)).toContain('tok-secret-9981');

      const moved = await s.owner.api.put(connectionsUrl(s, `/${id}`), {
        name: 'Remote',
        transport: transport(elsewhere.origin),
        environmentVariables: { TOKEN: '••••' },
      });
      expect(moved.status).toBe(400);
      expect(moved.body.message).toMatch(/enter TOKEN again/);
      const tested = await connectTest(s, {
        id,
        transport: transport(elsewhere.origin),
        environmentVariables: { TOKEN: '••••' },
      });
      expect(tested.status).toBe(400);
      // Left out, the stored value is not filled in for the new host either.
      await connectTest(s, { id, transport: transport(elsewhere.origin), environmentVariables: {} });
      expect(JSON.stringify(elsewhere.seen)).not.toContain('tok-secret-9981');
      // Given again, it is the admin's own choice to send it there.
      const retyped = await s.owner.api.put(connectionsUrl(s, `/${id}`), {
        name: 'Remote',
        transport: transport(elsewhere.origin),
        environmentVariables: { TOKEN: 'tok-new-1234' },
      });
      expect(retyped.status).toBe(200);
    } finally {
      await home.server.close();
      await elsewhere.server.close();
    }
  }, 40_000);
});
