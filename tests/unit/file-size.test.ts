// Sizes shown beside attachments read as people expect (spec §9): units switch at 1024, two decimals.
import { describe, expect, it } from 'vitest';
import { formatFileSize } from '../../src/components/messages/file-size.ts';

describe('a file size as shown to people', () => {
  it('stays in bytes below 1024', () => {
    expect(formatFileSize(0)).toBe('0 B');
    expect(formatFileSize(1023)).toBe('1023 B');
  });

  it('switches to KB, MB and GB at each 1024 with two decimals', () => {
    expect(formatFileSize(1024)).toBe('1.00 KB');
    expect(formatFileSize(1536)).toBe('1.50 KB');
    expect(formatFileSize(1024 * 1024)).toBe('1.00 MB');
    expect(formatFileSize(5.25 * 1024 * 1024)).toBe('5.25 MB');
    expect(formatFileSize(3 * 1024 ** 3)).toBe('3.00 GB');
  });

  it('keeps counting in GB past 1024 GB', () => {
    expect(formatFileSize(2048 * 1024 ** 3)).toBe('2048.00 GB');
  });

  it('shows nonsense input as 0 B rather than NaN', () => {
    expect(formatFileSize(-5)).toBe('0 B');
    expect(formatFileSize(Number.NaN)).toBe('0 B');
  });
});
