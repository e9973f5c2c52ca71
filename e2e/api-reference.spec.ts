// The API reference at /api/docs (swagger-ui over /api/openapi.json, decision 0041) loads in the browser
// under the app's Content-Security-Policy, lists the operations and lets a reader open one.
import { watchCsp } from './support/csp-watch.ts';
import { shot } from './support/screenshots.ts';
import { specServer } from './support/spec-server.ts';
import { expect, test } from './support/test.ts';

const server = specServer();

test('the API reference lists every group of operations and opens one, without a CSP violation', async ({
  page,
}) => {
  const csp = await watchCsp(page);
  const response = await page.goto(`${server.url}/api/docs`);
  expect(response?.headers()['content-security-policy'] ?? '').toContain("script-src 'self'");
  await expect(page.getByRole('heading', { name: /Lantern REST API/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Authorize' })).toBeVisible();
  const channels = page.locator('.opblock-tag-section').filter({ hasText: /^channels/ });
  await channels.locator('.opblock-tag').click();
  const createChannel = channels
    .locator('.opblock-post')
    .filter({ hasText: '/api/institutions/{id}/channels' });
  await createChannel.first().locator('.opblock-summary').click();
  await expect(page.getByText('Request body').first()).toBeVisible();
  await shot(page, 'e2e/artifacts/api-reference.png');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'e2e/artifacts/api-reference-phone.png');
  expect(csp.violations()).toEqual([]);
});
