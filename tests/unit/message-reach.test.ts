// A link to a message far back takes the channel's window down to it (decision 0087). A second link, too
// far back to reach, must neither take away the rows the reader is on nor make every later link "too far".
import { describe, expect, it } from 'vitest';
import { reachAfterAnswer } from '../../src/store/message-window-size.ts';

describe('the reach of a message window, once it has answered', () => {
  it('remembers a place that held', () => {
    expect(reachAfterAnswer({ reach: 1200 }, 'held')).toEqual({ reach: 1200, lastHeld: 1200 });
  });

  it('goes back to the last place that held when a lower one is too far', () => {
    // The first link reached seq 1200; a second asked for seq 40, more than REACH_MAX rows back.
    expect(reachAfterAnswer({ reach: 40, lastHeld: 1200 }, 'tooFar')).toEqual({
      reach: 1200,
      lastHeld: 1200,
    });
  });

  it('asks for no place when none held, so a later, nearer link is reached', () => {
    const after = reachAfterAnswer({ reach: 40 }, 'tooFar');
    expect(after).toEqual({});
    // The next link, nearer the newest, is asked for on its own (reachTo takes the lower of the two).
    expect(Math.min(after.reach ?? 2900, 2900)).toBe(2900);
  });

  it('leaves a window that was asked for no place as it is', () => {
    expect(reachAfterAnswer({}, 'held')).toEqual({});
  });
});
