// The page's answer to NOTIFICATION_CLICKED (spec §4): the channel opens; an installed app whose push
// said requiresRefresh fetches page 1 of that channel again 2 s later, and nothing else does.
import { describe, expect, it } from 'vitest';
import { handleServiceWorkerMessage, type MessageEffects } from '../../src/app/service-worker.ts';

function effects() {
  const log: string[] = [];
  const timers: Array<{ run: () => void; ms: number }> = [];
  const fx: MessageEffects = {
    openChannel: (clientId, channelId) => log.push(`open ${clientId ?? '-'} ${channelId}`),
    foregroundPush: (p) => log.push(`toast ${p.title}`),
    playSound: () => log.push('sound'),
    refetchChannel: (channelId) => log.push(`refetch ${channelId}`),
    later: (run, ms) => timers.push({ run, ms }),
  };
  const elapse = () => {
    for (const t of timers.splice(0)) t.run();
  };
  return { fx, log, timers, elapse };
}

describe('NOTIFICATION_CLICKED', () => {
  it('opens the channel and, for an installed app that requires it, refetches it after 2 s', () => {
    const { fx, log, timers, elapse } = effects();
    handleServiceWorkerMessage(
      { type: 'NOTIFICATION_CLICKED', channelId: 'c1', clientId: 'w1', isPwa: true, requiresRefresh: true },
      fx,
    );
    expect(log).toEqual(['open w1 c1']);
    expect(timers.map((t) => t.ms)).toEqual([2000]);
    elapse();
    expect(log).toEqual(['open w1 c1', 'refetch c1']);
  });

  it.each([
    { isPwa: false, requiresRefresh: false },
    { isPwa: true, requiresRefresh: false },
    { isPwa: false, requiresRefresh: true },
  ])('does not refetch when isPwa=$isPwa and requiresRefresh=$requiresRefresh', (flags) => {
    const { fx, log, timers } = effects();
    handleServiceWorkerMessage({ type: 'NOTIFICATION_CLICKED', channelId: 'c1', ...flags }, fx);
    expect(log).toEqual(['open - c1']);
    expect(timers).toEqual([]);
  });

  it('ignores a click without a channel and messages that are not ours', () => {
    const { fx, log, timers } = effects();
    handleServiceWorkerMessage({ type: 'NOTIFICATION_CLICKED', isPwa: true, requiresRefresh: true }, fx);
    handleServiceWorkerMessage('NOTIFICATION_CLICKED', fx);
    handleServiceWorkerMessage(null, fx);
    expect(log).toEqual([]);
    expect(timers).toEqual([]);
  });
});
