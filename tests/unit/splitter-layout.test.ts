// The sidebar splitter's spec §9 rules: a keyboard step of 10 percent, Shift for 100 (to the end), Home and
// End, a drag that follows the pointer within bounds, and a saved size trusted only when it is sensible.
import { describe, expect, it } from 'vitest';
import { readSavedSize, sizeAfterKey, sizeAtPointer } from '../../src/components/ui/splitter-layout.ts';

const bounds = { min: 15, max: 40 };

describe('splitter layout', () => {
  it('moves 10 percent a key press, and to the end with Shift', () => {
    expect(sizeAfterKey(20, 'ArrowRight', false, bounds)).toBe(30);
    expect(sizeAfterKey(20, 'ArrowLeft', false, bounds)).toBe(15);
    expect(sizeAfterKey(20, 'ArrowRight', true, bounds)).toBe(40);
    expect(sizeAfterKey(35, 'ArrowLeft', true, bounds)).toBe(15);
    expect(sizeAfterKey(20, 'Home', false, bounds)).toBe(15);
    expect(sizeAfterKey(20, 'End', false, bounds)).toBe(40);
    expect(sizeAfterKey(20, 'a', false, bounds)).toBeNull();
  });

  it('follows the pointer across the layout, within bounds', () => {
    expect(sizeAtPointer(100 + 250, 100, 1000, bounds)).toBe(25);
    expect(sizeAtPointer(0, 100, 1000, bounds)).toBe(15);
    expect(sizeAtPointer(5000, 100, 1000, bounds)).toBe(40);
    expect(sizeAtPointer(300, 0, 0, bounds)).toBe(15);
  });

  it('uses a saved size only when it is a number within bounds', () => {
    expect(readSavedSize('27.5', bounds)).toBe(27.5);
    expect(readSavedSize(null, bounds)).toBeNull();
    expect(readSavedSize('90', bounds)).toBeNull();
    expect(readSavedSize('wide', bounds)).toBeNull();
  });
});
