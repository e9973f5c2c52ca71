// How many agent runs one workspace may have going at once (AGENT_RUNS_PER_WORKSPACE, decision 0013):
// a run takes a slot before it starts and gives it back when it ends, however it ends; runs beyond the cap
// wait in arrival order, so a burst of mentions in one workspace is answered late rather than dropped
// and never occupies more than its share of the server. Slots belong to one server process.

interface Workspace {
  running: number;
  waiting: Array<() => void>;
}

export class RunSlots {
  readonly #workspaces = new Map<string, Workspace>();

  constructor(private readonly perWorkspace: number) {}

  /** Runs `run` once the workspace has a free slot; the slot is released when it settles. */
  async withSlot<T>(institutionId: string, run: () => Promise<T>): Promise<T> {
    await this.#acquire(institutionId);
    try {
      return await run();
    } finally {
      this.#release(institutionId);
    }
  }

  #acquire(institutionId: string): Promise<void> {
    let workspace = this.#workspaces.get(institutionId);
    if (!workspace) {
      workspace = { running: 0, waiting: [] };
      this.#workspaces.set(institutionId, workspace);
    }
    if (workspace.running < this.perWorkspace) {
      workspace.running++;
      return Promise.resolve();
    }
    const queue = workspace.waiting;
    return new Promise((resolve) => queue.push(resolve));
  }

  #release(institutionId: string): void {
    const workspace = this.#workspaces.get(institutionId);
    if (!workspace) return;
    const next = workspace.waiting.shift();
    // The slot passes straight to the next waiter, so a newcomer can never overtake the queue.
    if (next) next();
    else if (--workspace.running === 0) this.#workspaces.delete(institutionId);
  }
}
