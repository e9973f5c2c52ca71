// Timing constants of the sync engine, each with its reason. Tests shrink them; production uses these.
export interface Timings {
  /** Spec §9: socket acknowledgement time-out 10 s → 'request timed out' (the entry stays pending). */
  ackTimeoutMs: number;
  /** Spec §4/§9: while anything is queued, resend every 60 s even if the socket looks connected. */
  resyncIntervalMs: number;
  /** Spec §9 reconnect policy: 1000–5000 ms with randomization 0.5, connection time-out 20 s. */
  reconnectionDelayMs: number;
  reconnectionDelayMaxMs: number;
  connectTimeoutMs: number;
}

export const DEFAULT_TIMINGS: Timings = {
  ackTimeoutMs: 10_000,
  resyncIntervalMs: 60_000,
  reconnectionDelayMs: 1_000,
  reconnectionDelayMaxMs: 5_000,
  connectTimeoutMs: 20_000,
};

/** The clock the loops use; tests pass a fake one. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};
