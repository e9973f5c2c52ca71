// A file chosen while offline (issue 4 item 8): kept on the device, uploaded when the connection returns
// (sign, PUT, register), and only then is its message posted, carrying the registered file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendMessage } from '../../src/data/messages.ts';
import { addAttachment, removeAttachment } from '../../src/data/uploads.ts';
import { listRecords } from '../../src/store/records.ts';
import { type EngineWorld, startEngineWorld } from './engine-world.ts';

let w: EngineWorld;

beforeAll(async () => {
  w = await startEngineWorld();
}, 60_000);

afterAll(async () => {
  await w?.close();
});

describe('a file removed from the composer', () => {
  it('is deleted on the server once registered, and its record and bytes leave the device', async () => {
    const { ws } = w;
    const attachment = await addAttachment(ws.id, ws.general.id, new Blob(['wrong one']), 'wrong.txt');
    await expect
      .poll(async () => (await listRecords(w.client.db, 'upload', { scope: ws.general.id }))[0]?.status)
      .toBe('uploaded');
    const asUploader = () =>
      fetch(new URL(`/api/files/${attachment.id}/content`, w.server.url), {
        headers: { authorization: `Bearer ${w.me.token}` },
      });
    expect((await asUploader()).status).toBe(200);

    await removeAttachment(attachment.id);
    expect(await listRecords(w.client.db, 'upload', { scope: ws.general.id })).toEqual([]);
    expect((await asUploader()).status).toBe(404);
  });
});

describe('a file chosen offline', () => {
  it('is kept on the device and uploaded before its message is posted when the connection returns', async () => {
    const { ws } = w;
    w.goOffline();
    const file = new Blob(['quarterly numbers'], { type: 'text/plain' });
    const attachment = await addAttachment(ws.id, ws.general.id, file, 'numbers.txt');
    expect(attachment).toMatchObject({ fileName: 'numbers.txt', isUploading: true, url: null });
    const genId = await sendMessage({
      institutionId: ws.id,
      channelId: ws.general.id,
      memberId: w.me.memberId,
      content: '<p>See attached</p>',
      attachments: [attachment],
    });
    expect((await listRecords(w.client.db, 'upload', { scope: ws.general.id }))[0]).toMatchObject({
      status: 'queued',
    });

    w.engineRequests.length = 0;
    await w.goOnline();
    await w.drained();

    const message = await w.onServer(genId);
    expect(message?.attachments).toHaveLength(1);
    const sent = message?.attachments[0];
    expect(sent).toMatchObject({
      id: attachment.id,
      fileName: 'numbers.txt',
      fileType: 'text/plain',
      fileSize: 17,
    });
    const bytes = await fetch(new URL(sent?.url as string, w.server.url), {
      headers: { authorization: `Bearer ${ws.owner.token}` },
    });
    expect(await bytes.text()).toBe('quarterly numbers');
    // Signed, stored, registered, in that order, before the post.
    const fileCalls = w.engineRequests.filter((r) => r.includes('/api/files'));
    expect(fileCalls[0]).toBe('GET /api/files/upload/sign');
    expect(fileCalls[1]).toMatch(/^PUT \/api\/files\/upload\//);
    expect(fileCalls[2]).toBe('POST /api/files');
    expect((await w.stored(genId)).status).toBe('confirmed');
    expect(await listRecords(w.client.db, 'upload', { scope: ws.general.id })).toEqual([]);
  });
});
