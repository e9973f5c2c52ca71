// The MCP servers shipped with Lantern (npm dependencies): their command names resolve to the package's
// script, started with this Node, so they run without npx, a network or node_modules/.bin on PATH.
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const BUNDLED_COMMANDS = ['mcp-server-memory', 'mcp-server-everything'] as const;

/** For a bundled command, Node and the script to run; otherwise the command as given. */
export function resolveCommand(command: string, args: string[]): { command: string; args: string[] } {
  if ((BUNDLED_COMMANDS as readonly string[]).includes(command)) {
    const bin = path.join(root, 'node_modules', '.bin', command);
    if (existsSync(bin)) return { command: process.execPath, args: [realpathSync(bin), ...args] };
  }
  return { command, args };
}
