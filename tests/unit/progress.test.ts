// The progress bar's spec §9 rules: a value between 0 and max (default 100), else null, shown as "not
// known yet"; a max above 0, else the default.
import { describe, expect, it } from 'vitest';
import { progressOf } from '../../src/components/ui/progress.tsx';

describe('progressOf', () => {
  it('keeps a value between 0 and max, the ends included', () => {
    expect(progressOf(0)).toEqual({ value: 0, max: 100 });
    expect(progressOf(42)).toEqual({ value: 42, max: 100 });
    expect(progressOf(3, 3)).toEqual({ value: 3, max: 3 });
  });

  it('makes a value outside 0…max, or none, not known (null)', () => {
    expect(progressOf(-1).value).toBeNull();
    expect(progressOf(101).value).toBeNull();
    expect(progressOf(4, 3).value).toBeNull();
    expect(progressOf(Number.NaN).value).toBeNull();
    expect(progressOf(null).value).toBeNull();
    expect(progressOf(undefined).value).toBeNull();
  });

  it('takes the default max of 100 for one that is not above 0', () => {
    expect(progressOf(50, 0)).toEqual({ value: 50, max: 100 });
    expect(progressOf(50, -5)).toEqual({ value: 50, max: 100 });
    expect(progressOf(50, Number.POSITIVE_INFINITY)).toEqual({ value: 50, max: 100 });
  });
});
