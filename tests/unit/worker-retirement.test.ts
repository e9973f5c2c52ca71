// Workers of two builds never both own the network (decision 0043): over a real BroadcastChannel, the
// older build's worker retires when a newer one starts, whichever of the two started first, and builds
// without a build time (development) are never retired.
import { afterEach, describe, expect, it } from 'vitest';
import {
  BUILD_CHANNEL,
  buildOfWorkerName,
  builtAt,
  isNewerBuild,
  watchForNewerBuild,
} from '../../worker/retirement.ts';

const older = `abc1234-${(1_760_000_000_000).toString(36)}`;
const newer = `def5678-${(1_760_000_600_000).toString(36)}`;

const channels: BroadcastChannel[] = [];
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  for (const c of channels.splice(0)) c.close();
});

/** A worker of `build` on its own channel object, as each worker has; resolves `retired` when it retires. */
function worker(build: string) {
  const channel = new BroadcastChannel(BUILD_CHANNEL);
  channels.push(channel);
  let retire!: () => void;
  const retired = new Promise<void>((resolve) => {
    retire = resolve;
  });
  let count = 0;
  stops.push(
    watchForNewerBuild(build, channel, () => {
      count++;
      retire();
    }),
  );
  return { retired, times: () => count };
}

/** Waits until every message posted so far has been delivered (a round trip on a fresh channel). */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const a = new BroadcastChannel(BUILD_CHANNEL);
    const b = new BroadcastChannel(BUILD_CHANNEL);
    await new Promise<void>((resolve) => {
      b.onmessage = () => resolve();
      a.postMessage({ probe: true });
    });
    a.close();
    b.close();
  }
}

describe('retiring the worker of an older build', () => {
  it('reads the build time from the id and orders builds by it', () => {
    expect(builtAt(newer)).toBe(1_760_000_600_000);
    expect(builtAt('dev')).toBeNull();
    expect(isNewerBuild(newer, older)).toBe(true);
    expect(isNewerBuild(older, newer)).toBe(false);
    expect(isNewerBuild(older, older)).toBe(false);
    expect(buildOfWorkerName(`lantern-${newer}`)).toBe(newer);
  });

  it('retires the running old worker once when a newer one starts', async () => {
    const old = worker(older);
    await settle();
    const fresh = worker(newer);
    await old.retired;
    await settle();
    expect(old.times()).toBe(1);
    expect(fresh.times()).toBe(0);
  });

  it('retires an old worker that starts after the newer one (an old page opened late)', async () => {
    const fresh = worker(newer);
    await settle();
    const old = worker(older);
    await old.retired;
    await settle();
    expect(fresh.times()).toBe(0);
  });

  it('leaves workers of the same build, and builds without a time, alone', async () => {
    const a = worker(older);
    const b = worker(older);
    const dev = worker('dev');
    await settle();
    expect([a.times(), b.times(), dev.times()]).toEqual([0, 0, 0]);
  });
});
