// Sign-in through an identity provider's popup, end to end: a real OpenID provider (node-oidc-provider)
// shows its account chooser in the popup; the popup's last page is served under a strict opener policy
// (Cross-Origin-Opener-Policy: same-origin, so the browser cuts window.opener) and still signs the main
// window in. Then the button is marked "Last used", and Settings lists the linked account. Screenshots of
// the sign-in page with providers and without, desktop and phone, light and dark.
import { type OpenIdProvider, startOpenIdProvider } from '../tests/fixtures/openid-provider.ts';
import { SHOTS_ON, shot } from './support/screenshots.ts';
import { LanternServer } from './support/server.ts';
import { expect, type Page, test } from './support/test.ts';
import { createWorkspaceThroughUi } from './support/ui.ts';

const SHOTS = 'e2e/artifacts';
const PHONE = { width: 390, height: 800 };

let withProviders: LanternServer;
let plain: LanternServer;
let provider: OpenIdProvider;

test.beforeAll(async () => {
  withProviders = await LanternServer.create();
  provider = await startOpenIdProvider({
    clientId: 'lantern-e2e',
    clientSecret: 'e2e-secret',
    redirectUri: `${withProviders.url}/api/auth/provider/callback`,
    accounts: [
      { sub: 'ada', email: 'ada@school.example', email_verified: true, name: 'Ada Lovelace' },
      { sub: 'alan', email: 'alan@school.example', email_verified: true, name: 'Alan Turing' },
      // An address outside the domains the provider is trusted for: confirmed by e-mail code first.
      { sub: 'grace', email: 'grace@navy.example', email_verified: true, name: 'Grace Hopper' },
    ],
  });
  withProviders.configure({
    OIDC_PROVIDERS: JSON.stringify([
      // Google and Microsoft as an operator would configure them (never clicked here: no internet).
      { id: 'google', preset: 'google', clientId: 'g', clientSecret: 'g' },
      { id: 'microsoft', preset: 'microsoft', clientId: 'm', clientSecret: 'm' },
      {
        id: 'school',
        issuer: provider.issuer,
        clientId: 'lantern-e2e',
        clientSecret: 'e2e-secret',
        name: 'School ID',
        trustedDomains: ['school.example'],
      },
    ]),
  });
  plain = await LanternServer.create();
  await Promise.all([withProviders.start(), plain.start()]);
});

test.afterAll(async () => {
  await Promise.all([withProviders?.dispose(), plain?.dispose(), provider?.close()]);
});

async function shoot(page: Page, name: string) {
  if (!SHOTS_ON) return;
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1280, height: 800 });
    await shot(page, `${SHOTS}/${name}-desktop-${scheme}.png`);
    await page.setViewportSize(PHONE);
    await shot(page, `${SHOTS}/${name}-phone-${scheme}.png`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('a person signs in through the provider popup, which reports back under a strict opener policy', async ({
  page,
}) => {
  // The app's own pages under the strictest opener policy too (Lantern sends same-origin-allow-popups for
  // the Firebase adapter's sake): the sign-in must not need window.opener in either direction.
  await page.route(
    (url) =>
      url.origin === withProviders.url && !url.pathname.startsWith('/api/') && !/\.\w+$/.test(url.pathname),
    async (route) => {
      const response = await route.fetch();
      await route.fulfill({
        response,
        headers: { ...response.headers(), 'cross-origin-opener-policy': 'same-origin' },
      });
    },
  );
  const appPage = page.waitForResponse((r) => r.url().endsWith('/signin'));
  await page.goto(`${withProviders.url}/signin`);
  expect((await appPage).headers()['cross-origin-opener-policy']).toBe('same-origin');
  const school = page.getByRole('button', { name: 'Continue with School ID' });
  await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue with Microsoft' })).toBeVisible();
  await expect(school).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue with e-mail' })).toBeVisible();
  await shoot(page, 'signin-providers');

  const popupOpened = page.waitForEvent('popup');
  await school.click();
  const popup = await popupOpened;
  // The provider's account chooser, every time (prompt=select_account).
  await expect(popup.getByRole('heading', { name: 'Choose an account' })).toBeVisible();
  const callback = popup.waitForResponse((r) => r.url().includes('/api/auth/provider/callback'));
  await popup.getByRole('link', { name: /Ada Lovelace/ }).click();
  expect((await callback).headers()['cross-origin-opener-policy']).toBe('same-origin');

  // The main window is signed in: a new person lands on /join and makes a workspace.
  await expect(page).toHaveURL(/\/join$/);
  const workspaceId = await createWorkspaceThroughUi(page, 'Analytical Engines');

  // Settings lists the linked account next to the e-mail code.
  await page.goto(`${withProviders.url}/client/${workspaceId}/settings`);
  const methods = page.getByRole('region', { name: 'Sign-in methods' });
  await expect(methods.getByText('E-mail code')).toBeVisible();
  await expect(methods.getByText('School ID')).toBeVisible();
  await methods.scrollIntoViewIfNeeded();
  await shot(page, `${SHOTS}/settings-signin-methods-desktop.png`, { fullPage: true });
  await page.setViewportSize(PHONE);
  await page.emulateMedia({ colorScheme: 'dark' });
  await methods.scrollIntoViewIfNeeded();
  await shot(page, `${SHOTS}/settings-signin-methods-phone-dark.png`);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
  // Unlinking leaves the e-mail code; the next sign-in with the trusted provider links it again.
  await methods.getByRole('button', { name: 'Unlink School ID' }).click();
  await expect(methods.getByText('School ID')).toHaveCount(0);
  await expect(methods.getByText('E-mail code')).toBeVisible();

  // Signed out, the page highlights the provider used last on this device; a second sign-in shows the
  // account chooser again and lands in the same account.
  await page
    .getByRole('button', { name: /Analytical Engines/ })
    .first()
    .click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/signin/);
  await expect(school.getByText('Last used')).toBeVisible();
  await shot(page, `${SHOTS}/signin-last-used-desktop.png`);
  const again = page.waitForEvent('popup');
  await school.click();
  const second = await again;
  await second.getByRole('link', { name: /Ada Lovelace/ }).click();
  await expect(page).toHaveURL(new RegExp(`/client/${workspaceId}`));
  expect(provider.chooserShown).toBe(2);
});

test('an address the provider is not trusted for is confirmed with the e-mail code first', async ({
  page,
}) => {
  await page.goto(`${withProviders.url}/signin`);
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Continue with School ID' }).click();
  const popup = await popupOpened;
  const since = Date.now() - 1;
  await popup.getByRole('link', { name: /Grace Hopper/ }).click();
  await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
  await expect(page.getByText('grace@navy.example')).toBeVisible();
  await shoot(page, 'signin-provider-confirm');
  const code = await withProviders.readCode('grace@navy.example', since);
  await page.getByLabel('Sign-in code').fill(code);
  await expect(page).toHaveURL(/\/join$/);
});

test('with popups blocked the sign-in runs in the tab and finishes back on the sign-in page', async ({
  page,
}) => {
  // What a browser that blocks the popup returns from window.open.
  await page.addInitScript(() => {
    window.open = () => null;
  });
  await page.goto(`${withProviders.url}/signin`);
  await page.getByRole('button', { name: 'Continue with School ID' }).click();
  await expect(page.getByRole('heading', { name: 'Choose an account' })).toBeVisible();
  await page.getByRole('link', { name: /Alan Turing/ }).click();
  await expect(page).toHaveURL(/\/join$/);
});

test('closing the popup says so', async ({ page }) => {
  await page.goto(`${withProviders.url}/signin`);
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Continue with School ID' }).click();
  const popup = await popupOpened;
  await expect(popup.getByRole('heading', { name: 'Choose an account' })).toBeVisible();
  await popup.close();
  // The person is back in the app's window: it has focus again and no answer came (headless Chromium
  // does not fire the window's focus event on its own, so the test sends the one a browser would).
  await page.bringToFront();
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await expect(page.getByText('Sign-in popup was closed. Please try again.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue with School ID' })).toBeEnabled();
});

test('with no provider configured the page is the e-mail code alone', async ({ page }) => {
  await page.goto(`${plain.url}/signin`);
  await expect(page.getByRole('button', { name: 'Continue with e-mail' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Continue with (?!e-mail)/ })).toHaveCount(0);
  await shoot(page, 'signin-email-only');
});
