// The standalone sign-in page (decision 0036): a page load of /signin shows the form from the HTML itself,
// before any script has run and without the app's script; the form works there (a wrong address is
// refused with the server's sentence, the mailed code signs in and the page goes on to the redirect
// value); a signed-in visitor of /signin is sent on.
import { shot } from './support/screenshots.ts';
import { specServer } from './support/spec-server.ts';
import { expect, test } from './support/test.ts';

const server = specServer();

const SHOTS = 'e2e/artifacts';

test('a page load of /signin paints the form without the app and signs in from it', async ({ browser }) => {
  // Scripts off: what shows is the page's HTML and stylesheet alone.
  const bare = await browser.newContext({ javaScriptEnabled: false });
  const still = await bare.newPage();
  await still.goto(`${server.url}/signin`);
  await expect(still.getByRole('heading', { name: 'Sign in to Lantern' })).toBeVisible();
  await expect(still.getByRole('button', { name: 'Continue with e-mail' })).toBeVisible();
  await bare.close();

  const context = await browser.newContext();
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  });
  await page.goto(`${server.url}/signin?redirect=%2Fjoin`);
  const email = page.getByLabel('E-mail');
  await expect(email).toBeFocused();
  // Before anything is typed, the app's own script (the one index.html names) has not been asked for.
  await page.waitForLoadState('networkidle');
  expect(scripts.some((s) => /\/assets\/index-[^/]+\.js$/.test(s))).toBe(false);
  for (const [width, height, scheme] of [
    [1280, 800, 'light'],
    [390, 844, 'dark'],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.emulateMedia({ colorScheme: scheme });
    await shot(page, `${SHOTS}/sign-in-page-${width}-${scheme}.png`);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  await email.fill('not an address');
  await page.getByRole('button', { name: 'Continue with e-mail' }).click();
  await expect(page.getByText(/valid e-mail/i)).toBeVisible();

  await email.fill('nia@example.com');
  const since = Date.now() - 1;
  await page.getByRole('button', { name: 'Continue with e-mail' }).click();
  await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
  const code = await server.readCode('nia@example.com', since);
  // The code goes one digit per slot (spec §9 pin input): letters are not taken, and three digits leave it
  // incomplete.
  const codeField = page.getByLabel('Sign-in code');
  await expect(codeField).toBeFocused();
  await codeField.pressSequentially(`x${code.slice(0, 3)}`);
  await expect(codeField).toHaveValue(code.slice(0, 3));
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeDisabled();
  await shot(page, `${SHOTS}/sign-in-code-slots.png`);
  // A pasted line with the whole code in it fills every slot, over what was typed, and signs in without a
  // click. (A paste event with the line as its data: a test cannot reach the system clipboard.)
  await codeField.evaluate(
    (input, text) => {
      const data = new DataTransfer();
      data.setData('text/plain', text);
      input.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    },
    `Your code: ${code.slice(0, 3)} ${code.slice(3)}`,
  );
  await expect(page).toHaveURL(/\/join$/);
  await expect(page.getByLabel('Workspace name')).toBeVisible();

  // Signed in, a page load of /signin goes on to the redirect value.
  await page.goto(`${server.url}/signin?redirect=%2Fjoin`);
  await expect(page).toHaveURL(/\/join$/);
  await expect(page.getByLabel('Workspace name')).toBeVisible();
  await context.close();
});
