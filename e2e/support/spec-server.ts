// A spec file's own Lantern server: started before its first test and removed after its last, with its own
// data directory and port, so no spec sees another's people, workspaces or messages.
import { test } from '@playwright/test';
import { LanternServer } from './server.ts';

/** Call at a spec's top level. `env`: configuration its tests need (a redeploy uses `configure`). */
export function specServer(env: Record<string, string> = {}): LanternServer {
  // Chosen at the first start, not here: Playwright also loads spec files to list their tests.
  const server = new LanternServer(env);
  test.beforeAll(() => server.start());
  test.afterAll(() => server.dispose());
  return server;
}
