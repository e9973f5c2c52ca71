// The spec §4 refresh: reset the open channels' unread counts, resync pending messages, then catch
// every joined channel up. The throttle (src/store/refresh-throttle.ts) decides whether it runs.

import { RefreshThrottle } from '../src/store/refresh-throttle.ts';
import type { RefreshOutcome, WorkerApi } from './api.ts';

export interface RefreshSteps {
  hasToken(): Promise<boolean>;
  resetOpenUnread(): Promise<void>;
  refreshJoined(): Promise<void>;
  resyncPending(): Promise<void>;
  pullAll(): Promise<void>;
  log?: (message: string, error?: unknown) => void;
}

export class Refresher {
  private readonly throttle: RefreshThrottle;
  private readonly steps: RefreshSteps;

  constructor(steps: RefreshSteps, now: () => number) {
    this.steps = steps;
    this.throttle = new RefreshThrottle(now);
  }

  async refresh(...[, force]: Parameters<WorkerApi['refresh']>): Promise<RefreshOutcome> {
    const decision = this.throttle.begin(await this.steps.hasToken(), force);
    if (decision !== 'run') return decision;
    try {
      await this.steps.resetOpenUnread();
      await this.steps.refreshJoined();
      await this.steps.resyncPending();
      await this.steps.pullAll();
      return 'ran';
    } catch (error) {
      // Spec §8: refresh failures are logged; the asking tab hears the error too and, in a debug
      // environment, shows its message (src/data/refresh-triggers.ts).
      this.steps.log?.('Refresh failed', error);
      throw error instanceof Error ? error : new Error(String(error));
    } finally {
      this.throttle.finish();
    }
  }
}
