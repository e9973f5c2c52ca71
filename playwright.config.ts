// Playwright: the built app served by a real server process per spec file (e2e/support/server.ts),
// driven in the machine's Chromium. `npm run test:e2e` builds first.
import { defineConfig, devices } from '@playwright/test';

export default defineConfig({
  testDir: 'e2e',
  // One migrated database every spec's server copies (e2e/support/database-template.ts).
  globalSetup: './e2e/support/database-template.ts',
  outputDir: 'test-results',
  // Two spec files at a time by default (E2E_WORKERS to change it): every spec starts its own server on its
  // own port and data directory, and a spec waits on server starts, sockets and timers as much as it
  // computes, so two workers cut the run on the 2-core machine from about 13 to about 9.5 minutes. Steps
  // wait on what a person would see, never on a fixed time, so the doubled load slows them without failing.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  // Limits for a machine shared with other busy sessions: CI has run the same steps three times slower
  // than a quiet run (devices.spec 34 s quiet, past 120 s there). They bound a stuck step, not a slow one.
  timeout: 240_000,
  expect: { timeout: 30_000 },
  reporter: [['list']],
  use: {
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    },
    // Recording a trace for every test (its screencast and a DOM snapshot per action) cost about a quarter
    // of the e2e step's CPU, for traces that are thrown away when the test passes and that CI's log never
    // shows: a failing spec is rerun with E2E_TRACE=1 to keep its trace.
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
    serviceWorkers: 'allow',
  },
});
