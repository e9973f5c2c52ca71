// The operator's allowlist of stdio MCP servers (MCP_STDIO_ALLOWLIST): a stdio connection may start only a
// command line that begins with one of its entries, because starting a process is running code on the host.
import { badRequest } from '../errors.ts';

export type StdioAllowlist = string[][];

export function parseAllowlist(raw: string): StdioAllowlist {
  return raw
    .split(',')
    .map((entry) => entry.trim().split(/\s+/).filter(Boolean))
    .filter((tokens) => tokens.length > 0);
}

export function isAllowed(allowlist: StdioAllowlist, command: string, args: string[]): boolean {
  const line = [command, ...args];
  return allowlist.some((entry) => entry.every((token, i) => line[i] === token));
}

export function requireAllowed(allowlist: StdioAllowlist, command: string, args: string[]): void {
  if (!isAllowed(allowlist, command, args))
    throw badRequest(
      `The command "${command}" is not on this server's list of allowed MCP servers; an operator can add it to MCP_STDIO_ALLOWLIST`,
    );
}
