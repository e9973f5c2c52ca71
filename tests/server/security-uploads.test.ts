// Issue 9 items 8 and 11, replayed as an attacker would: a stranger with a workspace of their own tries to
// fill the server's disk past the upload caps, and leaves bytes behind that nobody registers or posts; a
// deleted channel must take its files' bytes with it, on the local disk and in S3.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileEntity, FileSignResponse, FilesResponse, Message } from '../../schemas/protocol/index.ts';
import { createFileStore } from '../../server/files/file-store.ts';
import { sweepUploads } from '../../server/files/upload-sweep.ts';
import { channelUrl } from './channel-world.ts';
import { type FakeS3, startFakeS3 } from './fixtures/fake-s3.ts';
import { databases, startTestServer, type TestServer, type TestUser } from './harness.ts';
import {
  addMember,
  makeChannel,
  makeWorkspace,
  messagesUrl,
  postFiles,
  type Workspace,
} from './messaging-world.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

function sign(by: TestUser, ws: Workspace, size: number) {
  return by.api.get<FileSignResponse>(
    `/api/files/upload/sign?institutionId=${ws.id}&size=${size}&fileType=application%2Foctet-stream`,
  );
}

/** Sign and PUT `size` bytes; the ticket, with the bytes stored but nothing registered. */
async function putBytes(t: TestServer, by: TestUser, ws: Workspace, size: number) {
  const ticket = await sign(by, ws, size);
  expect(ticket.status).toBe(200);
  const put = await fetch(new URL(ticket.body.uploadUrl, t.url), {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: new Uint8Array(Buffer.alloc(size, 1)),
  });
  expect(put.status).toBeLessThan(300);
  return ticket.body;
}

/** The real client's three steps: sign, PUT, register. */
async function upload(t: TestServer, by: TestUser, ws: Workspace, channelId: string, size = 16) {
  const ticket = await putBytes(t, by, ws, size);
  const res = await by.api.post<{ file: FileEntity }>('/api/files', {
    institutionId: ws.id,
    channelId,
    fileName: 'blob.bin',
    fileType: 'application/octet-stream',
    fileSize: size,
    fileKey: ticket.fileKey,
  });
  expect(res.status).toBe(201);
  return { file: res.body.file, fileKey: ticket.fileKey };
}

describe.each(databases)('security: upload caps, the sweep and deleted channels (%s)', (kind) => {
  let t: TestServer;
  const onDisk = (fileKey: string) => existsSync(path.join(t.config.filesDir, fileKey));

  beforeAll(async () => {
    t = await startTestServer(kind, {
      env: { UPLOAD_BYTES_PER_USER: '1000', UPLOAD_BYTES_PER_WORKSPACE: '1500' },
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('refuses to sign an upload past the per-person cap, naming the limit', async () => {
    const mine = await makeWorkspace(t);
    expect((await sign(mine.owner, mine, 600)).status).toBe(200);
    const refused = await sign(mine.owner, mine, 600);
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({
      message:
        'Your uploads are limited to 1000 bytes in total and you hold 600 bytes: delete some files to upload this one',
    });
  });

  it('refuses to sign an upload past the per-workspace cap, everyone’s bytes together', async () => {
    const mine = await makeWorkspace(t);
    const friend = await addMember(t, mine);
    expect((await sign(mine.owner, mine, 800)).status).toBe(200);
    expect((await sign(friend, mine, 600)).status).toBe(200);
    const refused = await sign(friend, mine, 200);
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({
      message:
        "This workspace's uploads are limited to 1.5 KB in total and it holds 1.4 KB: delete some files to upload this one",
    });
  });

  /**
   * A sign on a connection of its own, closed after the answer: simultaneous requests through the shared
   * fetch pool would leave a connection open that holds the server's close for its keep-alive time.
   */
  function signOnItsOwnConnection(ws: Workspace, size: number): Promise<number> {
    const url = new URL(`/api/files/upload/sign?institutionId=${ws.id}&size=${size}`, t.url);
    return new Promise((resolve, reject) => {
      const req = http.get(url, { agent: false, headers: { authorization: `Bearer ${ws.owner.token}` } });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
    });
  }

  it('lets only as many of many simultaneous signs through as fit the cap', async () => {
    const mine = await makeWorkspace(t);
    const statuses = await Promise.all(Array.from({ length: 6 }, () => signOnItsOwnConnection(mine, 400)));
    expect(statuses.sort()).toEqual([200, 200, 413, 413, 413, 413]);
  });

  it('refuses signing for a workspace the caller is not in, and registering someone else’s upload', async () => {
    const mine = await makeWorkspace(t);
    const theirs = await makeWorkspace(t);
    expect((await sign(mine.owner, theirs, 10)).status).toBe(403);
    const ticket = await putBytes(t, theirs.owner, theirs, 16);
    const claimed = await mine.owner.api.post('/api/files', {
      institutionId: mine.id,
      channelId: mine.general.id,
      fileName: 'theirs.bin',
      fileType: 'application/octet-stream',
      fileSize: 16,
      fileKey: ticket.fileKey,
    });
    expect(claimed.status).toBe(400);
    expect(claimed.body.message).toBe('Unknown fileKey: sign an upload for this workspace first');
  });

  it('gives the room back when a file is deleted', async () => {
    const mine = await makeWorkspace(t);
    const { file } = await upload(t, mine.owner, mine, mine.general.id, 900);
    expect((await sign(mine.owner, mine, 200)).status).toBe(413);
    expect((await mine.owner.api.delete('/api/files', { fileIds: [file.id] })).status).toBe(200);
    expect((await sign(mine.owner, mine, 200)).status).toBe(200);
  });

  it("removes a deleted channel's file bytes from the disk", async () => {
    const mine = await makeWorkspace(t);
    const room = await makeChannel(mine.owner, mine);
    const { file, fileKey } = await upload(t, mine.owner, mine, room.id);
    const posted = await mine.owner.api.post<Message>(messagesUrl(mine, room.id), {
      content: '',
      genId: randomUUID(),
      attachments: [{ ...file }],
    });
    expect(posted.status).toBe(201);
    expect(onDisk(fileKey)).toBe(true);

    expect((await mine.owner.api.delete(channelUrl(mine, room))).status).toBe(200);
    expect(onDisk(fileKey)).toBe(false);
  });

  // Last: the sweep looks at the whole server, so it runs when the other tests are done with their files.
  it('sweeps bytes never registered after a day, keeping posted files and files a draft may still hold', async () => {
    const mine = await makeWorkspace(t);
    const unregistered = await putBytes(t, mine.owner, mine, 16);
    const unattached = await upload(t, mine.owner, mine, mine.general.id);
    const posted = await upload(t, mine.owner, mine, mine.general.id);
    const message = await mine.owner.api.post<Message>(messagesUrl(mine, mine.general.id), {
      content: '',
      genId: randomUUID(),
      attachments: [posted.file],
    });
    expect(message.status).toBe(201);
    const deps = { db: t.ctx.db, store: createFileStore(t.config, t.ctx.secrets.fileSigningKey) };

    const early = await sweepUploads(deps, new Date());
    expect(early).toEqual({ fileKeys: [] });
    expect(onDisk(unregistered.fileKey)).toBe(true);

    const late = await sweepUploads(deps, new Date(Date.now() + DAY_MS + 60_000));
    expect(late.fileKeys).toContain(unregistered.fileKey);
    expect(onDisk(unregistered.fileKey)).toBe(false);
    // Registered but not yet posted (a draft's attachment): kept, and still readable by its uploader.
    expect(late.fileKeys).not.toContain(unattached.fileKey);
    expect(onDisk(unattached.fileKey)).toBe(true);
    expect((await mine.owner.api.get(`/api/files/${unattached.file.id}/content`)).status).toBe(200);

    expect(late.fileKeys).not.toContain(posted.fileKey);
    expect(onDisk(posted.fileKey)).toBe(true);
    expect((await mine.owner.api.get(`/api/files/${posted.file.id}/content`)).status).toBe(200);
  });
});

describe.each(databases)('security: a deleted channel’s bytes leave S3 (%s)', (kind) => {
  let s3: FakeS3;
  let t: TestServer;

  beforeAll(async () => {
    s3 = await startFakeS3();
    t = await startTestServer(kind, { env: s3.env });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  // Registered after the browser's PUT, as the client does: the server asks the bucket (a signed HEAD) and
  // takes the size it holds, so the file is complete and shows in the channel's Files once sent.
  it('registers an object the bucket holds as uploaded, with its stored size, and lists it once sent', async () => {
    const mine = await makeWorkspace(t);
    const room = await makeChannel(mine.owner, mine);
    const { file } = await upload(t, mine.owner, mine, room.id, 24);
    expect(file).toMatchObject({ isUploading: false, fileSize: 24 });
    await postFiles(mine.owner, mine, room.id, [file]);
    const listed = await mine.owner.api.get<FilesResponse>(
      `/api/institutions/${mine.id}/files?channelId=${room.id}`,
    );
    expect(listed.body.data.map((f) => f.id)).toEqual([file.id]);

    // Registered before its bytes arrive: still uploading, and it cannot be marked done while S3 has nothing.
    const early = await sign(mine.owner, mine, 8);
    const registered = await mine.owner.api.post<{ file: FileEntity }>('/api/files', {
      institutionId: mine.id,
      channelId: room.id,
      fileName: 'late.bin',
      fileType: 'application/octet-stream',
      fileSize: 8,
      fileKey: early.body.fileKey,
    });
    expect(registered.body.file.isUploading).toBe(true);
    const marked = await mine.owner.api.put(`/api/files/${registered.body.file.id}`, { isUploading: false });
    expect(marked.status).toBe(400);
    expect(s3.refused).toEqual([]);
  });

  it("deletes a deleted channel's objects with a signed DELETE", async () => {
    const mine = await makeWorkspace(t);
    const room = await makeChannel(mine.owner, mine);
    const { fileKey } = await upload(t, mine.owner, mine, room.id);
    expect(s3.objects.has(fileKey)).toBe(true);

    expect((await mine.owner.api.delete(channelUrl(mine, room))).status).toBe(200);
    expect(s3.objects.has(fileKey)).toBe(false);
    expect(s3.refused).toEqual([]);
  });
});
