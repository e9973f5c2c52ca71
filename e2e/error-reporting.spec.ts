// Client error reporting (decision 0040): with a DSN configured, an error thrown in the app reaches the
// reporting service (a local envelope receiver here) scrubbed of e-mail addresses and tokens, and the Sentry
// code is a chunk loaded after first paint, never part of index.html's first load.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ErrorReportReceiver,
  startErrorReportReceiver,
} from '../tests/support/error-report-receiver.ts';
import { LanternServer } from './support/server.ts';
import { expect, test } from './support/test.ts';

const SECRET_EMAIL = 'alice.private@example.com';
const SECRET_TOKEN = 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v';

test.describe('client error reporting', () => {
  let server: LanternServer;
  let receiver: ErrorReportReceiver;
  test.afterEach(async () => {
    await server?.dispose();
    await receiver?.close();
  });

  // The app (which sends a signed-out visitor of / to its sign-in screen) and the standalone sign-in page that a
  // page load of /signin gets (decision 0036).
  for (const [path, file] of [
    ['/', 'index.html'],
    ['/signin', 'signin.html'],
  ] as const)
    test(`reports a thrown error on ${path}, scrubbed, from a chunk loaded after first paint`, async ({
      page,
    }) => {
      const html = readFileSync(join(import.meta.dirname, '..', 'dist', file), 'utf8');
      expect(html).not.toMatch(/sentry/i);

      receiver = await startErrorReportReceiver();
      server = await LanternServer.create({ SENTRY_DSN: receiver.dsn, ENVIRONMENT: 'staging' });
      await server.start();
      const sentryChunk = page.waitForResponse((r) => /error-reporting-sentry[^/]*\.js$/.test(r.url()));
      await page.goto(`${server.url}${path}`);
      await expect(page.getByLabel('E-mail')).toBeVisible();
      await sentryChunk;

      // Thrown from a timer, as an uncaught error in the app would be, until the started SDK reports one.
      await expect
        .poll(
          async () => {
            await page.evaluate(
              ([email, token]) => {
                setTimeout(() => {
                  throw new Error(`Composer failed for ${email} with Bearer ${token}`);
                }, 0);
              },
              [SECRET_EMAIL, SECRET_TOKEN],
            );
            return receiver.items.some((i) => i.type === 'event');
          },
          { timeout: 30_000, intervals: [1_000] },
        )
        .toBe(true);
      const event = receiver.items.find((i) => i.type === 'event');
      expect(event?.raw).toContain('Composer failed for [email] with Bearer [Filtered]');
      expect(event?.raw).toContain('"environment":"staging"');
      expect(event?.raw).not.toContain(SECRET_EMAIL);
      expect(event?.raw).not.toContain(SECRET_TOKEN);
    });
});
