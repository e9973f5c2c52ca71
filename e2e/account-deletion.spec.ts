// /account-deletion through the page: a primary owner, signed in, is told which workspace to hand over
// before the button works; a member, signed out on a phone, proves the address with the mailed deletion
// code and deletes the account; the owner then sees that member's message under "Deleted user", and,
// now alone, deletes their own account signed in, taking the empty workspace with it.
// Screenshots of the page at desktop and phone width, light and dark, go to e2e/artifacts.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { SHOTS_ON, shot } from './support/screenshots.ts';
import { specServer } from './support/spec-server.ts';
import { expect, type Page, test } from './support/test.ts';
import { signInThroughUi } from './support/ui.ts';

const SHOTS = 'e2e/artifacts';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

const server = specServer();

/** The newest account deletion code mailed to `email`, waiting for it to arrive. */
async function readDeletionCode(email: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const names = (await readdir(server.mailDir).catch(() => [] as string[]))
      .filter((n) => n.includes(`-${email}-`))
      .sort()
      .reverse();
    for (const name of names) {
      const match = /account deletion code: (\d{6})/.exec(
        await readFile(path.join(server.mailDir, name), 'utf8'),
      );
      if (match?.[1]) return match[1];
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`no deletion code for ${email}`);
}

async function shoot(page: Page, name: string) {
  if (!SHOTS_ON) return;
  for (const [label, size] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await shot(page, `${SHOTS}/${name}-${label}-${scheme}.png`, { fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('a member deletes their account by e-mail code; the owner is asked to hand over, then, alone, deletes signed in', async ({
  browser,
}) => {
  const ownerEmail = 'rhea@example.com';
  const samEmail = 'sam@example.com';
  const owner = await server.signInApi(ownerEmail);
  const created = await server.api<{ institution: { id: string } }>(
    'POST',
    '/api/institutions',
    owner.token,
    {
      name: 'Harbour Ops',
    },
  );
  const ws = created.institution.id;
  const joined = await server.api<{ channels: { id: string; isDefault: boolean }[] }>(
    'GET',
    `/api/institutions/${ws}/channels/joined`,
    owner.token,
  );
  const general = joined.channels.find((c) => c.isDefault)?.id ?? '';
  const sam = await server.signInApi(samEmail);
  await server.api('POST', `/api/institutions/${ws}/invited-members`, owner.token, { emails: [samEmail] });
  await server.api('POST', `/api/institutions/${ws}/members`, sam.token);
  const members = await server.api<{ data: { id: string; user: { id: string } }[] }>(
    'GET',
    `/api/institutions/${ws}/members`,
    owner.token,
  );
  const samMember = members.data.find((m) => m.user.id === sam.userId)?.id ?? '';
  await server.api('PUT', `/api/institutions/${ws}/members/${samMember}`, owner.token, { role: 'admin' });
  await server.api('POST', `/api/institutions/${ws}/channels/${general}/messages`, sam.token, {
    content: '<p>Crane 4 is back in service</p>',
    genId: crypto.randomUUID(),
  });

  // The primary owner, signed in: the page names the workspace to hand over and links to its Settings.
  const ownerContext = await browser.newContext({ viewport: DESKTOP });
  const onDesk = await ownerContext.newPage();
  await signInThroughUi(onDesk, server, ownerEmail);
  await onDesk.goto(`${server.url}/account-deletion`);
  await expect(onDesk.getByRole('heading', { name: 'Delete your account' })).toBeVisible();
  await expect(onDesk.getByText('Hand these workspaces over first')).toBeVisible();
  await expect(onDesk.getByRole('link', { name: 'Hand over' })).toHaveAttribute(
    'href',
    `/client/${ws}/settings`,
  );
  await onDesk.getByLabel('I understand that my account is deleted for good.').check();
  await expect(onDesk.getByRole('button', { name: 'Delete my account' })).toBeDisabled();
  await shoot(onDesk, 'account-deletion-blocked');

  // The link leads to the hand-over in the workspace's Settings, where Sam (an admin) can be chosen.
  await onDesk.setViewportSize(DESKTOP);
  await onDesk.getByRole('link', { name: 'Hand over' }).click();
  const primary = onDesk.getByRole('region', { name: 'Primary owner' });
  await primary.scrollIntoViewIfNeeded();
  await primary.getByRole('combobox', { name: 'New primary owner' }).click();
  await expect(onDesk.getByRole('option', { name: 'sam (admin)' })).toBeVisible();
  await shot(onDesk, `${SHOTS}/settings-hand-over-desktop.png`);
  await onDesk.keyboard.press('Escape');

  // Sam, signed out on a phone: the code step, then the choice and the confirmation.
  const phoneContext = await browser.newContext({ viewport: PHONE });
  const onPhone = await phoneContext.newPage();
  await onPhone.goto(`${server.url}/account-deletion`);
  await expect(onPhone.getByRole('region', { name: 'What happens' })).toContainText('“Deleted user”');
  await shoot(onPhone, 'account-deletion-signed-out');
  await onPhone.setViewportSize(PHONE);
  await onPhone.getByLabel('E-mail of the account').fill(samEmail);
  await onPhone.getByRole('button', { name: 'Send the code' }).click();
  await onPhone.getByLabel('Deletion code').fill(await readDeletionCode(samEmail));
  await expect(onPhone.getByLabel('Keep my messages')).toBeChecked();
  await onPhone.getByLabel('I understand that my account is deleted for good.').check();
  await onPhone.getByRole('button', { name: 'Delete my account' }).click();
  await expect(onPhone.getByRole('heading', { name: 'Your account was deleted' })).toBeVisible();
  await shoot(onPhone, 'account-deletion-done');

  // Sam's other session is gone, and the owner reads Sam's message under "Deleted user".
  await expect(server.api('GET', '/api/users', sam.token)).rejects.toMatchObject({ status: 401 });
  await onDesk.goto(`${server.url}/client/${ws}/channel/${general}`);
  const message = onDesk.locator('article[data-status]', { hasText: 'Crane 4 is back in service' });
  await expect(message).toContainText('Deleted user');

  // Now alone in the workspace, the owner deletes their own account, signed in: the workspace goes with it.
  await onDesk.goto(`${server.url}/account-deletion`);
  await expect(
    onDesk.getByText('Nobody else is in “Harbour Ops”: it is deleted with your account.'),
  ).toBeVisible();
  await onDesk.getByLabel('Remove my messages').check();
  await onDesk.getByLabel('I understand that my account is deleted for good.').check();
  await onDesk.getByRole('button', { name: 'Delete my account' }).click();
  await expect(onDesk.getByRole('status')).toContainText('Deleted with it: “Harbour Ops”.');
  await expect(server.api('GET', '/api/users', owner.token)).rejects.toMatchObject({ status: 401 });
  await onDesk.getByRole('link', { name: 'Back to sign-in' }).click();
  await expect(onDesk).toHaveURL(/\/signin/);

  await ownerContext.close();
  await phoneContext.close();
});
