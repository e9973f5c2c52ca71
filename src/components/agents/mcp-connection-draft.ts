// The MCP connection form's state, apart from its rendering: made from a template or a saved connection,
// and turned into the request body (or the first thing to fix). Stored variables arrive as MASKED_VALUE
// and go back as such when untouched, which tells the server to keep the stored value.
import {
  MASKED_VALUE,
  type McpConnection,
  type McpTemplate,
  type McpTransport,
} from '../../../schemas/protocol/index.ts';

export interface VariableRow {
  key: string;
  name: string;
  value: string;
  description: string | null;
  required: boolean;
  /** Named by the template: the name is fixed. */
  fromTemplate: boolean;
  /** Already saved on the server: the value shows masked until replaced. */
  stored: boolean;
}

export interface HeaderRow {
  key: string;
  name: string;
  value: string;
}

export interface ConnectionDraft {
  name: string;
  type: 'stdio' | 'http';
  /** A template's fixed command line (its placeholders filled by `placeholders`); null: editable. */
  lockedArgs: string[] | null;
  command: string;
  /** Editable arguments, one per line. */
  args: string;
  placeholders: { name: string; value: string }[];
  url: string;
  headers: HeaderRow[];
  variables: VariableRow[];
}

const PLACEHOLDER = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

let counter = 0;
export const rowKey = (): string => `row-${++counter}`;

export function draftFromTemplate(template: McpTemplate): ConnectionDraft {
  const t = template.transport;
  const variables = template.variables.map((v) => ({
    key: rowKey(),
    name: v.name,
    value: '',
    description: v.description,
    required: v.required,
    fromTemplate: true,
    stored: false,
  }));
  if (t.type === 'http')
    return { ...empty(template.name, 'http'), url: t.url, headers: headerRows(t.headers), variables };
  const custom = t.command === '';
  return {
    ...empty(template.name, 'stdio'),
    command: t.command,
    lockedArgs: custom ? null : t.args,
    args: custom ? '' : t.args.join('\n'),
    placeholders: custom
      ? []
      : t.args.flatMap((a) => {
          const m = PLACEHOLDER.exec(a);
          return m?.[1] ? [{ name: m[1], value: '' }] : [];
        }),
    variables,
  };
}

export function draftFromConnection(connection: McpConnection): ConnectionDraft {
  const t = connection.transport;
  const variables = Object.keys(connection.environmentVariables).map((name) => ({
    key: rowKey(),
    name,
    value: MASKED_VALUE,
    description: null,
    required: false,
    fromTemplate: false,
    stored: true,
  }));
  if (t.type === 'http')
    return { ...empty(connection.name, 'http'), url: t.url, headers: headerRows(t.headers), variables };
  return { ...empty(connection.name, 'stdio'), command: t.command, args: t.args.join('\n'), variables };
}

function empty(name: string, type: 'stdio' | 'http'): ConnectionDraft {
  return {
    name,
    type,
    lockedArgs: null,
    command: '',
    args: '',
    placeholders: [],
    url: '',
    headers: [],
    variables: [],
  };
}

function headerRows(headers: Record<string, string>): HeaderRow[] {
  return Object.entries(headers).map(([name, value]) => ({ key: rowKey(), name, value }));
}

export function emptyVariable(): VariableRow {
  return {
    key: rowKey(),
    name: '',
    value: '',
    description: null,
    required: false,
    fromTemplate: false,
    stored: false,
  };
}

/** The command line as it will run, placeholders filled (for the preview and the request). */
export function commandLine(draft: ConnectionDraft): { command: string; args: string[] } {
  if (draft.lockedArgs) {
    const values = new Map(draft.placeholders.map((p) => [p.name, p.value.trim()]));
    return {
      command: draft.command,
      args: draft.lockedArgs.map((a) => {
        const m = PLACEHOLDER.exec(a);
        return m?.[1] ? (values.get(m[1]) ?? '') : a;
      }),
    };
  }
  return {
    command: draft.command.trim(),
    args: draft.args
      .split('\n')
      .map((a) => a.trim())
      .filter(Boolean),
  };
}

export type DraftResult =
  | {
      ok: true;
      body: { name: string; transport: McpTransport; environmentVariables: Record<string, string> };
    }
  | { ok: false; error: string };

export function toRequest(draft: ConnectionDraft): DraftResult {
  if (!draft.name.trim()) return { ok: false, error: 'Name cannot be empty' };
  let transport: McpTransport;
  if (draft.type === 'stdio') {
    const missing = draft.placeholders.find((p) => !p.value.trim());
    if (missing) return { ok: false, error: `Enter the ${humanise(missing.name)}` };
    const line = commandLine(draft);
    if (!line.command) return { ok: false, error: 'Enter a command' };
    transport = { type: 'stdio', ...line };
  } else {
    const url = draft.url.trim();
    if (!/^https?:\/\/\S+$/i.test(url)) return { ok: false, error: 'Enter the server’s http(s) URL' };
    const headers: Record<string, string> = {};
    for (const h of draft.headers) {
      if (!h.name.trim() && !h.value) continue;
      if (!h.name.trim()) return { ok: false, error: 'Every header needs a name' };
      headers[h.name.trim()] = h.value;
    }
    transport = { type: 'http', url, headers };
  }
  const environmentVariables: Record<string, string> = {};
  for (const v of draft.variables) {
    const name = v.name.trim();
    if (!name && !v.value) continue;
    if (!VARIABLE_NAME.test(name))
      return { ok: false, error: `“${name || '(empty)'}” is not a variable name: use letters, digits and _` };
    if (name in environmentVariables) return { ok: false, error: `${name} is given twice` };
    if (!v.value && v.required) return { ok: false, error: `${name} is required` };
    // An optional template variable left empty is simply not set.
    if (!v.value) continue;
    environmentVariables[name] = v.value;
  }
  return { ok: true, body: { name: draft.name.trim(), transport, environmentVariables } };
}

/** "folder" → "folder", "ALLOWED_DIR" → "allowed dir": placeholder names as words. */
export function humanise(name: string): string {
  return name.replace(/_/g, ' ').toLowerCase();
}
