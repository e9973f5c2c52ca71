// The Files panel's data and a file's bytes (issue 4 items 7, 8): the channel's files come from the
// server into the device's store (only that channel's), and fetchFile returns a member's file or says
// "Failed to fetch file …".
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileEntity, FileSignResponse } from '../../schemas/protocol/index.ts';
import { fetchFile, refreshChannelFiles } from '../../src/data/files.ts';
import { listRecords } from '../../src/store/records.ts';
import type { TestUser } from '../server/harness.ts';
import { makeChannel, postFiles } from '../server/messaging-world.ts';
import { type EngineWorld, startEngineWorld } from './engine-world.ts';

let w: EngineWorld;

beforeAll(async () => {
  w = await startEngineWorld();
}, 60_000);

afterAll(async () => {
  await w?.close();
});

/** Signs, stores, registers and sends a small text file in the channel, as `by`. */
async function shareFile(
  by: TestUser,
  channelId: string,
  fileName: string,
  text: string,
): Promise<FileEntity> {
  const bytes = new TextEncoder().encode(text);
  const sign = await by.api.get<FileSignResponse>(
    `/api/files/upload/sign?institutionId=${w.ws.id}&size=${bytes.length}&fileName=${fileName}&fileType=text%2Fplain`,
  );
  const put = await fetch(new URL(sign.body.uploadUrl, w.server.url), {
    method: 'PUT',
    headers: { 'content-type': 'text/plain' },
    body: bytes,
  });
  expect(put.status).toBe(201);
  const res = await by.api.post<{ file: FileEntity }>('/api/files', {
    institutionId: w.ws.id,
    channelId,
    fileName,
    fileType: 'text/plain',
    fileSize: bytes.length,
    isFromThirdParty: false,
    fileKey: sign.body.fileKey,
  });
  expect(res.status).toBe(201);
  // Sent in a message: a registered file is shared with the channel only once a message carries it (0081).
  await postFiles(by, w.ws, channelId, [res.body.file]);
  return res.body.file;
}

describe('the channel Files panel', () => {
  it("keeps the channel's files on the device, and only that channel's", async () => {
    const { ws } = w;
    const elsewhere = await makeChannel(ws.owner, ws);
    const plan = await shareFile(ws.owner, ws.general.id, 'plan.txt', 'the plan');
    await shareFile(ws.owner, elsewhere.id, 'secret.txt', 'not for general');

    await refreshChannelFiles(ws.id, ws.general.id);

    const kept = await listRecords(w.client.db, 'channelFile', { scope: ws.general.id });
    expect(kept.map((f) => f.fileName)).toEqual(['plan.txt']);
    expect(kept[0]).toMatchObject({ id: plan.id, fileSize: 8, channelId: ws.general.id });
    const all = await listRecords(w.client.db, 'channelFile', { institutionId: ws.id });
    expect(all.map((f) => f.fileName)).not.toContain('secret.txt');
  });

  it('adds what a search finds without forgetting the files seen before', async () => {
    const { ws } = w;
    await shareFile(ws.owner, ws.general.id, 'budget.txt', 'numbers');
    await refreshChannelFiles(ws.id, ws.general.id, { search: 'budget' });
    const kept = await listRecords(w.client.db, 'channelFile', { scope: ws.general.id });
    expect(kept.map((f) => f.fileName).sort()).toEqual(['budget.txt', 'plan.txt']);
  });
});

describe('fetching a file', () => {
  it("returns the file's bytes to a member of its channel", async () => {
    const file = await shareFile(w.ws.owner, w.ws.general.id, 'notes.txt', 'meeting notes');
    const blob = await fetchFile(file.url);
    expect(await blob.text()).toBe('meeting notes');
  });

  it("says 'Failed to fetch file …' for a file that does not exist", async () => {
    await expect(fetchFile(`/api/files/${randomUUID()}/content`)).rejects.toThrow(/^Failed to fetch file \S/);
  });
});
