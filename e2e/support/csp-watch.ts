// Collects what the browser reports about the Content-Security-Policy on a page: console errors that
// name the policy and `securitypolicyviolation` events, so a spec can require that nothing was blocked.
import type { Page } from '@playwright/test';

export interface CspWatch {
  /** Every violation seen so far, one line each. */
  violations(): string[];
}

export async function watchCsp(page: Page): Promise<CspWatch> {
  const seen: string[] = [];
  const note = (line: string) => {
    seen.push(line);
    // Printed at once too: a spec that fails on a later step still shows what the policy blocked.
    console.error(`CSP violation: ${line}`);
  };
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) note(`console: ${message.text()}`);
  });
  // The console text is Chromium's wording; the DOM event is the standard signal, caught in every frame.
  await page.exposeFunction('__reportCspViolation', (line: string) => note(`event: ${line}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __reportCspViolation?: (line: string) => void })
        .__reportCspViolation;
      report?.(`${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} in ${e.sourceFile}`);
    });
  });
  return { violations: () => [...seen] };
}
