// How many "test connection" requests run at once, per workspace and on this server in all
// (MCP_TESTS_PER_WORKSPACE / _PER_SERVER): each may start a process or hold an outbound request
// for the whole connect time-out, so one workspace must not be able to queue up hundreds.
import type { Config } from '../config.ts';
import { tooManyRequests } from '../errors.ts';

type Limits = Pick<Config, 'MCP_TESTS_PER_WORKSPACE' | 'MCP_TESTS_PER_SERVER'>;

export class ConnectTests {
  private readonly perWorkspace = new Map<string, number>();
  private total = 0;

  constructor(private readonly limits: Limits) {}

  /** Runs `test` in a free slot; a 429 when none is free. */
  async run<T>(workspaceId: string, test: () => Promise<T>): Promise<T> {
    const mine = this.perWorkspace.get(workspaceId) ?? 0;
    if (this.total >= this.limits.MCP_TESTS_PER_SERVER)
      throw tooManyRequests(
        'This server is testing as many MCP connections as it allows; try again in a moment',
      );
    if (mine >= this.limits.MCP_TESTS_PER_WORKSPACE)
      throw tooManyRequests(
        'This workspace is already testing as many MCP connections at once as this server allows; wait for them to finish',
      );
    this.total += 1;
    this.perWorkspace.set(workspaceId, mine + 1);
    try {
      return await test();
    } finally {
      this.total -= 1;
      const left = (this.perWorkspace.get(workspaceId) ?? 1) - 1;
      if (left > 0) this.perWorkspace.set(workspaceId, left);
      else this.perWorkspace.delete(workspaceId);
    }
  }
}
