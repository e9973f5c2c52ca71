// At most N at once per key, the rest waiting in arrival order: agent runs per workspace
// (AGENT_RUNS_PER_WORKSPACE) and document extractions per server (KNOWLEDGE_EXTRACT_CONCURRENCY), decision
// 0013. Work beyond the cap is delayed, never dropped, and a slot is given back however the work ends.
// Slots belong to one server process.

interface Queue {
  running: number;
  waiting: Array<() => void>;
}

export class Slots {
  readonly #keys = new Map<string, Queue>();

  constructor(private readonly perKey: number) {}

  /** Runs `run` once `key` has a free slot; the slot is released when it settles. */
  async withSlot<T>(key: string, run: () => Promise<T>): Promise<T> {
    await this.#acquire(key);
    try {
      return await run();
    } finally {
      this.#release(key);
    }
  }

  #acquire(key: string): Promise<void> {
    let entry = this.#keys.get(key);
    if (!entry) {
      entry = { running: 0, waiting: [] };
      this.#keys.set(key, entry);
    }
    if (entry.running < this.perKey) {
      entry.running++;
      return Promise.resolve();
    }
    const queue = entry.waiting;
    return new Promise((resolve) => queue.push(resolve));
  }

  #release(key: string): void {
    const entry = this.#keys.get(key);
    if (!entry) return;
    const next = entry.waiting.shift();
    // The slot passes straight to the next waiter, so a newcomer can never overtake the queue.
    if (next) next();
    else if (--entry.running === 0) this.#keys.delete(key);
  }
}
