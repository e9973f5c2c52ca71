// The sign-in and deletion codes' slots (spec §9 pin input): one character per slot, digits only in
// number mode, complete when every slot is filled, and a pasted code fills them all.
import { describe, expect, it } from 'vitest';
import { pinComplete, pinValue } from '../../src/components/ui/pin-input.tsx';

describe('pin input', () => {
  it('keeps digits only in number mode, one per slot', () => {
    expect(pinValue('1a2b3', 6)).toBe('123');
    expect(pinValue('12345678', 6)).toBe('123456');
  });

  it('fills every slot from a pasted code, whatever surrounds it', () => {
    expect(pinValue('Code: 123 456', 6)).toBe('123456');
    expect(pinValue('123-456\n', 6)).toBe('123456');
  });

  it('keeps letters and digits in text mode', () => {
    expect(pinValue('ab-12 cd', 6, 'text')).toBe('ab12cd');
  });

  it('is complete only when every slot is filled', () => {
    expect(pinComplete('12345', 6)).toBe(false);
    expect(pinComplete('123456', 6)).toBe(true);
    expect(pinComplete('', 6)).toBe(false);
  });
});
