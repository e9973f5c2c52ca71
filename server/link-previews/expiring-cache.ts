// A bounded in-memory cache with an expiry per entry, least recently used out first: link previews and their
// pictures, per server process. Bounded by entries and by a total size (a picture's bytes), so a flood of
// distinct addresses cannot grow the heap.

interface Entry<V> {
  value: V;
  size: number;
  expiresAt: number;
}

export class ExpiringCache<V> {
  readonly #entries = new Map<string, Entry<V>>();
  #size = 0;

  constructor(
    private readonly limits: { maxEntries: number; maxSize?: number },
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.expiresAt <= this.now()) {
      this.#size -= entry.size;
      return undefined;
    }
    // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, ttlMs: number, size = 0): void {
    const maxSize = this.limits.maxSize ?? Number.POSITIVE_INFINITY;
    this.delete(key);
    if (size > maxSize) return;
    this.#entries.set(key, { value, size, expiresAt: this.now() + ttlMs });
    this.#size += size;
    while (this.#entries.size > this.limits.maxEntries || this.#size > maxSize) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.delete(oldest);
    }
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#size -= entry.size;
  }

  get entries(): number {
    return this.#entries.size;
  }
}
