// Attacks on stdio MCP servers replayed through the public API by a stranger who signed up and created a
// workspace of their own (so is its admin): variables that make a program run the attacker's code, command
// lines that only begin like an allowed one, the reference "everything" server, a shared Memory graph,
// stderr echoed back, and flooding the host with processes or connect tests. Each must be refused or
// contained by the server, whatever the admin sends.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type {
  Agent,
  McpConnection,
  McpConnectResponse,
  McpTemplate,
  Message,
} from '../../schemas/protocol/index.ts';
import { refusedName } from '../../server/mcp/variable-policy.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import {
  collect,
  connect as connectSocket,
  disconnectAll,
  eventually,
  makeWorkspace,
  messagesUrl,
  pause,
  type Workspace,
} from './messaging-world.ts';

const probe = path.join(import.meta.dirname, 'fixtures/probe-mcp-server.mjs');
const probeLine = (mode: string) =>
  ({ type: 'stdio', command: process.execPath, args: [probe, mode] }) as const;
const memory = { type: 'stdio', command: 'mcp-server-memory', args: [] } as const;
const everything = { type: 'stdio', command: 'mcp-server-everything', args: ['stdio'] } as const;

interface Stranger extends Workspace {
  agent: Agent;
}

/** A stranger: signs up, creates a workspace (so is its admin) and an agent in it. */
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
const saveConnection = (s: Stranger, body: unknown) =>
  s.owner.api.post<{ connection: McpConnection }>(
    `/api/institutions/${s.id}/agents/${s.agent.id}/mcp-connections`,
    body,
  );

/** Posts `@Helper <command>` in #general as the owner and resolves with the agent's final answer. */
async function askTool(t: TestServer, s: Stranger, text: string): Promise<string> {
  const socket = await connectSocket(t, s.owner.token);
  await new Promise((resolve) =>
    socket.emit('joinChannel', { institutionId: s.id, channelId: s.general.id }, resolve),
  );
  const edited = collect(socket, 'newEditMessage');
  const res = await s.owner.api.post<Message>(messagesUrl(s, s.general.id), {
    genId: randomUUID(),
    content: `<p><span data-type="mention" data-id="${s.agent.id}" class="mention">@Helper</span> ${text.replace(/"/g, '&quot;')}</p>`,
    mentions: [{ type: 'agent', id: s.agent.id }],
  });
  expect(res.status).toBe(201);
  await eventually(() => edited.some((m) => m.replyTo === res.body.id && !!m.agentAnswer), 30_000);
  const answers = edited.filter((m) => m.replyTo === res.body.id);
  return (answers.at(-1) as Message).content;
}

const throwawayDirs = (t: TestServer, s: Stranger) => {
  const dir = path.join(t.config.dataDir, 'mcp', s.id);
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.startsWith('test-')) : [];
};

describe('variables that change how a program loads or runs', () => {
  it.each([
    'NODE_OPTIONS',
    'node_options',
    'NODE_PATH',
    'NODE_EXTRA_CA_CERTS',
    'LD_PRELOAD',
    'LD_LIBRARY_PATH',
    'DYLD_INSERT_LIBRARIES',
    'PATH',
    'HOME',
    'PYTHONPATH',
    'PYTHONSTARTUP',
    'JAVA_TOOL_OPTIONS',
    '_JAVA_OPTIONS',
    'PERL5OPT',
    'RUBYOPT',
    'BASH_ENV',
    'ENV',
    'npm_config_registry',
    'GIT_SSH_COMMAND',
    'GCONV_PATH',
    'GLIBC_TUNABLES',
    'ELECTRON_RUN_AS_NODE',
    'HTTPS_PROXY',
    'SSL_CERT_FILE',
    'MEMORY_FILE_PATH',
  ])('refuses %s whatever the lists say', (name) => {
    expect(refusedName(name)).toBe(true);
  });

  it.each(['API_KEY', 'GITHUB_TOKEN', 'BRAVE_API_KEY', 'SLACK_TEAM_ID'])('leaves %s to the lists', (name) => {
    expect(refusedName(name)).toBe(false);
  });
});

describe.each(databases)('stdio MCP attacks under the default configuration (%s)', (kind) => {
  let t: TestServer;
  let s: Stranger;
  beforeAll(async () => {
    t = await startTestServer(kind, { env: { MCP_CONNECT_TIMEOUT_MS: '20000' } });
    s = await stranger(t);
  });
  afterEach(() => disconnectAll());
  afterAll(() => t.close());

  it('refuses NODE_OPTIONS=--import=data:… with a 400, and the code never runs on the host', async () => {
    const marker = path.join(t.config.dataDir, `pwned-${randomUUID()}`);
    const code = `import fs from 'node:fs'; fs.writeFileSync(${JSON.stringify(marker)}, 'pwned');`;
    const attack = {
      transport: memory,
      environmentVariables: {
        NODE_OPTIONS: `--import=data:text/javascript;base64,${Buffer.from(code).toString('base64')}`,
      },
    };
    const tested = await connectTest(s, attack);
    expect(tested.status).toBe(400);
    expect(tested.body).toMatchObject({ message: expect.stringContaining('NODE_OPTIONS') });
    const saved = await saveConnection(s, { name: 'Innocent', ...attack });
    expect(saved.status).toBe(400);
    await pause(1_000);
    expect(existsSync(marker)).toBe(false);
  }, 30_000);

  it('refuses LD_PRELOAD, PATH and other loader variables whatever their case, with a 400', async () => {
    const upload = path.join(t.config.filesDir, 'evil.so');
    for (const variables of [
      { LD_PRELOAD: upload },
      { PATH: t.config.filesDir },
      { DYLD_INSERT_LIBRARIES: upload },
      { PYTHONPATH: t.config.filesDir },
      { BASH_ENV: upload },
      { npm_config_registry: 'http://evil.example/' },
      { MEMORY_FILE_PATH: path.join(t.config.dataDir, 'secrets.json') },
    ]) {
      const name = Object.keys(variables)[0] ?? '';
      const res = await connectTest(s, { transport: memory, environmentVariables: variables });
      expect(res.status, name).toBe(400);
      expect(res.body, name).toMatchObject({ message: expect.stringContaining(name) });
    }
  }, 30_000);

  it('refuses a variable the template does not declare, even a harmless-looking one', async () => {
    const res = await connectTest(s, { transport: memory, environmentVariables: { API_TOKEN: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: expect.stringContaining('MCP_STDIO_ENV_ALLOWLIST') });
  });

  it('refuses a command line that only begins with an allowed one (--require of an upload)', async () => {
    const upload = path.join(t.config.filesDir, 'evil.cjs');
    for (const transport of [
      { ...memory, args: ['--require', upload] },
      { type: 'stdio', command: 'mcp-server-memory', args: ['extra'] },
    ]) {
      const tested = await connectTest(s, { transport });
      expect(tested.status).toBe(400);
      expect(tested.body).toMatchObject({ message: expect.stringContaining('MCP_STDIO_ALLOWLIST') });
      expect((await saveConnection(s, { name: 'Memory', transport })).status).toBe(400);
    }
  });

  it('does not allow the reference "everything" server (a test fixture) or offer its template', async () => {
    const tested = await connectTest(s, { transport: everything });
    expect(tested.status).toBe(400);
    expect((await saveConnection(s, { name: 'Everything', transport: everything })).status).toBe(400);
    const templates = await s.owner.api.get<{ data: McpTemplate[] }>(
      `/api/institutions/${s.id}/mcp-templates`,
    );
    expect(templates.body.data.map((tpl) => tpl.key)).not.toContain('everything');
    const memoryTemplate = templates.body.data.find((tpl) => tpl.key === 'memory');
    expect(memoryTemplate).toMatchObject({ allowed: true, variables: [] });
  });

  it('gives each workspace its own Memory graph, in a file the server chose', async () => {
    const other = await stranger(t);
    const mine = await saveConnection(s, { name: 'Memory', transport: memory });
    expect(mine.status).toBe(201);
    expect((await saveConnection(other, { name: 'Memory', transport: memory })).status).toBe(201);
    const secret = `Alpha${randomUUID().slice(0, 8)}`;
    const created = await askTool(
      t,
      s,
      `/create_entities {"entities":[{"name":"${secret}","entityType":"note","observations":["ours"]}]}`,
    );
    expect(created).toContain(secret);
    expect(await askTool(t, s, '/read_graph {}')).toContain(secret);
    expect(await askTool(t, other, '/read_graph {}')).not.toContain(secret);
    const file = path.join(t.config.dataDir, 'mcp', s.id, `${mine.body.connection.id}.jsonl`);
    expect(readFileSync(file, 'utf8')).toContain(secret);
  }, 90_000);
});

describe.each(databases)('stdio MCP servers the operator allowed (%s)', (kind) => {
  let t: TestServer;
  let s: Stranger;
  beforeAll(async () => {
    process.env.HOST_ONLY_SECRET = 'host-secret-value';
    t = await startTestServer(kind, {
      env: {
        MCP_STDIO_ALLOWLIST: ['serve', 'leak-and-die']
          .map((m) => `${process.execPath} ${probe} ${m}`)
          .join(','),
        MCP_STDIO_ENV_ALLOWLIST: 'CONNECTION_SECRET',
        MCP_CONNECT_TIMEOUT_MS: '20000',
      },
    });
    s = await stranger(t);
  });
  afterEach(() => disconnectAll());
  afterAll(async () => {
    delete process.env.HOST_ONLY_SECRET;
    await t.close();
  });

  it('answers a short reason without the child’s stderr, its environment or the secrets', async () => {
    const res = await connectTest(s, {
      transport: probeLine('leak-and-die'),
      environmentVariables: { CONNECTION_SECRET: 'conn-secret-4711' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ error: expect.stringContaining('Could not start') });
    const text = JSON.stringify(res.body);
    for (const leaked of ['LEAKED-STDERR', 'conn-secret-4711', 'host-secret-value', 'PATH'])
      expect(text).not.toContain(leaked);
  }, 30_000);

  it('tests a connection in a throwaway directory under DATA_DIR/mcp, removed afterwards', async () => {
    const res = await connectTest(s, { transport: probeLine('serve') });
    const where = 'tools' in res.body ? (res.body.tools[0]?.description ?? '') : JSON.stringify(res.body);
    const dir = where.replace(/^Runs in /, '');
    expect(path.dirname(dir)).toBe(path.join(t.config.dataDir, 'mcp', s.id));
    expect(path.basename(dir)).toMatch(/^test-/);
    expect(existsSync(dir)).toBe(false);
    expect(throwawayDirs(t, s)).toEqual([]);
  }, 30_000);

  it('starts the child in its connection’s own directory under DATA_DIR/mcp with only its variables', async () => {
    const saved = await saveConnection(s, {
      name: 'Probe',
      transport: probeLine('serve'),
      environmentVariables: { CONNECTION_SECRET: 'conn-secret-4711' },
    });
    expect(saved.status).toBe(201);
    const answer = await askTool(t, s, '/where {}');
    const where = JSON.parse(
      (/<pre><code>([\s\S]*)<\/code><\/pre>/.exec(answer)?.[1] ?? '{}')
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&'),
    ) as { cwd: string; names: string[] };
    expect(where.cwd).toBe(path.join(t.config.dataDir, 'mcp', s.id, saved.body.connection.id));
    expect(where.names).toContain('CONNECTION_SECRET');
    expect(where.names).not.toContain('HOST_ONLY_SECRET');
    for (const name of where.names) expect(['PATH', 'HOME', 'CONNECTION_SECRET']).toContain(name);
  }, 60_000);
});

describe.each(databases)('a {folder} in an allowlisted command line (%s)', (kind) => {
  let t: TestServer;
  let s: Stranger;
  let root = '';
  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'lantern-shared-'));
    mkdirSync(path.join(root, 'team-docs'));
    symlinkSync('/', path.join(root, 'escape'));
    t = await startTestServer(kind, {
      env: {
        // The folder server's entry as an operator writes it now (the program, then the folder it may serve),
        // and as one wrote it when entries were prefixes (which then let any folder through).
        MCP_STDIO_ALLOWLIST: `${process.execPath} ${probe} {folder},${process.execPath} ${probe}`,
        MCP_FILESYSTEM_ROOT: root,
        MCP_CONNECT_TIMEOUT_MS: '20000',
      },
    });
    s = await stranger(t);
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });
  const folder = (value: string) => ({
    transport: { type: 'stdio', command: process.execPath, args: [probe, value] },
  });

  it('serves a folder inside the operator’s root', async () => {
    const res = await connectTest(s, folder('team-docs'));
    expect(res.status).toBe(200);
    expect('tools' in res.body ? res.body.tools.map((tool) => tool.name) : res.body).toEqual(['where']);
  }, 30_000);

  it('refuses the host’s root, a path out of the root, or a symbolic link leading out, with a 400', async () => {
    for (const value of [
      '/',
      t.config.dataDir,
      '..',
      'team-docs/../..',
      `${root}/../..`,
      'escape',
      'escape/etc',
    ]) {
      const tested = await connectTest(s, folder(value));
      expect(tested.status, value).toBe(400);
      expect(tested.body, value).toMatchObject({ message: expect.stringContaining('MCP_FILESYSTEM_ROOT') });
      const saved = await saveConnection(s, { name: 'Files', ...folder(value) });
      expect(saved.status, value).toBe(400);
    }
  }, 30_000);
});

describe.each(databases)('caps on MCP processes and connect tests (%s)', (kind) => {
  const servers: TestServer[] = [];
  const start = async (env: Record<string, string>) => {
    const t = await startTestServer(kind, {
      env: {
        MCP_STDIO_ALLOWLIST: `${process.execPath} ${probe} hang`,
        MCP_CONNECT_TIMEOUT_MS: '1500',
        ...env,
      },
    });
    servers.push(t);
    return t;
  };
  afterAll(async () => {
    for (const t of servers) await t.close();
  });
  const hang = { transport: probeLine('hang') };

  it('refuses a second running process for one workspace, and a third on the server, with a 429', async () => {
    const t = await start({
      MCP_PROCESSES_PER_WORKSPACE: '1',
      MCP_PROCESSES_PER_SERVER: '2',
      MCP_TESTS_PER_WORKSPACE: '5',
      MCP_TESTS_PER_SERVER: '10',
    });
    const [a, b, c] = [await stranger(t), await stranger(t), await stranger(t)];
    const same = await Promise.all([connectTest(a, hang), connectTest(a, hang)]);
    expect(same.map((r) => r.status).sort()).toEqual([200, 429]);
    expect(JSON.stringify(same)).toContain('MCP_PROCESSES_PER_WORKSPACE');
    const across = await Promise.all([connectTest(a, hang), connectTest(b, hang), connectTest(c, hang)]);
    expect(across.map((r) => r.status).sort()).toEqual([200, 200, 429]);
    expect(JSON.stringify(across)).toContain('MCP_PROCESSES_PER_SERVER');
  }, 30_000);

  it('refuses more concurrent connect tests than allowed per workspace and per server, with a 429', async () => {
    const t = await start({ MCP_TESTS_PER_WORKSPACE: '1', MCP_TESTS_PER_SERVER: '2' });
    const [a, b, c] = [await stranger(t), await stranger(t), await stranger(t)];
    const same = await Promise.all([connectTest(a, hang), connectTest(a, hang)]);
    expect(same.map((r) => r.status).sort()).toEqual([200, 429]);
    const across = await Promise.all([connectTest(a, hang), connectTest(b, hang), connectTest(c, hang)]);
    expect(across.map((r) => r.status).sort()).toEqual([200, 200, 429]);
  }, 30_000);

  it('refuses more MCP connections per agent than allowed, with a 400', async () => {
    const t = await start({ MCP_CONNECTIONS_PER_AGENT: '1', MCP_STDIO_ALLOWLIST: 'mcp-server-memory' });
    const s = await stranger(t);
    expect((await saveConnection(s, { name: 'One', transport: memory })).status).toBe(201);
    const second = await saveConnection(s, { name: 'Two', transport: memory });
    expect(second.status).toBe(400);
    expect(second.body).toMatchObject({ message: expect.stringContaining('MCP_CONNECTIONS_PER_AGENT') });
  });
});
