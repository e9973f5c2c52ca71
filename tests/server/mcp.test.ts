// MCP connections against real MCP servers started locally: the bundled reference "everything" server over
// stdio and streamable HTTP, the memory server, and a fixture that dies mid-call. Admins configure them;
// variables are stored encrypted and shown masked; a stdio server sees its own variables, never the host's.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent, McpConnection, McpConnectResponse, McpTemplate } from '../../schemas/protocol/index.ts';
import { mcpConnections } from '../../server/db/schema.ts';
import { callTool } from '../../server/mcp/connections.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import { makeTeam, type Team } from './workspace-world.ts';

const root = path.resolve(import.meta.dirname, '../..');
const fixture = path.join(import.meta.dirname, 'fixtures/crashing-mcp-server.ts');
const everything = { type: 'stdio', command: 'mcp-server-everything', args: ['stdio'] } as const;
// The loader by its file URL: the child runs in its own directory, where a bare `tsx` would not resolve.
const tsx = import.meta.resolve('tsx');
const crashing = { type: 'stdio', command: process.execPath, args: ['--import', tsx, fixture] } as const;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The reference server in one of its HTTP modes, on a free port; resolves once it listens. */
async function startEverythingOverHttp(
  mode: 'streamableHttp' | 'sse',
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const script = realpathSync(path.join(root, 'node_modules/.bin/mcp-server-everything'));
  const child = spawn(process.execPath, [script, mode], { env: { ...process.env, PORT: String(port) } });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`everything ${mode} did not start`)), 15_000);
    child.stderr.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes(String(port))) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`everything ${mode} exited ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`, child };
}

describe.each(databases)('MCP connections on %s', (kind) => {
  let t: TestServer;
  let team: Team;
  let agentId = '';
  beforeAll(async () => {
    process.env.SECRET_TEST = 'the-host-secret';
    t = await startTestServer(kind, {
      env: {
        MCP_STDIO_ALLOWLIST: `mcp-server-memory,mcp-server-everything stdio,${process.execPath} --import ${tsx} ${fixture}`,
        MCP_STDIO_ENV_ALLOWLIST: 'MY_TOKEN,KEEP_ME,DROP_ME,NEW_ONE',
        // The reference server listens on 127.0.0.1 in these tests.
        MCP_HTTP_ALLOW_PRIVATE: 'true',
        MCP_CONNECT_TIMEOUT_MS: '20000',
        MCP_TOOL_TIMEOUT_MS: '10000',
      },
    });
    team = await makeTeam(t);
    const made = await team.admin.api.post<{ agent: Agent }>(`/api/institutions/${team.ws.id}/agents`, {
      name: 'Connector',
    });
    agentId = made.body.agent.id;
  });
  afterAll(async () => {
    delete process.env.SECRET_TEST;
    await t?.close();
  });

  const connections = (rest = '') =>
    `/api/institutions/${team.ws.id}/agents/${agentId}/mcp-connections${rest}`;
  const connect = (body: unknown) =>
    team.admin.api.post<McpConnectResponse>(`/api/institutions/${team.ws.id}/mcp-connections/connect`, body);

  it('lists the tools of the reference server over stdio without saving anything', async () => {
    const res = await connect({ transport: everything });
    expect(res.status).toBe(200);
    const tools = 'tools' in res.body ? res.body.tools.map((tool) => tool.name) : res.body;
    expect(tools).toEqual(expect.arrayContaining(['echo', 'get-env', 'get-sum']));
    const listed = await team.admin.api.get<{ data: McpConnection[] }>(connections());
    expect(listed.body.data).toEqual([]);
  });

  it('stores variables encrypted, shows them masked, and gives the stdio server only its own', async () => {
    const created = await team.admin.api.post<{ connection: McpConnection }>(connections(), {
      name: 'Everything',
      transport: everything,
      environmentVariables: { MY_TOKEN: 'token-1234567' },
    });
    expect(created.status).toBe(201);
    expect(created.body.connection.environmentVariables).toEqual({ MY_TOKEN: '••••' });
    expect(JSON.stringify(created.body)).not.toContain('token-1234567');

    const listed = await team.admin.api.get<{ data: McpConnection[] }>(connections());
    expect(listed.body.data.map((c) => c.environmentVariables)).toEqual([{ MY_TOKEN: '••••' }]);
    expect(JSON.stringify(listed.body)).not.toContain('token-1234567');

    const [row] = await t.ctx.db
      .select()
      .from(mcpConnections)
      .where(eq(mcpConnections.id, created.body.connection.id));
    if (!row) throw new Error('connection not stored');
    expect(row.environmentCipher).not.toContain('token-1234567');

    const result = await callTool(t.ctx, row, 'get-env', {});
    const text = JSON.stringify(result.content);
    expect(text).toContain('token-1234567');
    expect(text).not.toContain('the-host-secret');
    expect(text).not.toContain('SECRET_TEST');
  });

  it('keeps a masked variable on update and uses stored variables when testing a saved connection', async () => {
    const created = await team.admin.api.post<{ connection: McpConnection }>(connections(), {
      name: 'Kept',
      transport: everything,
      environmentVariables: { KEEP_ME: 'kept-value', DROP_ME: 'x' },
    });
    const updated = await team.admin.api.put<{ connection: McpConnection }>(
      connections(`/${created.body.connection.id}`),
      {
        name: 'Kept, renamed',
        transport: everything,
        environmentVariables: { KEEP_ME: '••••', NEW_ONE: 'new-value' },
      },
    );
    expect(updated.status).toBe(200);
    expect(updated.body.connection).toMatchObject({
      name: 'Kept, renamed',
      environmentVariables: { KEEP_ME: '••••', NEW_ONE: '••••' },
    });
    const [row] = await t.ctx.db
      .select()
      .from(mcpConnections)
      .where(eq(mcpConnections.id, created.body.connection.id));
    if (!row) throw new Error('connection not stored');
    const env = JSON.stringify((await callTool(t.ctx, row, 'get-env', {})).content);
    expect(env).toContain('kept-value');
    expect(env).toContain('new-value');
    expect(env).not.toContain('DROP_ME');

    const tested = await connect({
      id: row.id,
      transport: everything,
      environmentVariables: { KEEP_ME: '••••' },
    });
    expect('tools' in tested.body).toBe(true);

    const removed = await team.admin.api.delete(connections(`/${row.id}`));
    expect(removed.status).toBe(200);
    const after = await team.admin.api.get<{ data: McpConnection[] }>(connections());
    expect(after.body.data.map((c) => c.id)).not.toContain(row.id);
  });

  it('connects to the reference server over streamable HTTP', async () => {
    const { url, child } = await startEverythingOverHttp('streamableHttp');
    try {
      const res = await connect({ transport: { type: 'http', url } });
      expect('tools' in res.body ? res.body.tools.map((tool) => tool.name) : res.body).toContain('echo');
    } finally {
      child.kill();
    }
  });

  it('falls back to SSE for a server that only speaks the older transport', async () => {
    const { url, child } = await startEverythingOverHttp('sse');
    try {
      const res = await connect({ transport: { type: 'http', url } });
      expect('tools' in res.body ? res.body.tools.map((tool) => tool.name) : res.body).toContain('echo');
    } finally {
      child.kill();
    }
  });

  it('talks to the memory server over stdio', async () => {
    const res = await connect({ transport: { type: 'stdio', command: 'mcp-server-memory', args: [] } });
    expect('tools' in res.body ? res.body.tools.map((tool) => tool.name) : res.body).toEqual(
      expect.arrayContaining(['create_entities', 'read_graph']),
    );
  });

  it('reports a clear error when the server dies in the middle of a tool call', async () => {
    const created = await team.admin.api.post<{ connection: McpConnection }>(connections(), {
      name: 'Crashing',
      transport: crashing,
      environmentVariables: {},
    });
    expect(created.status).toBe(201);
    const [row] = await t.ctx.db
      .select()
      .from(mcpConnections)
      .where(eq(mcpConnections.id, created.body.connection.id));
    if (!row) throw new Error('connection not stored');
    expect(JSON.stringify((await callTool(t.ctx, row, 'ping', {})).content)).toContain('pong');
    await expect(callTool(t.ctx, row, 'crash', {})).rejects.toThrow(
      /The tool "crash" failed \(the MCP server stopped\)/,
    );
  });

  it('answers {error} for a server that cannot be reached', async () => {
    // Port 1: privileged, so never another test's server (a port freed after a probe can be).
    const res = await connect({ transport: { type: 'http', url: 'http://127.0.0.1:1/mcp' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ error: expect.stringContaining('Could not connect to http://127.0.0.1') });
  });

  it('refuses a stdio command the operator has not allowed, with a clear 400', async () => {
    const stdio = { type: 'stdio', command: 'bash', args: ['-c', 'echo hi'] };
    const tested = await connect({ transport: stdio });
    expect(tested.status).toBe(400);
    expect(tested.body).toMatchObject({ message: expect.stringContaining('MCP_STDIO_ALLOWLIST') });
    const saved = await team.admin.api.post(connections(), { name: 'Shell', transport: stdio });
    expect(saved.status).toBe(400);
    // A prefix of an allowed command line is not enough: the fixture entry needs its script too.
    const other = await connect({
      transport: { type: 'stdio', command: process.execPath, args: ['-e', '1'] },
    });
    expect(other.status).toBe(400);
  });

  it('answers 404 for an agent that is not in the workspace', async () => {
    const stranger = `/api/institutions/${team.ws.id}/agents/${randomUUID()}/mcp-connections`;
    expect((await team.admin.api.get(stranger)).status).toBe(404);
    const created = await team.admin.api.post(stranger, { name: 'Lost', transport: everything });
    expect(created.status).toBe(404);
    expect((await team.admin.api.delete(`${stranger}/${randomUUID()}`)).status).toBe(404);
  });

  it('rejects malformed bodies with a 400', async () => {
    const res = await team.admin.api.post(connections(), { name: 'x', transport: { type: 'ftp' } });
    expect(res.status).toBe(400);
    const badName = await team.admin.api.post(connections(), {
      name: 'x',
      transport: everything,
      environmentVariables: { 'not a name': 'v' },
    });
    expect(badName.status).toBe(400);
  });

  it('lists templates with the variables each needs and whether the operator allows it', async () => {
    const res = await team.admin.api.get<{ data: McpTemplate[] }>(
      `/api/institutions/${team.ws.id}/mcp-templates`,
    );
    expect(res.status).toBe(200);
    const byKey = Object.fromEntries(res.body.data.map((tpl) => [tpl.key, tpl]));
    expect(Object.keys(byKey)).toEqual(['memory', 'filesystem', 'everything', 'custom-stdio', 'custom-http']);
    expect(byKey.memory).toMatchObject({ allowed: true, needsInstallation: false });
    expect(byKey.memory?.variables).toEqual([]);
    expect(byKey.filesystem).toMatchObject({ allowed: false, needsInstallation: true });
  });

  it('lets only workspace admins see or change connections and templates', async () => {
    for (const who of [team.member, team.guest, team.stranger, team.outsider]) {
      expect((await who.api.get(connections())).status).toBe(403);
      expect((await who.api.post(connections(), { name: 'x', transport: everything })).status).toBe(403);
      expect((await who.api.get(`/api/institutions/${team.ws.id}/mcp-templates`)).status).toBe(403);
      const tested = await who.api.post(`/api/institutions/${team.ws.id}/mcp-connections/connect`, {
        transport: everything,
      });
      expect(tested.status).toBe(403);
    }
    expect((await team.owner.api.get(connections())).status).toBe(200);
  });
});
