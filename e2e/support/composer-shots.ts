// Screenshots of a state in both themes at the page's current size (changing the size would remount the
// channel screen, and with it the state being shown). The page is put back to light afterwards.
import type { Page } from '@playwright/test';
import { SHOTS_ON, shot } from './screenshots.ts';

export async function shootBothThemes(page: Page, dir: string, name: string): Promise<void> {
  if (!SHOTS_ON) return;
  const size = (page.viewportSize()?.width ?? 1280) < 768 ? 'phone' : 'desktop';
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(150);
    await shot(page, `${dir}/${name}-${size}-${scheme}.png`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
