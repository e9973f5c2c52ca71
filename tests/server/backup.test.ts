// `npm run backup` and `npm run restore`: a stopped server's messages, files and agents come back in a fresh
// DATA_DIR, and the restore refuses anything but an empty one (decision 0040).
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { agentsResponse, FileEntity, MessagePage } from '../../schemas/protocol/index.ts';
import { createApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { backupDataDir, restoreDataDir } from '../../server/operations/backup.ts';
import { makeApi, startTestServer } from './harness.ts';
import { makeWorkspace } from './messaging-world.ts';

const run = promisify(execFile);
const npmScript = (mode: 'backup' | 'restore', folder: string, dataDir: string) =>
  run(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', mode, folder], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', S3_ENDPOINT: '' },
  });

describe('backup and restore', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'lantern-backup-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('restores messages, files and agents into a fresh DATA_DIR where a server finds them', async () => {
    const t = await startTestServer('pglite', { onDisk: true });
    const ws = await makeWorkspace(t);
    const api = ws.owner.api;
    const messagesUrl = `/api/institutions/${ws.id}/channels/${ws.general.id}/messages`;
    const genId = randomUUID();
    expect((await api.post(messagesUrl, { content: '<p>Kept for later</p>', genId })).status).toBe(201);
    expect((await api.post(`/api/institutions/${ws.id}/agents`, { name: 'Archivist' })).status).toBe(201);
    const bytes = Buffer.from(`report ${randomUUID()}`);
    const ticket = await api.get<{ uploadUrl: string; fileKey: string }>(
      `/api/files/upload/sign?institutionId=${ws.id}&size=${bytes.length}&fileName=r.txt&fileType=text%2Fplain`,
    );
    await fetch(new URL(ticket.body.uploadUrl, t.url), {
      method: 'PUT',
      headers: { 'content-type': 'text/plain' },
      body: new Uint8Array(bytes),
    });
    const registered = await api.post<{ file: FileEntity }>('/api/files', {
      institutionId: ws.id,
      channelId: ws.general.id,
      fileName: 'r.txt',
      fileType: 'text/plain',
      fileSize: bytes.length,
      isFromThirdParty: false,
      fileKey: ticket.body.fileKey,
    });
    expect(registered.status).toBe(201);

    // While the server runs, the database is in use: refused, with what to do.
    const folder = path.join(scratch, 'nightly');
    await expect(backupDataDir(t.config.dataDir, folder)).rejects.toThrow('stop the Lantern server first');
    await t.server.close();
    await npmScript('backup', folder, t.config.dataDir);
    await t.close();
    // The backup holds the installation's keys: only its owner may read them.
    expect(statSync(path.join(folder, 'data', 'secrets.json')).mode & 0o777).toBe(0o600);

    const occupied = path.join(scratch, 'occupied');
    mkdirSync(occupied);
    writeFileSync(path.join(occupied, 'notes.txt'), 'mine');
    await expect(restoreDataDir(folder, occupied)).rejects.toThrow('is not empty');

    const fresh = path.join(scratch, 'fresh');
    await npmScript('restore', folder, fresh);
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: fresh,
      LOG_LEVEL: 'silent',
      CLIENT_DIR: path.join(fresh, 'no-client'),
    });
    const restored = await createApp(config);
    try {
      const { url } = await restored.listen();
      // The old session token works: sessions are in the database, the keys in secrets.json.
      const again = makeApi(url, ws.owner.token);
      const page = await again.get<MessagePage>(messagesUrl);
      expect(page.body.data.map((m) => m.genId)).toContain(genId);
      const agents = await again.get<z.infer<typeof agentsResponse>>(`/api/institutions/${ws.id}/agents`);
      expect(agents.body.agents.map((a) => a.name)).toContain('Archivist');
      const file = await fetch(new URL(registered.body.file.url, url), {
        headers: { authorization: `Bearer ${ws.owner.token}` },
      });
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer())).toEqual(bytes);
    } finally {
      await restored.close();
    }
  }, 120_000);
});
