// Ready-made MCP connections offered when an admin adds one to an agent, each with the variables it needs
// and whether the operator's allowlist lets it start here. A template's variables are the only names (with
// MCP_STDIO_ENV_ALLOWLIST) a connection running its command may set. The Memory server's file is set by
// the server per connection (server/mcp/workdirs.ts), so it is no variable here.
import type { McpTemplate } from '../../schemas/protocol/index.ts';
import { type CommandLine, type StdioAllowlist, templateAllowed } from './allowlist.ts';

type Template = Omit<McpTemplate, 'allowed'> & {
  /** A test fixture (tools that fetch any URL, print the environment): listed only when allowlisted. */
  fixture?: boolean;
};

const TEMPLATES: Template[] = [
  {
    key: 'memory',
    name: 'Memory',
    description: 'A knowledge graph the agent can remember facts in (bundled with Lantern).',
    transport: { type: 'stdio', command: 'mcp-server-memory', args: [] },
    variables: [],
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
    fixture: true,
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

const isPlaceholder = (arg: string) => /^\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(arg);

/** The template whose command line this is (placeholders standing for any value), if any. */
export function templateOf(line: CommandLine): Template | undefined {
  return TEMPLATES.find(
    (t) =>
      t.transport.type === 'stdio' &&
      t.transport.command !== '' &&
      t.transport.command === line.command &&
      t.transport.args.length === line.args.length &&
      t.transport.args.every((a, i) => isPlaceholder(a) || a === line.args[i]),
  );
}

/** The names a connection running this command line may set because its template declares them. */
export const declaredVariables = (line: CommandLine): string[] =>
  templateOf(line)?.variables.map((v) => v.name) ?? [];

export function listTemplates(allowlist: StdioAllowlist): McpTemplate[] {
  return TEMPLATES.flatMap(({ fixture, ...t }) => {
    const allowed =
      t.transport.type === 'http' || t.transport.command === '' || templateAllowed(allowlist, t.transport);
    return fixture && !allowed ? [] : [{ ...t, allowed }];
  });
}
