// Where a stdio MCP server runs and keeps its files: a working directory of its own per connection,
// DATA_DIR/mcp/<workspace>/<connection>/ (never the server's own directory, where data/ and secrets live),
// and for the Memory server its graph in DATA_DIR/mcp/<workspace>/<connection>.jsonl, set by the server so
// that no two workspaces (or connections) share one. A "test connection" gets a throwaway directory.
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { CommandLine } from './allowlist.ts';
import { templateOf } from './templates.ts';

export interface Workdir {
  dir: string;
  /** The Memory server's graph file for this connection. */
  memoryFile: string;
  /** Removes what a throwaway directory holds; a saved connection's stays. */
  release(): void;
}

const SAFE_ID = /^[A-Za-z0-9-]+$/;

function workspaceDir(dataDir: string, workspaceId: string): string {
  // Ids come from the server's own records (UUIDs); anything else must never become a path.
  if (!SAFE_ID.test(workspaceId)) throw new Error('Unexpected workspace id');
  return path.join(dataDir, 'mcp', workspaceId);
}

export function connectionWorkdir(dataDir: string, workspaceId: string, connectionId: string): Workdir {
  if (!SAFE_ID.test(connectionId)) throw new Error('Unexpected connection id');
  const base = workspaceDir(dataDir, workspaceId);
  const dir = path.join(base, connectionId);
  mkdirSync(dir, { recursive: true });
  return { dir, memoryFile: path.join(base, `${connectionId}.jsonl`), release: () => undefined };
}

export function throwawayWorkdir(dataDir: string, workspaceId: string): Workdir {
  const dir = path.join(workspaceDir(dataDir, workspaceId), `test-${randomUUID()}`);
  mkdirSync(dir, { recursive: true });
  return {
    dir,
    memoryFile: path.join(dir, 'memory.jsonl'),
    release: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Removes a deleted connection's directory and files. */
export function removeConnectionFiles(dataDir: string, workspaceId: string, connectionId: string): void {
  if (!SAFE_ID.test(connectionId)) return;
  const base = workspaceDir(dataDir, workspaceId);
  rmSync(path.join(base, connectionId), { recursive: true, force: true });
  rmSync(path.join(base, `${connectionId}.jsonl`), { force: true });
}

/** Variables the server itself sets for this command line (the Memory server's file). */
export function serverSetVariables(line: CommandLine, workdir: Workdir): Record<string, string> {
  return templateOf(line)?.key === 'memory' ? { MEMORY_FILE_PATH: workdir.memoryFile } : {};
}
