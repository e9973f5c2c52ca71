// A node started with REDIS_URL waits until its own pub/sub channel is subscribed, so one stopped right
// after it starts (a deploy rolled back at once, a test) shuts down cleanly, with nothing left rejecting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.ts';
import { startTestServer, type TestServer } from './harness.ts';

const { REDIS_URL } = process.env;

describe.skipIf(!REDIS_URL)('a node with Redis', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer('pglite', { env: { REDIS_URL: REDIS_URL ?? '' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('stopped right after it starts, leaves nothing rejecting', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      for (let i = 0; i < 3; i++) await (await createApp({ ...t.config, PORT: 0 })).close();
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      process.off('unhandledRejection', record);
    }
    expect(unhandled).toEqual([]);
  });
});
