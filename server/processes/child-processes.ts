// The one place the server starts child processes (today: stdio MCP servers). Each child gets exactly the
// environment and working directory it is given (nothing inherited from the server), no shell, and counts
// against two caps while it runs: per workspace and per server (MCP_PROCESSES_PER_WORKSPACE / _PER_SERVER),
// so no workspace can fill the host with processes. One registry per server (keyed by its Config), since
// the agent runs and the routes that start children are handed different slices of the app context.
import { type ChildProcess, spawn } from 'node:child_process';
import type { Config } from '../config.ts';
import { tooManyRequests } from '../errors.ts';

export interface ChildSpec {
  command: string;
  args: string[];
  /** The whole environment of the child. */
  env: Record<string, string>;
  cwd: string;
}

type Limits = Pick<Config, 'MCP_PROCESSES_PER_WORKSPACE' | 'MCP_PROCESSES_PER_SERVER'>;

export class ChildProcesses {
  private readonly perWorkspace = new Map<string, number>();
  private total = 0;
  private readonly children = new Set<ChildProcess>();

  constructor(private readonly limits: Limits) {}

  /** Running children of this workspace (or of the server, without one). */
  running(workspaceId?: string): number {
    return workspaceId === undefined ? this.total : (this.perWorkspace.get(workspaceId) ?? 0);
  }

  /** Starts the child with pipes on stdin, stdout and stderr; a 429 when a cap is reached. */
  start(workspaceId: string, spec: ChildSpec): ChildProcess {
    if (this.total >= this.limits.MCP_PROCESSES_PER_SERVER)
      throw tooManyRequests(
        'This server is running as many tool servers as it allows (MCP_PROCESSES_PER_SERVER); try again in a moment',
      );
    if (this.running(workspaceId) >= this.limits.MCP_PROCESSES_PER_WORKSPACE)
      throw tooManyRequests(
        'This workspace is running as many tool servers as this server allows (MCP_PROCESSES_PER_WORKSPACE); try again when an agent has finished',
      );
    const child = spawn(spec.command, spec.args, {
      env: spec.env,
      cwd: spec.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
    });
    this.total += 1;
    this.perWorkspace.set(workspaceId, this.running(workspaceId) + 1);
    this.children.add(child);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.total -= 1;
      const left = this.running(workspaceId) - 1;
      if (left > 0) this.perWorkspace.set(workspaceId, left);
      else this.perWorkspace.delete(workspaceId);
      this.children.delete(child);
    };
    // 'error' alone when the command cannot be started; 'exit' when it ran.
    child.once('exit', release);
    child.once('error', release);
    return child;
  }
}

const registries = new WeakMap<Config, ChildProcesses>();

/** The registry of the server whose configuration this is. */
export function childProcessesOf(config: Config): ChildProcesses {
  let registry = registries.get(config);
  if (!registry) {
    registry = new ChildProcesses(config);
    registries.set(config, registry);
  }
  return registry;
}
