// A device that last ran an earlier version of the app opens its store with the current schemas: its
// messages (pending ones too) and members are migrated, not lost and not refused.
import { randomUUID } from 'node:crypto';
import { createRxDatabase, type RxJsonSchema } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { describe, expect, it } from 'vitest';
import {
  channelSchema,
  institutionSchema,
  memberSchema,
  messageSchema,
  outboxSchema,
  settingsSchema,
} from '../../schemas/collections.ts';
import { openLanternDatabase } from '../../src/store/database.ts';

/** The schemas as version 0 shipped them: without agentAnswer and kind. */
// biome-ignore lint/suspicious/noExplicitAny: a schema of a document shape that no longer exists in code
type OldSchema = RxJsonSchema<any>;
function shippedVersion0(schema: OldSchema, ...dropped: string[]): OldSchema {
  const properties = { ...(schema.properties as Record<string, unknown>) };
  for (const name of dropped) delete properties[name];
  return { ...schema, version: 0, properties } as OldSchema;
}

describe('store migration', () => {
  it('keeps messages and members written by version 0, filling the fields added since', async () => {
    const name = `migrate-${randomUUID()}`;
    const old = await createRxDatabase({ name, storage: getRxStorageDexie(), multiInstance: false });
    await old.addCollections({
      messages: { schema: shippedVersion0(messageSchema, 'agentAnswer') },
      members: { schema: shippedVersion0(memberSchema, 'kind') },
    });
    const pending = {
      genId: '0190f3c2-0000-7000-8000-000000000001',
      id: null,
      status: 'pending',
      institutionId: 'i1',
      channelId: 'c1',
      memberId: 'me',
      content: '<p>written offline before the upgrade</p>',
      replyTo: null,
      attachments: [],
      mentions: [],
      createdAt: '2026-11-01T10:00:00.000Z',
      editedAt: null,
      deletedAt: null,
      seq: 0,
      createdSeq: 0,
      reactions: [],
      isPinned: false,
      poll: null,
      forwardedFrom: null,
      isStarred: false,
      base: null,
    };
    await old.collections.messages?.insert(pending as never);
    await old.collections.members?.insert({
      id: 'm1',
      institutionId: 'i1',
      role: 'member',
      name: 'Ada',
      email: 'ada@example.com',
      profileImage: null,
      user: { id: 'u1', isOnline: false },
      createdAt: '2026-11-01T10:00:00.000Z',
    } as never);
    await old.close();

    const db = await openLanternDatabase(name, { collections: ['messages', 'members'] });
    const message = await db.messages.findOne(pending.genId).exec();
    expect(message?.toJSON()).toMatchObject({ ...pending, agentAnswer: null });
    const member = await db.members.findOne('m1').exec();
    expect(member?.toJSON()).toMatchObject({ name: 'Ada', kind: 'user' });
    await db.close();
  });

  it('keeps the workspaces of version 0, with link previews on and no picture until the next fetch', async () => {
    const name = `migrate-${randomUUID()}`;
    const old = await createRxDatabase({ name, storage: getRxStorageDexie(), multiInstance: false });
    await old.addCollections({
      institutions: { schema: shippedVersion0(institutionSchema, 'linkPreviews', 'picture') },
    });
    await old.collections.institutions?.insert({
      id: 'i1',
      name: 'Acme',
      createdAt: '2026-11-01T10:00:00.000Z',
      member: { id: 'm1', role: 'member' },
    } as never);
    await old.close();

    const db = await openLanternDatabase(name, { collections: ['institutions'] });
    const institution = await db.institutions.findOne('i1').exec();
    expect(institution?.toJSON()).toMatchObject({ name: 'Acme', linkPreviews: true, picture: null });
    await db.close();
  });

  it('keeps the settings of version 0 and turns the notification sound on', async () => {
    const name = `migrate-${randomUUID()}`;
    const old = await createRxDatabase({ name, storage: getRxStorageDexie(), multiInstance: false });
    await old.addCollections({
      settings: { schema: shippedVersion0(settingsSchema, 'playNotificationSound') },
    });
    await old.collections.settings?.insert({
      id: 'settings',
      showDMs: false,
      installPromptDismissed: true,
    } as never);
    await old.close();

    const db = await openLanternDatabase(name, { collections: ['settings'] });
    const settings = await db.settings.findOne('settings').exec();
    expect(settings?.toJSON()).toMatchObject({
      showDMs: false,
      installPromptDismissed: true,
      playNotificationSound: true,
    });
    await db.close();
  });

  it('keeps the channels of version 0, without a description until the next fetch', async () => {
    const name = `migrate-${randomUUID()}`;
    const old = await createRxDatabase({ name, storage: getRxStorageDexie(), multiInstance: false });
    await old.addCollections({ channels: { schema: shippedVersion0(channelSchema, 'description') } });
    await old.collections.channels?.insert({
      id: 'c1',
      institutionId: 'i1',
      name: 'plans',
      type: 'private',
      isDefault: false,
      defaultRole: null,
      directMessageMembers: null,
      createdBy: null,
      createdAt: '2026-11-01T10:00:00.000Z',
      lastSeq: 4,
      lastSentMessage: null,
    } as never);
    await old.close();

    const db = await openLanternDatabase(name, { collections: ['channels'] });
    const channel = await db.channels.findOne('c1').exec();
    expect(channel?.toJSON()).toMatchObject({ name: 'plans', lastSeq: 4, description: null });
    await db.close();
  });

  it('keeps the outbox of version 0, and still offers Retry on the failures it recorded', async () => {
    const name = `migrate-${randomUUID()}`;
    const old = await createRxDatabase({ name, storage: getRxStorageDexie(), multiInstance: false });
    await old.addCollections({ outbox: { schema: shippedVersion0(outboxSchema, 'retryable') } });
    const failed = {
      key: '0190f3c2-0000-7000-8000-000000000002',
      order: 1,
      state: 'failed',
      institutionId: 'i1',
      channelId: 'c1',
      genId: '0190f3c2-0000-7000-8000-000000000002',
      operation: { kind: 'post', content: '<p>x</p>', replyTo: null, attachments: [], mentions: [] },
      attempts: 1,
      lastError: 'An error occurred',
      createdAt: '2026-11-01T10:00:00.000Z',
    };
    await old.collections.outbox?.insert(failed as never);
    await old.close();

    const db = await openLanternDatabase(name, { collections: ['outbox'] });
    const row = await db.outbox.findOne(failed.key).exec();
    expect(row?.toJSON()).toMatchObject({ ...failed, retryable: true });
    await db.close();
  });
});
