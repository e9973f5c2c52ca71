// Ready-made MCP connections offered when an admin adds one to an agent, each with the variables it needs
// and whether the operator's allowlist lets it start here.
import type { McpTemplate } from '../../schemas/protocol.ts';
import { isAllowed, type StdioAllowlist } from './allowlist.ts';

type Template = Omit<McpTemplate, 'allowed'>;

const TEMPLATES: Template[] = [
  {
    key: 'memory',
    name: 'Memory',
    description: 'A knowledge graph the agent can remember facts in (bundled with Lantern).',
    transport: { type: 'stdio', command: 'mcp-server-memory', args: [] },
    variables: [{ name: 'MEMORY_FILE_PATH', description: 'File the graph is kept in', required: false }],
    needsInstallation: false,
  },
  {
    key: 'filesystem',
    name: 'Filesystem',
    description:
      'Read and write files inside one chosen folder. Needs Node’s npx and the operator’s permission.',
    transport: {
      type: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '{folder}'],
    },
    variables: [],
    needsInstallation: true,
  },
  {
    key: 'everything',
    name: 'Everything (MCP reference server)',
    description: 'The MCP reference server with sample tools: handy for trying agents out (bundled).',
    transport: { type: 'stdio', command: 'mcp-server-everything', args: ['stdio'] },
    variables: [],
    needsInstallation: false,
  },
  {
    key: 'custom-stdio',
    name: 'Custom command (stdio)',
    description: 'Any MCP server started as a command on this host, if the operator allows it.',
    transport: { type: 'stdio', command: '', args: [] },
    variables: [],
    needsInstallation: false,
  },
  {
    key: 'custom-http',
    name: 'Custom server (HTTP)',
    description:
      'A remote MCP server over streamable HTTP (or SSE). Headers may use \u0024{NAME} for a stored variable.',
    transport: { type: 'http', url: '', headers: {} },
    variables: [],
    needsInstallation: false,
  },
];

export function listTemplates(allowlist: StdioAllowlist): McpTemplate[] {
  return TEMPLATES.map((t) => ({
    ...t,
    allowed:
      t.transport.type === 'http' ||
      t.transport.command === '' ||
      isAllowed(
        allowlist,
        t.transport.command,
        t.transport.args.filter((a) => !a.startsWith('{')),
      ),
  }));
}
