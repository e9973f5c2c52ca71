// The build sets sonner's swipe threshold to the spec's 20 px (scripts/toast-swipe.ts); a sonner that no
// longer declares it stops the build instead of shipping its own 45 px.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { TOAST_SWIPE_THRESHOLD_PX, withSwipeThreshold } from '../../scripts/toast-swipe.ts';

const require = createRequire(import.meta.url);

describe('toast swipe threshold', () => {
  it('is the spec’s 20 px in the sonner this app installs', () => {
    const sonner = readFileSync(require.resolve('sonner').replace(/index\.js$/, 'index.mjs'), 'utf8');
    const built = withSwipeThreshold(sonner);
    expect(TOAST_SWIPE_THRESHOLD_PX).toBe(20);
    expect(built).toContain('const SWIPE_THRESHOLD = 20;');
    expect(built).not.toMatch(/const SWIPE_THRESHOLD = 45;/);
  });

  it('stops the build when sonner no longer declares it', () => {
    expect(() => withSwipeThreshold('export const nothing = 1;')).toThrow(/SWIPE_THRESHOLD/);
  });
});
