// Issue 15 item 8 (decision 0055): an admin ticks several people in the directory (a click, a Shift+click
// range, "Select all shown") and changes their workspace role at once. The primary owner is refused with
// the reason before anything is sent; the others change, and a reload and the server agree.
import { seriousViolations } from './support/accessibility.ts';
import { shot } from './support/screenshots.ts';
import { specServer } from './support/spec-server.ts';
import { seedTeam } from './support/team.ts';
import { expect, type Page, test } from './support/test.ts';
import { createWorkspaceThroughUi, signInThroughUi } from './support/ui.ts';

const ARTIFACTS = 'e2e/artifacts';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const server = specServer();

const members = (page: Page) => page.getByRole('list', { name: 'Members' });
const tick = (page: Page, name: string) => page.getByRole('checkbox', { name: `Select ${name}` });
const filter = (page: Page, name: string) =>
  page.getByRole('group', { name: 'Filter by role' }).getByRole('button', { name, exact: true });

test('an admin makes two people admins at once; the primary owner is refused with its reason', async ({
  browser,
}) => {
  test.slow(); // several browsers or many steps: three times the default limit
  const owner = await browser.newContext({ viewport: DESKTOP });
  const ownerPage = await owner.newPage();
  await signInThroughUi(ownerPage, server, 'ada@example.com');
  const workspaceId = await createWorkspaceThroughUi(ownerPage, 'Northwind Ops');
  const ada = await server.signInApi('ada@example.com');
  await server.api('PUT', '/api/users', ada.token, { name: 'Ada Lovelace' });
  // Grace Hopper is an admin; Tomas, Mira and Linus are members; Yuki is a guest.
  await seedTeam(server, workspaceId, ada.token);
  await owner.close();

  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  await signInThroughUi(page, server, 'grace@example.com');
  await page.goto(`${server.url}/client/${workspaceId}/directory`);
  await expect(members(page).getByRole('listitem')).toHaveCount(6);

  // "Select all shown" covers what the filter shows: the one guest.
  await filter(page, 'Guests').click();
  await page.getByRole('checkbox', { name: 'Select all shown' }).check();
  await expect(page.getByText('1 selected')).toBeVisible();
  await page.getByRole('button', { name: 'Clear the selection' }).click();
  await expect(tick(page, 'Yuki Tanaka')).not.toBeChecked();

  // Members only (Linus, Mira, Tomas by name): Linus, then Shift+click Mira ticks the range.
  await filter(page, 'Members').click();
  await expect(members(page).getByRole('listitem')).toHaveCount(3);
  await tick(page, 'Linus Park').click();
  await tick(page, 'Mira Okafor').click({ modifiers: ['Shift'] });
  await expect(tick(page, 'Mira Okafor')).toBeChecked();
  await expect(tick(page, 'Tomas Berg')).not.toBeChecked();
  // Back to everyone: the ticks stay, and the primary owner is ticked too.
  await filter(page, 'Everyone').click();
  await tick(page, 'Ada Lovelace').click();
  await expect(page.getByText('3 selected')).toBeVisible();
  await shot(page, `${ARTIFACTS}/directory-bulk-selected-desktop.png`);

  await page.getByRole('button', { name: 'Change role…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change the role of 3 people' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('radio', { name: 'Admin' }).check();
  await expect(dialog.getByText('2 people will become Admin.')).toBeVisible();
  await expect(dialog.getByRole('list', { name: 'Becoming Admin' }).getByRole('listitem')).toHaveText([
    'Linus Park',
    'Mira Okafor',
  ]);
  await expect(dialog.getByRole('list', { name: 'Will not change' }).getByRole('listitem')).toHaveText([
    'Ada Lovelace: Nobody can change the primary owner’s role',
  ]);
  // An admin cannot hand out "Owner": only the primary owner can.
  await expect(dialog.getByRole('radio', { name: 'Owner' })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await shot(page, `${ARTIFACTS}/directory-bulk-dialog-desktop.png`);
  await page.emulateMedia({ colorScheme: 'dark' });
  // Buttons ease into the new colours: wait so the shot is not taken halfway.
  await page.waitForTimeout(400);
  await shot(page, `${ARTIFACTS}/directory-bulk-dialog-dark-desktop.png`);
  await page.emulateMedia({ colorScheme: 'light' });

  await dialog.getByRole('button', { name: 'Make 2 people Admin' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('2 people are now Admin')).toBeVisible();
  await expect(page.getByText(/\d selected/)).toHaveCount(0);
  await expect(members(page).getByRole('link', { name: /^Linus Park, Admin,/ })).toBeVisible();
  await expect(members(page).getByRole('link', { name: /^Mira Okafor, Admin,/ })).toBeVisible();

  // The server agrees, and nobody else changed.
  const roles = async () => {
    const res = await server.api<{ data: { name: string; role: string }[] }>(
      'GET',
      `/api/institutions/${workspaceId}/members`,
      ada.token,
    );
    return Object.fromEntries(res.data.map((m) => [m.name, m.role]));
  };
  expect(await roles()).toMatchObject({
    'Ada Lovelace': 'primary_owner',
    'Grace Hopper': 'admin',
    'Linus Park': 'admin',
    'Mira Okafor': 'admin',
    'Tomas Berg': 'member',
    'Yuki Tanaka': 'guest',
  });

  await page.reload();
  await expect(members(page).getByRole('link', { name: /^Linus Park, Admin,/ })).toBeVisible();
  await expect(members(page).getByRole('link', { name: /^Mira Okafor, Admin,/ })).toBeVisible();
  await expect(members(page).getByRole('link', { name: /^Ada Lovelace, Primary owner,/ })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // Phone and dark: the selection bar and the dialog fit a narrow screen.
  await page.setViewportSize(PHONE);
  await tick(page, 'Tomas Berg').click();
  await tick(page, 'Grace Hopper').click();
  await shot(page, `${ARTIFACTS}/directory-bulk-selected-phone.png`);
  await page.getByRole('button', { name: 'Change role…' }).click();
  await page.getByRole('dialog').getByRole('radio', { name: 'Guest' }).check();
  // One's own role is not changed this way, and the dialog says why.
  await expect(
    page.getByRole('dialog').getByRole('list', { name: 'Will not change' }).getByRole('listitem'),
  ).toHaveText([/^Grace Hopper: You cannot change your own role here/]);
  await shot(page, `${ARTIFACTS}/directory-bulk-dialog-phone.png`);
  await page.emulateMedia({ colorScheme: 'dark' });
  // Buttons ease into the new colours: wait so the shot is not taken halfway.
  await page.waitForTimeout(400);
  await shot(page, `${ARTIFACTS}/directory-bulk-dialog-dark-phone.png`);
  expect(await seriousViolations(page)).toEqual([]);
  await context.close();
});
