// The first five minutes (issue 15 item 3): a new account is asked its name and picture, a new
// workspace shows a checklist that ticks from what really happens (invite, channel, hello) and goes
// when done or dismissed, a new channel opens on its intro with the right icon and "Add people",
// and an invite link an admin creates lets someone else join. Screenshots desktop and phone, light and dark.
import { SHOTS_ON, shot } from './support/screenshots.ts';
import { specServer } from './support/spec-server.ts';
import { type Browser, expect, type Page, test } from './support/test.ts';
import { createWorkspaceThroughUi, sendThroughUi, signInThroughUi } from './support/ui.ts';

const SHOTS = '/tmp/shots/onboard15';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const server = specServer();

async function shoot(page: Page, name: string) {
  if (!SHOTS_ON) return;
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(200);
    await shot(page, `${SHOTS}/${name}-${scheme}.png`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const checklist = (page: Page) => page.getByRole('region', { name: 'Get started' });

test('a new owner names themself, follows the checklist to the end and meets the channel intro', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  await signInThroughUi(page, server, 'ines@example.com');

  // The name-and-picture step, above the workspace choices.
  const step = page.getByRole('form', { name: 'What should people call you?' });
  await expect(step).toBeVisible();
  await expect(step.getByRole('button', { name: 'Add picture' })).toBeVisible();
  await shoot(page, 'profile-step-desktop');
  await step.getByRole('button', { name: 'Save' }).click();
  await expect(step.getByText('Enter the name people will see')).toBeVisible();
  await step.getByLabel('Your name').fill('Inês Duarte');
  await step.getByRole('button', { name: 'Save' }).click();
  await expect(step).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Welcome, Inês Duarte' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Welcome, Inês Duarte' })).toBeVisible();
  await expect(step).toBeHidden();
  // Renamed on another device: the welcome here says the new name when the page opens again.
  const phone = await server.signInApi('ines@example.com');
  await server.api('PUT', '/api/users', phone.token, { name: 'Inês Duarte Silva' });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Welcome, Inês Duarte Silva' })).toBeVisible();
  await server.api('PUT', '/api/users', phone.token, { name: 'Inês Duarte' });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Welcome, Inês Duarte' })).toBeVisible();

  const workspaceId = await createWorkspaceThroughUi(page, 'Harbour');
  const list = checklist(page);
  await expect(list).toContainText('0 of 3 done');
  await expect(list.getByRole('listitem')).toHaveText([/Invite people/, /Create a channel/, /Say hello/]);
  await shoot(page, 'checklist-desktop');

  // Invite people by e-mail (spec §9 tags input): each address becomes a chip, a repeat is refused, and
  // one that is not an address is marked and named before anything is sent.
  await list.getByRole('button', { name: 'Invite' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite people to Harbour' });
  const emails = dialog.getByLabel('E-mail addresses');
  await expect(emails).toBeFocused();
  await emails.pressSequentially('ada@example.com,');
  await emails.pressSequentially('ADA@example.com ');
  await expect(dialog.getByText('ada@example.com is already in the list')).toBeVisible();
  await emails.pressSequentially('grace.example.com');
  await emails.press('Enter');
  const send = dialog.getByRole('button', { name: 'Send invitations' });
  await send.click();
  await expect(
    dialog.getByText('grace.example.com is not an e-mail address: correct or remove it'),
  ).toBeVisible();
  await shoot(page, 'invite-emails-desktop');
  await dialog.getByRole('button', { name: 'Remove grace.example.com' }).click();
  // An address still being typed is sent too.
  await emails.pressSequentially('grace@example.com');
  await send.click();
  await expect(page.getByText('2 invitations sent')).toBeVisible();
  await expect(list).toContainText('1 of 3 done');
  await expect(list.getByRole('listitem', { name: 'Invite people, done' })).toBeVisible();

  // An admin can also share an invite link.
  await page
    .getByRole('button', { name: /Harbour/ })
    .first()
    .click();
  await page.getByRole('menuitem', { name: 'Invite people' }).click();
  await dialog.getByRole('button', { name: '30 days' }).click();
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const address = dialog.getByLabel('Invite link address');
  await expect(address).toHaveValue(new RegExp(`^${server.url}/join\\?invite=[A-Za-z0-9_-]{43}$`));
  await shoot(page, 'invite-link-desktop');
  await page.keyboard.press('Escape');

  // Create a channel: a private one opens on its intro with a lock, "Add people" and "Add a description".
  await list.getByRole('button', { name: 'Create' }).click();
  const create = page.getByRole('dialog', { name: 'Create a channel' });
  await create.getByLabel('Name').fill('plans');
  await create.getByText('Private', { exact: true }).click();
  await create.getByRole('button', { name: 'Create channel' }).click();
  await expect(page).toHaveURL(/\/channel\//);
  const intro = page.getByTestId('channel-intro');
  await expect(intro.getByRole('heading', { name: 'Welcome to #plans' })).toBeVisible();
  await expect(intro.getByLabel('Private channel')).toBeVisible();
  await expect(intro).toContainText('Inês Duarte created this private channel on');
  await shoot(page, 'channel-intro-private-desktop');
  await intro.getByRole('button', { name: 'Add people' }).click();
  await expect(
    page.getByRole('dialog', { name: 'plans' }).getByRole('tab', { name: 'Members' }),
  ).toHaveAttribute('data-state', 'active');
  await page.keyboard.press('Escape');
  // "Add a description": what the channel is for, under its name in the intro and in the header.
  await intro.getByRole('button', { name: 'Add a description' }).click();
  const describe = page.getByRole('dialog', { name: 'Add a description' });
  await describe.getByLabel('Description').fill('Dates and decisions for the spring fair');
  await shoot(page, 'channel-describe-desktop');
  await describe.getByRole('button', { name: 'Save' }).click();
  await expect(describe).toHaveCount(0);
  await expect(intro.getByTestId('channel-description')).toHaveText(
    'Dates and decisions for the spring fair',
  );
  await expect(intro.getByRole('button', { name: 'Edit description' })).toBeVisible();
  await expect(page.locator('main header').first()).toContainText('Dates and decisions for the spring fair');

  // #general is public: the # icon, and it belongs to everyone.
  await page.goto(`${server.url}/client/${workspaceId}`);
  await expect(list).toContainText('2 of 3 done');
  await list.getByRole('link', { name: 'Open' }).click();
  await expect(intro.getByLabel('Public channel')).toBeVisible();
  await expect(intro).toContainText('Everyone in the workspace is in #general.');

  // Say hello: the last item, and the checklist has done its work. Written offline, the hello is on the
  // device already, so the checklist (the server's last answer said 2 of 3) counts it at once.
  await context.setOffline(true);
  await sendThroughUi(page, '#general', 'Hello everyone');
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Harbour' })).toBeVisible();
  await expect(list).toBeHidden();
  // Back online and reloaded straight away (the worker may deliver it after the page has asked).
  await context.setOffline(false);
  await page.goto(`${server.url}/client/${workspaceId}`);
  await expect(page.getByRole('heading', { name: 'Harbour' })).toBeVisible();
  await expect(list).toBeHidden();
  await context.close();
});

async function newOwner(browser: Browser, email: string, viewport = DESKTOP) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await signInThroughUi(page, server, email);
  await page.getByRole('button', { name: 'Not now' }).click();
  const id = await createWorkspaceThroughUi(page, `Team of ${email.split('@')[0]}`);
  return { context, page, id };
}

test('dismissing the checklist is remembered for that workspace, on the phone too', async ({ browser }) => {
  const { context, page, id } = await newOwner(browser, 'rui@example.com', PHONE);
  // On a phone the sidebar is the workspace's home: the checklist is there.
  const list = checklist(page);
  await expect(list).toBeVisible();
  // Under the conversations: it arrives after the sidebar is drawn (a request and a chunk later), and
  // above them it pushed #general down under a finger about to tap it.
  const card = await list.boundingBox();
  const directs = await page.getByRole('region', { name: 'Direct messages' }).boundingBox();
  expect(card?.y).toBeGreaterThanOrEqual((directs?.y ?? Number.POSITIVE_INFINITY) + (directs?.height ?? 0));
  await shoot(page, 'checklist-phone');
  await page.getByRole('button', { name: 'Dismiss the checklist' }).click();
  await expect(list).toBeHidden();
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Workspace' })).toBeVisible();
  await expect(list).toBeHidden();
  // Another device (a new context): still away, since the server keeps it.
  const other = await browser.newContext({ viewport: DESKTOP });
  const second = await other.newPage();
  await signInThroughUi(second, server, 'rui@example.com');
  await second.goto(`${server.url}/client/${id}`);
  await expect(second.getByRole('heading', { name: 'Team of rui' })).toBeVisible();
  await expect(checklist(second)).toBeHidden();
  await other.close();
  await context.close();
});

test('someone opening an invite link signs in, sees the workspace and joins; a turned-off link says so', async ({
  browser,
}) => {
  const owner = await newOwner(browser, 'lena@example.com');
  await checklist(owner.page).getByRole('button', { name: 'Invite', exact: true }).click();
  const dialog = owner.page.getByRole('dialog', { name: /Invite people to/ });
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const url = await dialog.getByLabel('Invite link address').inputValue();

  const guest = await browser.newContext({ viewport: PHONE });
  const page = await guest.newPage();
  await page.goto(url);
  await expect(page).toHaveURL(/\/signin\?redirect=/);
  await page.getByLabel('E-mail').fill('tomas@example.com');
  const since = Date.now() - 1;
  await page.getByRole('button', { name: 'Continue with e-mail' }).click();
  await page.getByLabel('Sign-in code').fill(await server.readCode('tomas@example.com', since));
  await expect(page).toHaveURL(/\/join\?invite=/);
  const card = page.getByRole('region', { name: 'Invite link' });
  await expect(card).toContainText('Team of lena');
  await expect(card).toContainText('lena invited you to join.');
  await shoot(page, 'invite-link-join-phone');
  await card.getByRole('button', { name: 'Join Team of lena' }).click();
  await expect(page).toHaveURL(new RegExp(`/client/${owner.id}`));

  // The admin turns the link off: opening it again says it no longer works.
  await dialog.getByRole('button', { name: 'Turn off link' }).click();
  await expect(dialog.getByRole('button', { name: 'Create link' })).toBeVisible();
  const late = await browser.newContext({ viewport: DESKTOP });
  const latePage = await late.newPage();
  await signInThroughUi(latePage, server, 'vera@example.com');
  await latePage.goto(url);
  await expect(latePage.getByRole('region', { name: 'Invite link' })).toContainText(
    'This invite link is no longer valid',
  );
  await shoot(latePage, 'invite-link-invalid-desktop');
  await Promise.all([late.close(), guest.close(), owner.context.close()]);
});

test('the install offer waits for sign-in, stays off dialogs and, once dismissed, stays away', async ({
  page,
}) => {
  const offer = () =>
    page.evaluate(() => {
      const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
        prompt: async () => undefined,
        userChoice: Promise.resolve({ outcome: 'dismissed' }),
      });
      window.dispatchEvent(event);
    });
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Install Lantern' });

  await page.goto(`${server.url}/signin`);
  await expect(page.getByLabel('E-mail')).toBeVisible();
  await offer();
  await page.waitForTimeout(500);
  await expect(toast).toHaveCount(0);

  await signInThroughUi(page, server, 'olga@example.com');
  // Signed in, the browser's offer is shown.
  await offer();
  await expect(toast).toBeVisible();
  await page.getByRole('button', { name: 'Not now' }).click();
  await createWorkspaceThroughUi(page, 'Olga & Co');
  await expect(toast).toBeVisible();
  await page.getByRole('button', { name: 'Invite people' }).first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(toast).toBeHidden();
  await page.keyboard.press('Escape');
  await expect(toast).toBeVisible();
  await toast.getByRole('button', { name: 'Close toast' }).click();
  await expect(toast).toHaveCount(0);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Olga & Co' })).toBeVisible();
  await offer();
  await page.waitForTimeout(1000);
  await expect(toast).toHaveCount(0);
});
