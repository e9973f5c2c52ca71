// The app works under its Content-Security-Policy: signing in, the SharedWorker, the socket, posting,
// an image and a PDF preview (pdf.js worker) all run without the browser blocking anything.

import { makeDocx } from '../tests/server/knowledge-documents.ts';
import { watchCsp } from './support/csp-watch.ts';
import { samplePdf, samplePng } from './support/sample-files.ts';
import { specServer } from './support/spec-server.ts';
import { expect, test } from './support/test.ts';
import {
  composer,
  createWorkspaceThroughUi,
  messageList,
  openChannelFromSidebar,
  sendThroughUi,
  signInThroughUi,
} from './support/ui.ts';

const server = specServer();

test('the app signs in, posts and previews files without a CSP violation', async ({ page }) => {
  const csp = await watchCsp(page);
  const response = await page.goto(`${server.url}/signin`);
  const policy = response?.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("script-src 'self'");
  expect(policy).toContain("object-src 'none'");

  await signInThroughUi(page, server, 'ada@example.com');
  await createWorkspaceThroughUi(page, 'Policy Test');
  await openChannelFromSidebar(page, 'general');
  await sendThroughUi(page, '#general', 'Under a strict policy');
  await expect(messageList(page).filter({ hasText: 'Under a strict policy' })).toHaveAttribute(
    'data-status',
    'confirmed',
  );

  const box = composer(page, '#general');
  await box.pressSequentially('the plan and the photo');
  await page.locator('input[type=file]').setInputFiles([
    { name: 'harbour.png', mimeType: 'image/png', buffer: samplePng() },
    { name: 'quarterly-plan.pdf', mimeType: 'application/pdf', buffer: samplePdf() },
    {
      name: 'term-plan.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buffer: await makeDocx('Week one: fractions and decimals'),
    },
  ]);
  // As a person would: send once the files sit in the composer.
  await expect(page.getByRole('button', { name: 'Remove harbour.png' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove quarterly-plan.pdf' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove term-plan.docx' })).toBeVisible();
  // The picture shows as a thumbnail on its card, drawn from the bytes kept on the device.
  await expect(
    page.getByRole('list', { name: 'Files to send' }).getByRole('img', { name: 'harbour.png' }),
  ).toBeVisible();
  await box.press('Enter');
  const withFiles = messageList(page).filter({ hasText: 'the plan and the photo' });
  await expect(withFiles.getByRole('img', { name: 'harbour.png' })).toBeVisible({ timeout: 30_000 });
  await expect(withFiles.getByTestId('pdf-preview')).toBeVisible({ timeout: 30_000 });
  // A Word file shows its opening text, read by the server (issue 15 item 6).
  await expect(withFiles.getByTestId('document-excerpt')).toHaveText('Week one: fractions and decimals');

  // A reload runs the service worker's registration and the app from cache under the same policy.
  await page.reload();
  await expect(messageList(page).filter({ hasText: 'Under a strict policy' })).toBeVisible();
  expect(csp.violations()).toEqual([]);
});
