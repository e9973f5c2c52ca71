// axe (a tool nobody here wrote) on a page once it has settled: a button easing into its colours (a
// dialog's submit turning enabled, a theme switch) reads as low contrast halfway through its transition,
// and directory-bulk-roles.spec failed once on exactly that.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** The serious and critical violations on the page (or within `selector`), one line per element. */
export function seriousViolations(page: Page, selector?: string): Promise<string[]> {
  return violations(page, { selector, impacts: ['serious', 'critical'] });
}

/** The violations of the given impacts on the page (or within `selector`), one line per element. */
export async function violations(
  page: Page,
  { selector, impacts }: { selector?: string; impacts: string[] },
): Promise<string[]> {
  // Finite animations and transitions only: a spinner turns for as long as it is shown.
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every(
            (a) =>
              a.playState !== 'running' ||
              a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY,
          ),
      undefined,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
  const builder = new AxeBuilder({ page });
  const result = await (selector ? builder.include(selector) : builder).analyze();
  return result.violations
    .filter((v) => impacts.includes(v.impact ?? ''))
    .flatMap((v) =>
      v.nodes.map((n) => `${v.id} at ${n.target.join(' ')}: ${n.failureSummary?.split('\n')[1] ?? ''}`),
    );
}
