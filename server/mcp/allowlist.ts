// The operator's allowlist of stdio MCP servers (MCP_STDIO_ALLOWLIST): a stdio connection may start only a
// command line that equals one of its entries token for token, because starting a process is running code
// on the host: a prefix is not enough (`node` allowed would let `node --require <upload>` through). An
// entry's `{folder}` token takes a folder inside the operator's root, resolved to its real path.
import { badRequest } from '../errors.ts';
import { resolveFolder } from './folder-placeholder.ts';

export type StdioAllowlist = string[][];

export interface CommandLine {
  command: string;
  args: string[];
}

const FOLDER = '{folder}';

export function parseAllowlist(raw: string): StdioAllowlist {
  return raw
    .split(',')
    .map((entry) => entry.trim().split(/\s+/).filter(Boolean))
    .filter((tokens) => tokens.length > 0);
}

/** Whether a template's command line (placeholders as written) is one of the entries. */
export function templateAllowed(allowlist: StdioAllowlist, line: CommandLine): boolean {
  const tokens = [line.command, ...line.args];
  return allowlist.some((entry) => entry.length === tokens.length && entry.every((t, i) => tokens[i] === t));
}

/**
 * The command line to run, its folders resolved, when it matches an entry; otherwise a 400 that says why
 * (not allowed at all, or a folder outside the root).
 */
export function requireAllowed(
  allowlist: StdioAllowlist,
  folderRoot: string,
  line: CommandLine,
): CommandLine {
  const tokens = [line.command, ...line.args];
  let folderRefusal: string | null = null;
  for (const entry of allowlist) {
    if (entry.length !== tokens.length) continue;
    const resolved: string[] = [];
    let matches = true;
    for (const [i, expected] of entry.entries()) {
      const given = tokens[i] ?? '';
      if (expected === FOLDER) {
        const folder = resolveFolder(folderRoot, given);
        if ('refusal' in folder) {
          folderRefusal = folder.refusal;
          matches = false;
          break;
        }
        resolved.push(folder.folder);
      } else if (expected === given) resolved.push(given);
      else {
        matches = false;
        break;
      }
    }
    const [command, ...args] = resolved;
    if (matches && command !== undefined) return { command, args };
  }
  if (folderRefusal) throw badRequest(folderRefusal);
  throw badRequest(
    `The command "${line.command}" with these arguments is not on this server's list of allowed MCP servers; an operator can add the whole command line to MCP_STDIO_ALLOWLIST`,
  );
}
