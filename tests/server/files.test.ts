// Files: an upload address from the server, the bytes PUT to it, the record registered in a channel and
// the download — only ever to people who may read that channel, never past the size limit, on both databases.
import { existsSync, readdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ErrorBody,
  FileEntity,
  FileSignResponse,
  FilesResponse,
  Message,
} from '../../schemas/protocol/index.ts';
import { signUpload } from '../../server/files/upload-signature.ts';
import { emitAck } from './channel-world.ts';
import { databases, startTestServer, type TestServer, type TestUser } from './harness.ts';
import {
  addMember,
  connect,
  disconnectAll,
  makeChannel,
  makeWorkspace,
  postFiles,
  type Workspace,
} from './messaging-world.ts';

const MB = 1024 * 1024;
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

interface RawResult {
  status: number;
  bytesSent: number;
  body: string;
}

/** PUTs `total` bytes in 1 MB chunks (chunked unless a length is given), stopping when the server answers. */
function rawPut(base: string, url: string, total: number, contentLength?: number): Promise<RawResult> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/octet-stream' };
    if (contentLength !== undefined) headers['content-length'] = String(contentLength);
    const req = http.request(new URL(url, base), { method: 'PUT', headers });
    let bytesSent = 0;
    let answered = false;
    const chunk = Buffer.alloc(MB, 7);
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytesSent, body }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, bytesSent, body }));
    });
    req.on('error', (e) => {
      if (!answered) reject(e);
    });
    const pump = () => {
      while (!answered && bytesSent < total && !req.destroyed) {
        bytesSent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (bytesSent >= total && !answered) req.end();
    };
    pump();
  });
}

describe.each(databases)('files (%s)', (kind) => {
  let t: TestServer;
  let ws: Workspace;
  let member: TestUser;
  let outsider: TestUser;
  let stranger: TestUser;

  const filesOnDisk = () =>
    existsSync(t.config.filesDir)
      ? readdirSync(t.config.filesDir, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => path.join(e.parentPath, e.name))
      : [];

  async function sign(by: TestUser, size: number, type = 'image/png') {
    const res = await by.api.get<FileSignResponse>(
      `/api/files/upload/sign?institutionId=${ws.id}&size=${size}&fileName=a.png&fileType=${encodeURIComponent(type)}`,
    );
    expect(res.status).toBe(200);
    return res.body;
  }

  /** Registered only: the file of a message not sent yet, its uploader's alone. */
  async function register(
    by: TestUser,
    channelId: string,
    bytes: Buffer,
    fileName = 'cat.png',
    fileType = 'image/png',
  ) {
    const ticket = await sign(by, bytes.length, fileType);
    const put = await fetch(new URL(ticket.uploadUrl, t.url), {
      method: 'PUT',
      headers: { 'content-type': fileType },
      body: new Uint8Array(bytes),
    });
    expect(put.status).toBe(201);
    const res = await by.api.post<{ file: FileEntity }>('/api/files', {
      institutionId: ws.id,
      channelId,
      fileName,
      fileType,
      fileSize: bytes.length,
      isFromThirdParty: false,
      fileKey: ticket.fileKey,
    });
    expect(res.status).toBe(201);
    return res.body.file;
  }

  /** Uploaded and sent in a message, as the composer does: shared with the channel's members. */
  async function upload(
    by: TestUser,
    channelId: string,
    bytes: Buffer,
    fileName = 'cat.png',
    fileType = 'image/png',
  ) {
    const file = await register(by, channelId, bytes, fileName, fileType);
    await postFiles(by, ws, channelId, [file]);
    return file;
  }

  const download = (by: TestUser, file: FileEntity) =>
    fetch(new URL(file.url, t.url), { headers: { authorization: `Bearer ${by.token}` } });

  beforeAll(async () => {
    t = await startTestServer(kind, { env: { FILE_MAX_BYTES: String(10 * MB) } });
    ws = await makeWorkspace(t);
    member = await addMember(t, ws);
    outsider = await addMember(t, ws);
    stranger = (await makeWorkspace(t, 'Elsewhere')).owner;
  });
  afterAll(() => {
    disconnectAll();
    return t.close();
  });

  it('uploads, registers and serves a file to a member of its channel with safe headers', async () => {
    const file = await upload(ws.owner, ws.general.id, PNG);
    expect(file).toMatchObject({
      fileName: 'cat.png',
      fileSize: PNG.length,
      isUploading: false,
      uploadFailed: false,
    });
    const res = await download(member, file);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PNG);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toMatch(/^inline; filename="cat.png"/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('offers documents and unknown types as downloads, never inline', async () => {
    const html = await upload(
      ws.owner,
      ws.general.id,
      Buffer.from('<script>alert(1)</script>'),
      'x.html',
      'text/html',
    );
    const res = await download(member, html);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
    const svg = await upload(ws.owner, ws.general.id, Buffer.from('<svg/>'), 'x.svg', 'image/svg+xml');
    expect((await download(member, svg)).headers.get('content-disposition')).toMatch(/^attachment;/);
  });

  it('never serves a private channel’s file to a non-member or to another workspace (404)', async () => {
    const secret = await makeChannel(ws.owner, ws, 'private');
    const file = await upload(ws.owner, secret.id, PNG);
    expect((await download(ws.owner, file)).status).toBe(200);
    expect((await download(outsider, file)).status).toBe(404);
    expect((await download(stranger, file)).status).toBe(404);
    const list = await outsider.api.get<FilesResponse>(`/api/institutions/${ws.id}/files`);
    expect(list.body.data.map((f) => f.id)).not.toContain(file.id);
    const mine = await ws.owner.api.get<FilesResponse>(
      `/api/institutions/${ws.id}/files?channelId=${secret.id}`,
    );
    expect(mine.body.data.map((f) => f.id)).toEqual([file.id]);
    expect((await stranger.api.get(`/api/institutions/${ws.id}/files`)).status).toBe(403);
  });

  it('keeps a third-party file’s address and stated size, and counts it as a file, not as storage', async () => {
    const stats = async () =>
      (
        await ws.owner.api.get<{ files: { total: number }; storageBytes: { total: number } }>(
          `/api/institutions/${ws.id}/metric/stats`,
        )
      ).body;
    const before = await stats();
    const res = await member.api.post<{ file: FileEntity }>('/api/files', {
      institutionId: ws.id,
      channelId: ws.general.id,
      fileName: 'waves.gif',
      fileType: 'image/gif',
      fileSize: 48_213,
      isFromThirdParty: true,
      fileUrl: 'https://media.example/waves.gif',
      meta: { provider: 'gifs' },
    });
    expect(res.status).toBe(201);
    expect(res.body.file).toMatchObject({
      fileSize: 48_213,
      url: 'https://media.example/waves.gif',
      isFromThirdParty: true,
      isUploading: false,
      meta: { provider: 'gifs' },
    });
    const sent = await postFiles(member, ws, ws.general.id, [res.body.file]);
    expect(sent.attachments).toEqual([
      expect.objectContaining({ fileSize: 48_213, url: 'https://media.example/waves.gif' }),
    ]);
    const after = await stats();
    expect(after.files.total).toBe(before.files.total + 1);
    expect(after.storageBytes.total).toBe(before.storageBytes.total);
  });

  it('lists files of a channel by name', async () => {
    const room = await makeChannel(ws.owner, ws);
    await upload(ws.owner, room.id, PNG, 'Quarterly report.pdf', 'application/pdf');
    await upload(ws.owner, room.id, PNG, 'holiday.png');
    const found = await ws.owner.api.get<FilesResponse>(
      `/api/institutions/${ws.id}/files?channelId=${room.id}&search=report`,
    );
    expect(found.body.data.map((f) => f.fileName)).toEqual(['Quarterly report.pdf']);
  });

  // Decision 0081: a file picked in the composer is registered before the message is sent. Until a live
  // message carries it, it is the uploader's alone: not listed, not readable by the channel.
  it('shares a file with the channel only while a sent message carries it', async () => {
    const room = await makeChannel(ws.owner, ws);
    await member.api.post(`/api/institutions/${ws.id}/channels/${room.id}/members`);
    const listed = async (by: TestUser) =>
      (
        await by.api.get<FilesResponse>(`/api/institutions/${ws.id}/files?channelId=${room.id}`)
      ).body.data.map((f) => f.fileName);
    const draft = await register(ws.owner, room.id, PNG, 'wrong-screenshot.png');
    expect((await download(ws.owner, draft)).status).toBe(200);
    expect((await download(member, draft)).status).toBe(404);
    expect(await listed(member)).toEqual([]);
    expect(await listed(ws.owner)).toEqual([]);

    const sent = await postFiles(ws.owner, ws, room.id, [draft]);
    expect((await download(member, draft)).status).toBe(200);
    expect(await listed(member)).toEqual(['wrong-screenshot.png']);

    const removed = await emitAck<Message>(await connect(t, ws.owner.token), 'deleteMessage', {
      institutionId: ws.id,
      channelId: room.id,
      messageId: sent.id,
    });
    expect(removed.deletedAt).toBeTruthy();
    expect((await download(member, draft)).status).toBe(404);
    expect(await listed(member)).toEqual([]);
    expect((await download(ws.owner, draft)).status).toBe(200);
  });

  it('refuses a tampered or expired upload address and keeps nothing', async () => {
    const before = filesOnDisk().length;
    const ticket = await sign(member, PNG.length);
    const url = new URL(ticket.uploadUrl, t.url);
    const variants = [
      (u: URL) => u.searchParams.set('signature', `${ticket.signature.slice(0, -2)}AA`),
      (u: URL) => u.searchParams.set('size', String(PNG.length + 1)),
      (u: URL) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 1000)),
      (u: URL) => {
        u.pathname = u.pathname.replace(ticket.fileKey, '00000000-0000-4000-8000-000000000000');
      },
    ];
    for (const change of variants) {
      const tampered = new URL(url);
      change(tampered);
      const res = await fetch(tampered, {
        method: 'PUT',
        headers: { 'content-type': 'image/png' },
        body: PNG,
      });
      expect(res.status).toBe(403);
    }
    const expires = Date.now() - 1000;
    const fileKey = ticket.fileKey;
    const signature = signUpload(t.ctx.secrets.fileSigningKey, { fileKey, size: PNG.length, expires });
    const expired = await fetch(
      new URL(
        `/api/files/upload/${fileKey}?size=${PNG.length}&expires=${expires}&signature=${signature}`,
        t.url,
      ),
      { method: 'PUT', body: PNG },
    );
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as ErrorBody).message).toMatch(/expired/);
    // An address without its signature, or with one longer than any the server makes, is bad input.
    for (const signature of ['', 'A'.repeat(129)]) {
      const unsigned = new URL(url);
      unsigned.searchParams.set('signature', signature);
      const res = await fetch(unsigned, {
        method: 'PUT',
        headers: { 'content-type': 'image/png' },
        body: PNG,
      });
      expect(res.status).toBe(400);
    }
    // A body that does not match the signed size is refused too.
    const short = await fetch(url, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: PNG.subarray(2),
    });
    expect(short.status).toBe(400);
    expect(filesOnDisk()).toHaveLength(before);
  });

  it('refuses a 100 MB upload to a 10 MB limit early, without writing it to disk', async () => {
    const before = filesOnDisk().length;
    expect(
      (await member.api.get(`/api/files/upload/sign?institutionId=${ws.id}&size=${100 * MB}`)).status,
    ).toBe(413);

    // A valid signature for 100 MB (made with the server's key) is still refused by the limit, at once.
    const fileKey = '11111111-1111-4111-8111-111111111111';
    const expires = Date.now() + 60_000;
    const signature = signUpload(t.ctx.secrets.fileSigningKey, { fileKey, size: 100 * MB, expires });
    const declared = await rawPut(
      t.url,
      `/api/files/upload/${fileKey}?size=${100 * MB}&expires=${expires}&signature=${signature}`,
      100 * MB,
      100 * MB,
    );
    expect(declared.status).toBe(413);
    expect(declared.bytesSent).toBeLessThan(20 * MB);

    // An address for 1 MB that receives 100 MB without a declared length is cut off at 1 MB.
    const ticket = await sign(member, MB);
    const streamed = await rawPut(t.url, ticket.uploadUrl, 100 * MB);
    expect(streamed.status).toBe(413);
    expect(streamed.bytesSent).toBeLessThan(20 * MB);
    expect(filesOnDisk()).toHaveLength(before);
  });

  it('lets only the uploader mark a file, and refuses to mark one uploaded whose bytes never came', async () => {
    const ticket = await sign(member, 4);
    const res = await member.api.post<{ file: FileEntity }>('/api/files', {
      institutionId: ws.id,
      channelId: ws.general.id,
      fileName: 'later.txt',
      fileType: 'text/plain',
      fileSize: 4,
      fileKey: ticket.fileKey,
    });
    expect(res.status).toBe(201);
    expect(res.body.file.isUploading).toBe(true);
    const file = res.body.file;
    expect((await ws.owner.api.put(`/api/files/${file.id}`, { uploadFailed: true })).status).toBe(403);
    expect((await member.api.put(`/api/files/${file.id}`, { isUploading: false })).status).toBe(400);
    const failed = await member.api.put<{ file: FileEntity }>(`/api/files/${file.id}`, {
      uploadFailed: true,
    });
    expect(failed.body.file.uploadFailed).toBe(true);
    expect((await member.api.put(`/api/files/${file.id}`, {})).status).toBe(400);
  });

  it('registers the same client id once', async () => {
    const ticket = await sign(member, 4);
    const body = {
      id: '0190a6f0-0000-7000-8000-000000000001',
      institutionId: ws.id,
      channelId: ws.general.id,
      fileName: 'a.txt',
      fileType: 'text/plain',
      fileSize: 4,
      fileKey: ticket.fileKey,
    };
    expect((await member.api.post('/api/files', body)).status).toBe(201);
    expect((await member.api.post('/api/files', body)).status).toBe(200);
    expect((await outsider.api.post('/api/files', body)).status).toBe(400);
  });

  it('deletes a file for its uploader or an admin only, bytes and all', async () => {
    const file = await upload(member, ws.general.id, PNG);
    const before = filesOnDisk().length;
    expect((await outsider.api.delete('/api/files', { fileIds: [file.id] })).status).toBe(403);
    const gone = await member.api.delete<{ fileIds: string[] }>('/api/files', { fileIds: [file.id] });
    expect(gone.body.fileIds).toEqual([file.id]);
    expect(filesOnDisk()).toHaveLength(before - 1);
    expect((await download(member, file)).status).toBe(404);
    // A retried delete succeeds with nothing left to delete.
    expect(
      (await member.api.delete<{ fileIds: string[] }>('/api/files', { fileIds: [file.id] })).body.fileIds,
    ).toEqual([]);
    const other = await upload(member, ws.general.id, PNG);
    expect((await ws.owner.api.delete('/api/files', { fileIds: [other.id] })).status).toBe(200);
    expect((await member.api.delete('/api/files', { fileIds: [] })).status).toBe(400);
  });
});
