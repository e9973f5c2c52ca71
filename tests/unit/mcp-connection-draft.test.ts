// The MCP connection form's rules: what a template or a saved connection fills in, and what is sent
// (placeholders filled, stored variables kept masked so the server keeps them, bad input named).
import { describe, expect, it } from 'vitest';
import { MASKED_VALUE, type McpConnection, type McpTemplate } from '../../schemas/protocol/index.ts';
import {
  commandLine,
  draftFromConnection,
  draftFromTemplate,
  emptyVariable,
  toRequest,
} from '../../src/components/agents/mcp-connection-draft.ts';

function template(overrides: Partial<McpTemplate> = {}): McpTemplate {
  return {
    key: 'filesystem',
    name: 'Filesystem',
    description: 'Files in one folder',
    transport: {
      type: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '{folder}'],
    },
    variables: [],
    needsInstallation: true,
    allowed: true,
    ...overrides,
  };
}

function connection(overrides: Partial<McpConnection> = {}): McpConnection {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    agentId: '00000000-0000-4000-8000-000000000002',
    name: 'Deploys',
    transport: {
      type: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer \u0024{TOKEN}' },
    },
    environmentVariables: { TOKEN: MASKED_VALUE },
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

describe('a connection made from a template', () => {
  it('asks for the folder a placeholder names and runs the template command with it', () => {
    const draft = draftFromTemplate(template());
    expect(draft.placeholders).toEqual([{ name: 'folder', value: '' }]);
    expect(toRequest(draft)).toEqual({ ok: false, error: 'Enter the folder' });

    draft.placeholders[0] = { name: 'folder', value: ' /srv/handbook ' };
    expect(commandLine(draft)).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv/handbook'],
    });
    const req = toRequest(draft);
    expect(req.ok && req.body.transport).toEqual({
      type: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv/handbook'],
    });
  });

  it('requires the template’s required variables and leaves out empty optional ones', () => {
    const draft = draftFromTemplate(
      template({
        transport: { type: 'stdio', command: 'mcp-server-memory', args: [] },
        variables: [
          { name: 'API_KEY', description: 'Key', required: true },
          { name: 'MEMORY_FILE_PATH', description: 'File', required: false },
        ],
      }),
    );
    expect(toRequest(draft)).toEqual({ ok: false, error: 'API_KEY is required' });
    draft.variables[0] = { ...draft.variables[0]!, value: 'k-123' };
    const req = toRequest(draft);
    expect(req.ok && req.body.environmentVariables).toEqual({ API_KEY: 'k-123' });
  });

  it('lets a custom command be typed, one argument per line', () => {
    const draft = draftFromTemplate(
      template({ key: 'custom-stdio', transport: { type: 'stdio', command: '', args: [] } }),
    );
    expect(toRequest(draft)).toEqual({ ok: false, error: 'Enter a command' });
    draft.command = 'mcp-server-everything';
    draft.args = 'stdio\n\n  --verbose  ';
    const req = toRequest(draft);
    expect(req.ok && req.body.transport).toEqual({
      type: 'stdio',
      command: 'mcp-server-everything',
      args: ['stdio', '--verbose'],
    });
  });
});

describe('editing a saved connection', () => {
  it('sends stored variables back masked, so the server keeps their values', () => {
    const draft = draftFromConnection(connection());
    expect(draft.variables.map((v) => [v.name, v.value, v.stored])).toEqual([['TOKEN', MASKED_VALUE, true]]);
    const req = toRequest(draft);
    expect(req.ok && req.body).toEqual({
      name: 'Deploys',
      transport: {
        type: 'http',
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: 'Bearer \u0024{TOKEN}' },
      },
      environmentVariables: { TOKEN: MASKED_VALUE },
    });
  });

  it('refuses a variable name the server would refuse, and a name given twice', () => {
    const draft = draftFromConnection(connection());
    draft.variables.push({ ...emptyVariable(), name: '2FA', value: 'x' });
    expect(toRequest(draft)).toMatchObject({
      ok: false,
      error: expect.stringContaining('“2FA” is not a variable name'),
    });
    draft.variables[1] = { ...emptyVariable(), name: 'TOKEN', value: 'new' };
    expect(toRequest(draft)).toEqual({ ok: false, error: 'TOKEN is given twice' });
  });

  it('needs an http(s) URL for an HTTP server', () => {
    const draft = draftFromConnection(connection());
    draft.url = 'ftp://example.com';
    expect(toRequest(draft)).toEqual({ ok: false, error: 'Enter the server’s http(s) URL' });
  });
});
