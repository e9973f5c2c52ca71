// Spec §4 refresh rules: one at a time, skipped without token or within 5 s, forced after 5 min hidden.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isLongAbsence, RefreshThrottle } from '../../src/store/refresh-throttle.ts';

describe('refresh throttle', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());
  const throttle = () => new RefreshThrottle(() => Date.now());

  it('is skipped without an access token', () => {
    expect(throttle().begin(false)).toBe('skipped-no-token');
  });

  it('runs one refresh at a time', () => {
    const t = throttle();
    expect(t.begin(true)).toBe('run');
    vi.advanceTimersByTime(10_000);
    expect(t.begin(true)).toBe('skipped-busy');
    t.finish();
    expect(t.begin(true)).toBe('run');
  });

  it('is skipped within 5 s of the previous start and runs after', () => {
    const t = throttle();
    expect(t.begin(true)).toBe('run');
    t.finish();
    vi.advanceTimersByTime(4_999);
    expect(t.begin(true)).toBe('skipped-throttled');
    vi.advanceTimersByTime(1);
    expect(t.begin(true)).toBe('run');
  });

  it('is forced after a long absence even inside the throttle window', () => {
    const t = throttle();
    t.begin(true);
    t.finish();
    vi.advanceTimersByTime(1_000);
    expect(t.begin(true, true)).toBe('run');
  });

  it('counts more than 5 minutes hidden as a long absence', () => {
    const hiddenAt = Date.now();
    vi.advanceTimersByTime(5 * 60_000);
    expect(isLongAbsence(hiddenAt, Date.now())).toBe(false);
    vi.advanceTimersByTime(1);
    expect(isLongAbsence(hiddenAt, Date.now())).toBe(true);
    expect(isLongAbsence(null, Date.now())).toBe(false);
  });
});
