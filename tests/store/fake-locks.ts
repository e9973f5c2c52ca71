// Web Locks in one process, for the worker's tests: one holder per name, the next waiter granted when it lets go.
import type { Locks } from '../../worker/locks.ts';

export class FakeLocks implements Locks {
  private readonly held = new Set<string>();
  private readonly waiters = new Map<string, (() => void)[]>();

  async request(name: string, callback: () => Promise<unknown>): Promise<unknown> {
    while (this.held.has(name)) {
      const queue = this.waiters.get(name) ?? [];
      this.waiters.set(name, queue);
      await new Promise<void>((resolve) => queue.push(resolve));
    }
    this.held.add(name);
    try {
      return await callback();
    } finally {
      this.held.delete(name);
      this.waiters.get(name)?.shift()?.();
    }
  }

  /** Takes `name` and holds it until the returned function is called (a tab's life lock until it closes). */
  hold(name: string): () => void {
    let release: () => void = () => {};
    void this.request(
      name,
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
        }),
    );
    return () => release();
  }
}
