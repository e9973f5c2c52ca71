// The picture viewer's steps (issue 15 item 6): zoom in and out within its steps, and move between a
// message's pictures, wrapping at either end.
import { describe, expect, it } from 'vitest';
import { stepPicture, stepZoom } from '../../src/components/messages/image-viewer.tsx';

describe('image viewer', () => {
  it('zooms one step at a time, never below fitted or above 400%', () => {
    expect(stepZoom(1, 1)).toBe(1.5);
    expect(stepZoom(1.5, 1)).toBe(2);
    expect(stepZoom(4, 1)).toBe(4);
    expect(stepZoom(2, -1)).toBe(1.5);
    expect(stepZoom(1, -1)).toBe(1);
  });

  it('moves to the next and previous picture, wrapping around', () => {
    expect(stepPicture(0, 3, 1)).toBe(1);
    expect(stepPicture(2, 3, 1)).toBe(0);
    expect(stepPicture(0, 3, -1)).toBe(2);
    expect(stepPicture(0, 1, 1)).toBe(0);
  });
});
