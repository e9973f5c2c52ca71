// An LTI 1.3 launch as a student meets it: the course page of a test platform (on 127.0.0.1, another site
// than the app on localhost) shows Lantern in an iframe. With third-party cookies (and with them
// third-party storage) blocked the frame cannot keep Lantern's store, so it offers "Open in a new window",
// where the same launch (its ltik not yet spent) signs the student in and opens the course's channel. The
// login's state goes through the course page's LTI postMessage storage, proving the browser is the same.
import type { LtiPlatform } from '../schemas/protocol/index.ts';
import { type LaunchSpec, TestPlatform } from '../tests/support/lti-platform.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium.ts';
import { shot } from './support/screenshots.ts';
import { specServer } from './support/spec-server.ts';
import { type BrowserContext, chromium, expect, type Page, test } from './support/test.ts';
import { createWorkspaceThroughUi, scrollTo, signInThroughUi } from './support/ui.ts';

const SHOTS = 'e2e/artifacts';
const LEARNER = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner';
// The platform runs on this machine: the operator's opt-in lets the tool fetch its keys.
const server = specServer({ LTI_ALLOW_PRIVATE: 'true' });
let moodle: TestPlatform;

test.beforeAll(async () => {
  moodle = await new TestPlatform('moodle').start('127.0.0.1');
  const admin = await server.signInApi('registrar@example.com');
  const ws = await server.api<{ institution: { id: string } }>('POST', '/api/institutions', admin.token, {
    name: 'Northfield College',
  });
  const platform = await server.api<LtiPlatform>(
    'POST',
    `/api/institutions/${ws.institution.id}/lti-platforms`,
    admin.token,
    moodle.registration(),
  );
  moodle.tool = {
    toolUrl: server.url,
    loginUrl: platform.loginUrl,
    clientId: moodle.clientId,
    deploymentId: moodle.deploymentId,
  };
});

test.afterAll(async () => {
  await moodle?.close();
});

const launchOf = (sub: string, name: string): LaunchSpec => ({
  person: { sub, name, roles: [LEARNER] },
  context: { id: 'phys-101', title: 'Physics 101' },
  resourceLink: { id: 'phys-101-chat', title: 'Lab questions' },
});

/**
 * Clicks the frame's "Open in a new window" and returns the window it opens. The click and the wait for the
 * window each fail on their own, with their own call log: once under CI load the two awaited together hung
 * to the test's timeout with nothing to say which of them never ended.
 */
async function openInNewWindow(context: BrowserContext, page: Page): Promise<Page> {
  const open = page.frameLocator('#tool').getByRole('link', { name: 'Open in a new window' });
  // The frame's launch comes first: it may take a loaded machine a while.
  await expect(open).toBeVisible({ timeout: 120_000 });
  const opened = context.waitForEvent('page', { timeout: 60_000 });
  opened.catch(() => undefined);
  await open.click({ timeout: 60_000 });
  return await opened;
}

/**
 * Closes a context of the spec's own browser, for at most 30 s. Twice in whole runs this spec's cross-site
 * tests hung to the 240 s limit after their last step had passed (the page left behind was the course
 * page), which fits Chromium never answering a context's disposal; the browser's own close in `finally`
 * ends what is left. A close that runs out is printed, so the next whole run says whether this was it.
 */
async function closeWithin(context: BrowserContext): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const ranOut = new Promise<'ran out'>((resolve) => {
    timer = setTimeout(() => resolve('ran out'), 30_000);
  });
  const outcome = await Promise.race([context.close(), ranOut]);
  clearTimeout(timer);
  if (outcome === 'ran out')
    console.warn('lti.spec: a context of the blocking browser did not close within 30 s');
}

/** The channel screen shows the channel's name in its header. */
async function expectInChannel(page: Page | ReturnType<Page['frameLocator']>) {
  await expect(page.getByRole('heading', { name: 'lab questions', exact: true })).toBeVisible();
}

test('a launch from a course page in a cross-site iframe, third-party cookies blocked, lands in the course channel', async () => {
  // Blocked explicitly, whatever this Chromium's default is.
  const blocking = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, '--test-third-party-cookie-phaseout'],
  });
  try {
    const looks = [
      { name: 'desktop-light', viewport: { width: 1280, height: 800 }, colorScheme: 'light' as const },
      { name: 'phone-dark', viewport: { width: 390, height: 844 }, colorScheme: 'dark' as const },
    ];
    for (const [i, look] of looks.entries()) {
      const context = await blocking.newContext({ viewport: look.viewport, colorScheme: look.colorScheme });
      if (i === 0) {
        // Someone else is signed in on this browser: the launch signs them out first (spec §2).
        const before = await context.newPage();
        await signInThroughUi(before, server, 'previous@example.com');
        await before.close();
      }
      const page = await context.newPage();
      await page.goto(moodle.coursePageFor(launchOf(`student-${i}`, `Student ${i}`)));
      // The frame cannot keep Lantern's store here, so it offers the same launch in a window of its own.
      const open = page.frameLocator('#tool').getByRole('link', { name: 'Open in a new window' });
      await expect(open).toBeVisible();
      // The login kept its state in the course page's storage (no cookie), and the frame read it back.
      const stored = await page.evaluate(() =>
        Object.keys((window as unknown as { storedByTool: object }).storedByTool),
      );
      expect(stored).toEqual([expect.stringMatching(/^lantern_state_/)]);
      expect(await open.getAttribute('href')).toMatch(/#lti_state=/);
      await shot(page, `${SHOTS}/lti-launch-frame-${look.name}.png`);
      const popup = await openInNewWindow(context, page);
      await expectInChannel(popup);
      expect(popup.url()).toMatch(/\/client\/[^/]+\/channel\/[^/]+$/);
      if (i === 0) {
        // The sidebar names the student, not the person who was signed in before.
        await expect(popup.locator('body')).toContainText(`Student ${i}`);
        await expect(popup.locator('body')).not.toContainText('previous');
        // And the earlier session was ended on the server: only a new one of theirs is live.
        const previous = await server.signInApi('previous@example.com');
        const live = await server.api<{ data: unknown[] }>('GET', '/api/users/sessions', previous.token);
        expect(live.data).toHaveLength(1);
      }
      await shot(popup, `${SHOTS}/lti-launch-window-${look.name}.png`);
      await closeWithin(context);
    }
  } finally {
    await blocking.close();
  }
});

test('a workspace admin registers a platform in Settings and gets its login address', async ({ browser }) => {
  const canvas = await new TestPlatform('canvas').start('127.0.0.1');
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await signInThroughUi(page, server, 'dean@example.com');
    const workspaceId = await createWorkspaceThroughUi(page, 'Westbrook School');
    await page.goto(`${server.url}/client/${workspaceId}/settings`);
    const section = page.getByRole('region', { name: 'Learning platforms' });
    await expect(section.getByText(`${server.url}/lti/launch`)).toBeVisible();
    await section.getByRole('button', { name: 'Register a platform' }).click();
    const dialog = page.getByRole('dialog', { name: 'Register a learning platform' });
    const values = canvas.registration('Westbrook Canvas');
    await dialog.getByLabel('Name').fill(values.name);
    await dialog.getByLabel('Issuer (platform ID)').fill(values.issuer);
    await dialog.getByLabel('Client ID').fill(values.clientId);
    await dialog.getByLabel('Authentication request URL').fill(values.authLoginUrl);
    await dialog.getByLabel('Access token URL').fill(values.tokenUrl);
    await dialog.getByLabel('Public keyset URL').fill(values.keySetUrl);
    await dialog.getByLabel('Deployment IDs').fill(values.deploymentIds.join(', '));
    await dialog.getByRole('button', { name: 'Register' }).click();
    await expect(dialog).toBeHidden();
    await expect(section.getByText('Westbrook Canvas')).toBeVisible();
    await expect(section.getByText(new RegExp(`${server.url}/lti/login/[0-9a-f-]{36}`))).toBeVisible();
    for (const look of [
      { name: 'desktop-light', viewport: { width: 1280, height: 900 }, colorScheme: 'light' as const },
      { name: 'phone-dark', viewport: { width: 390, height: 844 }, colorScheme: 'dark' as const },
    ]) {
      await page.setViewportSize(look.viewport);
      await page.emulateMedia({ colorScheme: look.colorScheme });
      await scrollTo(section);
      await shot(page, `${SHOTS}/lti-settings-${look.name}.png`);
    }
    // A refused launch says why, on a page of its own.
    await page.goto(
      `${server.url}/lti/login/00000000-0000-0000-0000-000000000000?iss=x&login_hint=y&target_link_uri=z`,
    );
    await expect(page.locator('#reason')).toHaveText('This platform is not registered in Lantern.');
    await shot(page, `${SHOTS}/lti-refusal-phone-dark.png`);
  } finally {
    await context.close();
    await canvas.close();
  }
});

test('an instructor places a chosen channel in the course by deep linking', async () => {
  const blocking = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, '--test-third-party-cookie-phaseout'],
  });
  try {
    const context = await blocking.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(
      moodle.coursePageFor({
        person: {
          sub: 'teacher-dl',
          name: 'Tess Teacher',
          roles: ['http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor'],
        },
        context: { id: 'chem-201', title: 'Chemistry 201' },
        messageType: 'LtiDeepLinkingRequest',
      }),
    );
    const popup = await openInNewWindow(context, page);
    await expect(popup.getByRole('heading', { name: 'Add a channel to your course' })).toBeVisible();
    // A new course has its general channel to offer.
    await popup.getByRole('button', { name: 'general' }).click();
    await expect(popup.getByRole('button', { name: 'general' })).toHaveAttribute('aria-pressed', 'true');
    await shot(popup, `${SHOTS}/lti-deep-link-desktop-light.png`);
    await popup.setViewportSize({ width: 390, height: 844 });
    await popup.emulateMedia({ colorScheme: 'dark' });
    // The button's colour transition must finish before the picture is taken.
    await popup.waitForTimeout(300);
    await shot(popup, `${SHOTS}/lti-deep-link-phone-dark.png`);
    await popup.setViewportSize({ width: 1280, height: 800 });
    await popup.getByRole('button', { name: 'Add to course' }).click();
    // The platform received the signed answer and checked it against the tool's key set.
    await expect(popup.locator('#placed')).toHaveText('Placed in the course');
    const items = moodle.deepLinks.at(-1)?.['https://purl.imsglobal.org/spec/lti-dl/claim/content_items'];
    expect(items).toEqual([expect.objectContaining({ type: 'ltiResourceLink', title: '#general' })]);
    await closeWithin(context);
  } finally {
    await blocking.close();
  }
});
