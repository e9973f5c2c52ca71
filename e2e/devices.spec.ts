// Settings → Devices: a person signed in on a laptop and a phone sees both by device name, knows which one
// they hold, and signs the phone out from the laptop ("Sign out everywhere else"): the phone, without
// reloading, is sent to sign-in by its next request. Screenshots at 1280 and 390 wide, light and dark.
import { SHOTS_ON, shot } from './support/screenshots.ts';
import { specServer } from './support/spec-server.ts';
import { expect, type Page, test } from './support/test.ts';
import { createWorkspaceThroughUi, signInThroughUi } from './support/ui.ts';

const SHOTS = 'e2e/artifacts';
const PHONE = { width: 390, height: 844 };

async function shootBothSchemes(page: Page, name: string) {
  if (!SHOTS_ON) return;
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await shot(page, `${SHOTS}/${name}-${scheme}.png`, { fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const server = specServer();

test('a person sees their devices and signs the others out', async ({ browser }) => {
  const laptop = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const phone = await browser.newContext({
    viewport: PHONE,
    userAgent:
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  });
  const onLaptop = await laptop.newPage();
  const onPhone = await phone.newPage();

  await signInThroughUi(onLaptop, server, 'noor@example.com');
  const workspaceId = await createWorkspaceThroughUi(onLaptop, 'Harbour Ops');
  await signInThroughUi(onPhone, server, 'noor@example.com');
  await expect(onPhone).toHaveURL(/\/client\//);

  // Both devices are listed; the laptop is "This device" and only the other one can be signed out.
  await onLaptop.goto(`${server.url}/client/${workspaceId}/settings`);
  const devices = onLaptop.getByRole('region', { name: 'Devices' });
  await expect(devices.getByText('This device')).toHaveCount(1);
  await expect(devices.getByRole('button', { name: 'Sign out', exact: true })).toHaveCount(1);
  await expect(devices.getByText('Chrome on Android')).toBeVisible();
  await expect(devices.getByText('Last active just now')).toBeVisible();
  await devices.scrollIntoViewIfNeeded();
  await shootBothSchemes(onLaptop, 'settings-devices-desktop');

  await onPhone.goto(`${server.url}/client/${workspaceId}/settings`);
  await expect(onPhone.getByRole('region', { name: 'Devices' }).getByText('This device')).toBeVisible();
  await shootBothSchemes(onPhone, 'settings-devices-phone');

  // A second browser profile on the laptop (same traits, so the same device id) is told apart from the
  // phone: it shows as "Also this device", not as a stranger.
  const laptopAgain = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await signInThroughUi(await laptopAgain.newPage(), server, 'noor@example.com');
  await onLaptop.reload();
  await expect(devices.getByText('Also this device')).toHaveCount(1);
  await expect(devices.getByRole('button', { name: 'Sign out', exact: true })).toHaveCount(2);

  // From the laptop: sign out everywhere else. The list keeps only this device, and the phone, whose
  // session is gone and whose socket was closed by the server, lands on sign-in.
  await devices.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await expect(devices.getByRole('button', { name: 'Sign out', exact: true })).toHaveCount(0);
  await expect(devices.getByText('This device')).toHaveCount(1);
  // No reload and no click: the server closed the phone's socket, refuses it when it reconnects, and the
  // phone's worker tells its tab, which signs out to sign-in by itself (spec §8), with the path to come back to.
  await expect(onPhone).toHaveURL(/\/signin\?redirect=%2Fclient%2F/);

  // The laptop is still signed in.
  await onLaptop.reload();
  await expect(onLaptop.getByRole('region', { name: 'Devices' }).getByText('This device')).toBeVisible();

  await laptopAgain.close();
  await laptop.close();
  await phone.close();
});
