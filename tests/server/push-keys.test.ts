// The VAPID key is kept like the other secrets: the same public key after a restart (browsers subscribed
// with it keep receiving), and a secrets.json that lost it over stored subscriptions stops the server
// rather than silently making a new key no browser knows.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PushConfigResponse } from '../../schemas/protocol/index.ts';
import { startTestServer } from './harness.ts';

describe('the VAPID key across restarts', () => {
  it('stays the same, and its loss over stored subscriptions stops the server', async () => {
    const t = await startTestServer('pglite', { onDisk: true });
    try {
      const me = await t.signUp();
      const before = await me.api.get<PushConfigResponse>('/api/push/config');
      const keys = {
        p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url'),
        auth: Buffer.alloc(16, 2).toString('base64url'),
      };
      const saved = await me.api.put('/api/users/sessions/fcm-token', {
        fcmToken: { endpoint: 'https://push.example.com/p/1', keys },
      });
      expect(saved.status).toBe(200);
      await t.restart();
      const after = await t.api(me.token).get<PushConfigResponse>('/api/push/config');
      expect(after.body.vapidKey).toBe(before.body.vapidKey);

      const file = path.join(t.config.dataDir, 'secrets.json');
      const { vapidPrivateKey: _lost, ...rest } = JSON.parse(readFileSync(file, 'utf8'));
      writeFileSync(file, JSON.stringify(rest), { mode: 0o600 });
      await expect(t.restart()).rejects.toThrow(/has no vapidPrivateKey/);
    } finally {
      await t.close();
    }
  });
});
