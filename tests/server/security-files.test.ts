// Issue 9 items 3 and 4, replayed as an attacker would: a stranger with a free account and a workspace of
// their own tries to plant a foreign attachment address (session theft), to read a private channel's file
// by naming its id in a message, and to read other people's messages by replaying an op id with their
// genId. Everything goes through the public REST API and a real socket.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileEntity, FileSignResponse, Message } from '../../schemas/protocol/index.ts';
import { messages } from '../../server/db/schema.ts';
import { emitAck } from './channel-world.ts';
import { databases, startTestServer, type TestServer, type TestUser } from './harness.ts';
import {
  addMember,
  connect,
  disconnectAll,
  makeChannel,
  makeWorkspace,
  messagesUrl,
  restPost,
  type Workspace,
} from './messaging-world.ts';

type AckError = { error: { message: string } };
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

/** Signs, PUTs and registers a small PNG in the channel, as `by`: the real client's three steps. */
async function upload(t: TestServer, by: TestUser, ws: Workspace, channelId: string): Promise<FileEntity> {
  const sign = await by.api.get<FileSignResponse>(
    `/api/files/upload/sign?institutionId=${ws.id}&size=${PNG.length}&fileType=image%2Fpng`,
  );
  expect(sign.status).toBe(200);
  const put = await fetch(new URL(sign.body.uploadUrl, t.url), {
    method: 'PUT',
    headers: { 'content-type': 'image/png' },
    body: new Uint8Array(PNG),
  });
  expect(put.status).toBe(201);
  const res = await by.api.post<{ file: FileEntity }>('/api/files', {
    institutionId: ws.id,
    channelId,
    fileName: 'cat.png',
    fileType: 'image/png',
    fileSize: PNG.length,
    fileKey: sign.body.fileKey,
  });
  expect(res.status).toBe(201);
  return res.body.file;
}

const asAttachment = (f: FileEntity, over: Partial<Record<string, unknown>> = {}) => ({
  id: f.id,
  fileName: f.fileName,
  fileType: f.fileType,
  fileSize: f.fileSize,
  url: f.url,
  ...over,
});

describe.each(databases)('security: attachments and op replays (%s)', (kind) => {
  let t: TestServer;
  /** The victims' workspace. */
  let victims: Workspace;
  /** A stranger who signed up and made a workspace of their own. */
  let stranger: Workspace;

  beforeAll(async () => {
    t = await startTestServer(kind);
    victims = await makeWorkspace(t, 'Victims');
    stranger = await makeWorkspace(t, 'Mine');
  }, 60_000);
  afterAll(async () => {
    disconnectAll();
    await t?.close();
  });

  describe('attachments come from the server’s own file records', () => {
    it('refuses an attachment address the client made up (//evil.example/cat.png), over REST and socket', async () => {
      const forged = {
        id: randomUUID(),
        fileName: 'cat.png',
        fileType: 'image/png',
        fileSize: 10,
        url: '//evil.example/cat.png',
      };
      const genId = randomUUID();
      const rest = await stranger.owner.api.post(messagesUrl(stranger, stranger.general.id), {
        content: '<p>look</p>',
        genId,
        attachments: [forged],
      });
      expect(rest.status).toBe(400);
      expect(rest.body.message).toMatch(/cannot be attached: attach only files you uploaded to this channel/);

      const socket = await connect(t, stranger.owner.token);
      const ack = await emitAck<AckError>(socket, 'postMessage', {
        institutionId: stranger.id,
        channelId: stranger.general.id,
        genId,
        content: '<p>look</p>',
        attachments: [forged],
      });
      expect(ack.error.message).toMatch(/cannot be attached/);

      const page = await stranger.owner.api.get<{ data: Message[] }>(
        messagesUrl(stranger, stranger.general.id),
      );
      expect(page.body.data.filter((m) => m.genId === genId)).toEqual([]);
    });

    it('writes url, name, type and size of an own file from its record, whatever the client sent', async () => {
      const file = await upload(t, stranger.owner, stranger, stranger.general.id);
      const res = await stranger.owner.api.post<Message>(messagesUrl(stranger, stranger.general.id), {
        content: '',
        genId: randomUUID(),
        attachments: [
          asAttachment(file, {
            url: '//evil.example/cat.png',
            fileName: 'other.exe',
            fileType: 'text/html',
            fileSize: 1,
          }),
        ],
      });
      expect(res.status).toBe(201);
      expect(res.body.attachments).toEqual([
        {
          id: file.id,
          fileName: 'cat.png',
          fileType: 'image/png',
          fileSize: PNG.length,
          url: `/api/files/${file.id}/content`,
        },
      ]);
    });

    it('never hands out a foreign address stored before this rule (a legacy row)', async () => {
      const legacy = await restPost(stranger.owner, stranger, stranger.general.id, '<p>old</p>');
      const planted = {
        id: randomUUID(),
        fileName: 'cat.png',
        fileType: 'image/png',
        fileSize: 10,
        url: '//evil.example/cat.png',
      };
      // Written straight into the row, as a message stored by an older server would be.
      await t.ctx.db
        .update(messages)
        .set({ attachments: [planted] })
        .where(eq(messages.id, legacy.id));
      const page = await stranger.owner.api.get<{ data: Message[] }>(
        messagesUrl(stranger, stranger.general.id),
      );
      const served = page.body.data.find((m) => m.id === legacy.id);
      expect(served?.attachments).toEqual([{ ...planted, url: null }]);
    });

    it("refuses to attach a file of another channel or someone else's file", async () => {
      const member = await addMember(t, stranger);
      const other = await makeChannel(stranger.owner, stranger);
      const elsewhere = await upload(t, stranger.owner, stranger, other.id);
      const notMine = await upload(t, stranger.owner, stranger, stranger.general.id);
      for (const [by, file] of [
        [stranger.owner, elsewhere],
        [member, notMine],
      ] as const) {
        const res = await by.api.post(messagesUrl(stranger, stranger.general.id), {
          content: '<p>x</p>',
          genId: randomUUID(),
          attachments: [asAttachment(file)],
        });
        expect(res.status).toBe(400);
        expect(res.body.message).toBe(
          `File ${file.id} cannot be attached: attach only files you uploaded to this channel`,
        );
      }
    });
  });

  describe('read access to a file is decided by its own record', () => {
    it("does not let a member read a private channel's file by naming its id in a message of their own channel", async () => {
      const insider = await addMember(t, victims);
      const secretRoom = await makeChannel(victims.owner, victims, 'private');
      const secret = await upload(t, victims.owner, victims, secretRoom.id);
      expect((await insider.api.get(`/api/files/${secret.id}/content`)).status).toBe(404);

      const planted = await insider.api.post(messagesUrl(victims, victims.general.id), {
        content: '<p>mine now</p>',
        genId: randomUUID(),
        attachments: [asAttachment(secret)],
      });
      expect(planted.status).toBe(400);
      expect((await insider.api.get(`/api/files/${secret.id}/content`)).status).toBe(404);

      // From a workspace of their own it is refused the same way, and reveals nothing.
      const outside = await stranger.owner.api.post(messagesUrl(stranger, stranger.general.id), {
        content: '<p>mine now</p>',
        genId: randomUUID(),
        attachments: [asAttachment(secret)],
      });
      expect(outside.status).toBe(400);
      expect((await stranger.owner.api.get(`/api/files/${secret.id}/content`)).status).toBe(404);
    });

    it('lets members of a channel a file was forwarded into read it, while the forward lives', async () => {
      const reader = await addMember(t, victims);
      const room = await makeChannel(victims.owner, victims, 'private');
      const file = await upload(t, victims.owner, victims, room.id);
      const original = await victims.owner.api.post<Message>(messagesUrl(victims, room.id), {
        content: '<p>the plan</p>',
        genId: randomUUID(),
        attachments: [asAttachment(file)],
      });
      expect(original.status).toBe(201);
      expect((await reader.api.get(`/api/files/${file.id}/content`)).status).toBe(404);

      const socket = await connect(t, victims.owner.token);
      const [copy] = await emitAck<Message[]>(socket, 'forwardMessage', {
        institutionId: victims.id,
        channelId: room.id,
        messageId: original.body.id,
        opId: randomUUID(),
        channelIds: [victims.general.id],
        genIds: [randomUUID()],
      });
      expect(copy?.attachments.map((a) => a.url)).toEqual([`/api/files/${file.id}/content`]);
      expect((await reader.api.get(`/api/files/${file.id}/content`)).status).toBe(200);

      await emitAck(socket, 'deleteMessage', {
        institutionId: victims.id,
        channelId: victims.general.id,
        messageId: copy?.id,
      });
      expect((await reader.api.get(`/api/files/${file.id}/content`)).status).toBe(404);
    });
  });

  describe('replays return only what that op produced for that caller', () => {
    let victimMessage: Message;

    beforeAll(async () => {
      victimMessage = await restPost(victims.owner, victims, victims.general.id, '<p>private words</p>');
    });

    it("createPoll: a used opId with someone else's genId is refused, not answered with their message", async () => {
      const socket = await connect(t, stranger.owner.token);
      const poll = {
        institutionId: stranger.id,
        channelId: stranger.general.id,
        opId: randomUUID(),
        genId: randomUUID(),
        question: 'Lunch?',
        options: ['yes', 'no'],
      };
      const created = await emitAck<Message>(socket, 'createPoll', poll);
      expect(created.poll?.question).toBe('Lunch?');
      // The honest replay gets exactly the poll it made.
      expect(await emitAck<Message>(socket, 'createPoll', poll)).toEqual(created);

      const stolen = await emitAck<AckError & Partial<Message>>(socket, 'createPoll', {
        ...poll,
        genId: victimMessage.genId,
      });
      expect(stolen.content).toBeUndefined();
      expect(stolen.error.message).toBe('This operation id was already used with different arguments');
      expect(JSON.stringify(stolen)).not.toContain('private words');
    });

    it("forwardMessage: a used opId with someone else's genId or other targets is refused", async () => {
      const socket = await connect(t, stranger.owner.token);
      const mine = await restPost(stranger.owner, stranger, stranger.general.id, '<p>mine</p>');
      const target = await makeChannel(stranger.owner, stranger);
      const forward = {
        institutionId: stranger.id,
        channelId: stranger.general.id,
        messageId: mine.id,
        opId: randomUUID(),
        channelIds: [target.id],
        genIds: [randomUUID()],
      };
      const copies = await emitAck<Message[]>(socket, 'forwardMessage', forward);
      expect(copies).toHaveLength(1);
      expect(await emitAck<Message[]>(socket, 'forwardMessage', forward)).toEqual(copies);

      const stolen = await emitAck<AckError>(socket, 'forwardMessage', {
        ...forward,
        genIds: [victimMessage.genId],
      });
      expect(stolen.error.message).toBe('This operation id was already used with different arguments');
      expect(JSON.stringify(stolen)).not.toContain('private words');

      const moved = await emitAck<AckError>(socket, 'forwardMessage', {
        ...forward,
        channelIds: [stranger.general.id],
      });
      expect(moved.error.message).toBe('This operation id was already used with different arguments');

      // A fresh opId with their genId is refused too, and writes nothing.
      const fresh = await emitAck<AckError>(socket, 'forwardMessage', {
        ...forward,
        opId: randomUUID(),
        genIds: [victimMessage.genId],
      });
      expect(fresh.error.message).toBe('This message id is already used');
    });

    it('a message op replayed on another message is refused, not answered with that message', async () => {
      const socket = await connect(t, stranger.owner.token);
      const first = await restPost(stranger.owner, stranger, stranger.general.id, '<p>one</p>');
      const second = await restPost(stranger.owner, stranger, stranger.general.id, '<p>two</p>');
      const pin = {
        institutionId: stranger.id,
        channelId: stranger.general.id,
        messageId: first.id,
        opId: randomUUID(),
        pinned: true,
      };
      expect((await emitAck<Message>(socket, 'togglePinMessage', pin)).isPinned).toBe(true);
      const moved = await emitAck<AckError>(socket, 'togglePinMessage', { ...pin, messageId: second.id });
      expect(moved.error.message).toBe('This operation id was already used with different arguments');
    });

    it("postMessage: someone else's genId never answers with their message", async () => {
      const res = await stranger.owner.api.post(messagesUrl(stranger, stranger.general.id), {
        content: '<p>hi</p>',
        genId: victimMessage.genId,
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('This message id is already used');
      expect(JSON.stringify(res.body)).not.toContain('private words');
    });
  });
});
