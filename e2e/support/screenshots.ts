// Screenshots for people to look at (issue 15 item 12): taken with E2E_SHOTS=1 (`npm run test:shots`),
// skipped by `npm test`, where they assert nothing and cost the suite about a minute. Playwright's own
// screenshot of a failing test is always taken (playwright.config.ts).
import type { Locator, Page } from '@playwright/test';

export const SHOTS_ON = process.env.E2E_SHOTS === '1';

export async function shot(target: Page | Locator, path: string, options: { fullPage?: boolean } = {}) {
  if (SHOTS_ON) await target.screenshot({ path, ...options });
}
