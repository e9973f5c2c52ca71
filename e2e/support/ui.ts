// What a person does in the UI, as reusable steps: sign in with the mailed code, create a workspace,
// open a channel, send a message. Locators use roles and labels, as a screen reader would.
import { expect, type Locator, type Page } from '@playwright/test';
import type { LanternServer } from './server.ts';

export async function signInThroughUi(page: Page, server: LanternServer, email: string): Promise<void> {
  await page.goto(`${server.url}/`);
  await expect(page).toHaveURL(/\/signin\?redirect=/);
  await page.getByLabel('E-mail').fill(email);
  const since = Date.now() - 1;
  await page.getByRole('button', { name: 'Continue with e-mail' }).click();
  const code = await server.readCode(email, since);
  // Typing the sixth digit signs in without another click.
  await page.getByLabel('Sign-in code').fill(code);
  await expect(page).not.toHaveURL(/\/signin/);
}

/** From /join: creates a workspace and returns its id (from the URL it lands on). */
export async function createWorkspaceThroughUi(page: Page, name: string): Promise<string> {
  await expect(page).toHaveURL(/\/join$/);
  await page.getByLabel('Workspace name').fill(name);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await expect(page).toHaveURL(/\/client\/[^/]+/);
  const id = /\/client\/([^/?#]+)/.exec(page.url())?.[1];
  if (!id) throw new Error(`no workspace id in ${page.url()}`);
  return id;
}

export function sidebarChannel(page: Page, name: string): Locator {
  return page
    .getByRole('navigation', { name: 'Workspace' })
    .getByRole('link', { name: new RegExp(`^${name}\\b`) });
}

export async function openChannelFromSidebar(page: Page, name: string): Promise<void> {
  // Clicked again until the channel's page is open: right after a reload the sidebar may re-render under
  // the pointer as the workspace's channels arrive, and that click lands on nothing.
  const link = sidebarChannel(page, name);
  await expect(async () => {
    await link.click();
    const href = await link.getAttribute('href');
    if (href) await expect(page).toHaveURL((url) => url.pathname === href, { timeout: 5_000 });
  }).toPass();
  await expect(composer(page, `#${name}`)).toBeVisible();
}

export function composer(page: Page, target: string): Locator {
  return page.getByRole('textbox', { name: `Message ${target}` });
}

export function messageList(page: Page): Locator {
  return page.locator('article[data-status]');
}

export async function sendThroughUi(page: Page, target: string, text: string): Promise<void> {
  const box = composer(page, target);
  // A composer just mounted (a reload, another channel) is read-only until its draft is restored, and says
  // so with aria-readonly, which toBeEditable waits on; `fill` refuses a read-only editor without waiting.
  await expect(box).toBeEditable();
  await box.fill(text);
  await box.press('Enter');
  await expect(box).toHaveText('');
}

/**
 * Scrolls to what the locator finds now. After a viewport change the layout may mount its element anew
 * mid-scroll ("not attached to the DOM"); this looks it up again until one scroll lands.
 */
export async function scrollTo(target: Locator): Promise<void> {
  await expect(async () => target.scrollIntoViewIfNeeded({ timeout: 2_000 })).toPass();
}

/**
 * Waits until the service worker controls the page, so the app shell and its chunks are cached: a person
 * who loses the server before then has no offline app yet (a chunk still loading fails, the reload guard
 * reloads, and the navigation meets the server's 503 while it stops).
 */
export async function appShellCached(page: Page): Promise<void> {
  await page.waitForFunction(async () => {
    await navigator.serviceWorker.ready;
    return navigator.serviceWorker.controller !== null;
  });
}
