// Installing the app (spec §4, §9): Chromium finds the manifest installable (no installability
// errors through the DevTools protocol), the install toast says the spec's words, and on an iPhone the
// 'Add Lantern to Your Home Screen' dialog opens on load until it is closed once.
import { shot } from './support/screenshots.ts';
import { specServer } from './support/spec-server.ts';
import { devices, expect, test } from './support/test.ts';
import { createWorkspaceThroughUi, signInThroughUi } from './support/ui.ts';

const SHOTS = 'e2e/artifacts';
const server = specServer();

test('the app is installable and offers itself with the install toast', async ({ page, context }) => {
  await signInThroughUi(page, server, 'ana@example.com');
  await createWorkspaceThroughUi(page, 'Harbour');
  await page.waitForFunction(async () => {
    await navigator.serviceWorker.ready;
    return navigator.serviceWorker.controller !== null;
  });
  const cdp = await context.newCDPSession(page);
  // Playwright's contexts are incognito, where Chromium never installs: that one reason is the test's.
  await expect
    .poll(async () =>
      (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors
        .map((e) => e.errorId)
        .filter((id) => id !== 'in-incognito'),
    )
    .toEqual([]);
  const manifest = await cdp.send('Page.getAppManifest');
  expect(manifest.errors).toEqual([]);
  if (process.env.MANIFEST_SHOTS) {
    await shot(page, `${SHOTS}/app-wide.png`);
  }

  // Headless Chromium never decides to offer installation itself: hand the page the browser's event.
  await page.evaluate(() => {
    const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt: async () => undefined,
      userChoice: Promise.resolve({ outcome: 'dismissed' }),
    });
    window.dispatchEvent(offer);
  });
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Install Lantern' });
  await expect(toast).toContainText('Install the app for a better experience!');
  await expect(toast.getByRole('button', { name: 'Install' })).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(300);
    await shot(page, `${SHOTS}/install-toast-desktop-${scheme}.png`);
  }
  // At phone width (a fresh load: sonner lays a toast out for the width it appeared at).
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.evaluate(() => {
    const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt: async () => undefined,
      userChoice: Promise.resolve({ outcome: 'dismissed' }),
    });
    window.dispatchEvent(offer);
  });
  await expect(toast).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(500);
    await shot(page, `${SHOTS}/install-toast-phone-${scheme}.png`);
  }
});

test('an offer the browser makes before the app has rendered is not lost', async ({ page }) => {
  await signInThroughUi(page, server, 'ines@example.com');
  await createWorkspaceThroughUi(page, 'Harbour');
  // On the reload the offer comes as the document is parsed: the app's scripts have run, its screen has
  // not rendered (the store is still opening), as on a slow phone.
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
        prompt: async () => undefined,
        userChoice: Promise.resolve({ outcome: 'dismissed' }),
      });
      window.dispatchEvent(offer);
    });
  });
  await page.reload();
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Install Lantern' })).toBeVisible();
});

test.describe('on an iPhone', () => {
  const { userAgent, deviceScaleFactor, isMobile, hasTouch } = devices['iPhone 13'];
  test.use({ userAgent, deviceScaleFactor, isMobile, hasTouch, viewport: { width: 390, height: 844 } });

  test('the home screen tutorial opens on load until it is closed, and only on load', async ({ page }) => {
    const title = 'Add Lantern to Your Home Screen';
    // Every time the dialog enters the document, however briefly (a frame before the stored setting loads).
    await page.addInitScript((text) => {
      const w = window as unknown as { tutorialShown: number };
      w.tutorialShown = 0;
      new MutationObserver((changes) => {
        for (const change of changes)
          for (const node of change.addedNodes)
            if (node instanceof Element && node.textContent?.includes(text)) w.tutorialShown += 1;
      }).observe(document, { childList: true, subtree: true });
    }, title);
    const shownCount = () =>
      page.evaluate(() => (window as unknown as { tutorialShown: number }).tutorialShown);
    await page.goto(`${server.url}/`);
    const dialog = page.getByRole('dialog', { name: title });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('listitem')).toContainText([
      'Share in the toolbar.',
      'Add to Home Screen.',
      'Optionally rename it.',
      'Tap Add.',
    ]);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(300);
      await shot(page, `${SHOTS}/ios-dialog-phone-${scheme}.png`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await dialog.getByRole('button', { name: 'Got it' }).click();
    await expect(dialog).toBeHidden();

    // The app itself again (a reload of /signin would be the separate sign-in page, which has no dialog):
    // closed once, it does not open, not even for the moment before the stored setting is read.
    await signInThroughUi(page, server, 'bo@example.com');
    const workspaceId = await createWorkspaceThroughUi(page, 'Harbour');
    await page.waitForTimeout(1000);
    expect(await shownCount()).toBe(0);
    await expect(dialog).toBeHidden();

    // Switched back on in Settings, it waits for the next load rather than opening over the settings.
    await page.goto(`${server.url}/client/${workspaceId}/settings`);
    const tip = page.getByRole('switch', { name: 'Home screen tip on iPhone and iPad' });
    await expect(tip).not.toBeChecked();
    await tip.click();
    await expect(tip).toBeChecked();
    await page.waitForTimeout(1000);
    expect(await shownCount()).toBe(0);
    await page.reload();
    await expect(dialog).toBeVisible();
    if (process.env.MANIFEST_SHOTS) {
      await dialog.getByRole('button', { name: 'Got it' }).click();
      await shot(page, `${SHOTS}/app-narrow.png`);
    }
  });
});
