// Spec §4 refresh rules, as pure state over a clock: one refresh at a time, skipped without a token
// or within 5 s of the last start, forced (throttle cleared) after more than 5 minutes hidden.

/** Spec §9: refresh throttle 5000 ms. */
export const REFRESH_THROTTLE_MS = 5_000;
/** Spec §9: long-absence threshold 5 minutes. */
export const LONG_ABSENCE_MS = 5 * 60_000;

export type RefreshDecision = 'run' | 'skipped-no-token' | 'skipped-throttled' | 'skipped-busy';

export class RefreshThrottle {
  private lastStart: number | null = null;
  private running = false;
  private readonly now: () => number;

  constructor(now: () => number) {
    this.now = now;
  }

  /** Asks to start a refresh; on 'run' the caller must call finish() when it is over. */
  begin(hasToken: boolean, force = false): RefreshDecision {
    if (!hasToken) return 'skipped-no-token';
    if (this.running) return 'skipped-busy';
    if (force) this.lastStart = null;
    const now = this.now();
    if (this.lastStart !== null && now - this.lastStart < REFRESH_THROTTLE_MS) return 'skipped-throttled';
    this.lastStart = now;
    this.running = true;
    return 'run';
  }

  finish(): void {
    this.running = false;
  }
}

/** Whether coming back after being hidden since `hiddenAt` forces the refresh. */
export function isLongAbsence(hiddenAt: number | null, now: number): boolean {
  return hiddenAt !== null && now - hiddenAt > LONG_ABSENCE_MS;
}
