// Small factories for client-side tests: server messages, channels, outbox rows and a fresh store per test.
import { randomUUID } from 'node:crypto';
import type { ChannelDoc, CollectionName, OutboxDoc } from '../../schemas/collections.ts';
import type { Message } from '../../schemas/protocol/index.ts';
import { openLanternDatabase } from '../../src/store/database.ts';

let n = 0;

export function makeServerMessage(overrides: Partial<Message> = {}): Message {
  n += 1;
  return {
    id: `m${n}`,
    genId: randomUUID(),
    channelId: 'c1',
    institutionId: 'i1',
    memberId: 'someone',
    content: `<p>message ${n}</p>`,
    replyTo: null,
    attachments: [],
    mentions: [],
    createdAt: new Date(1_700_000_000_000 + n).toISOString(),
    editedAt: null,
    deletedAt: null,
    seq: n,
    createdSeq: n,
    reactions: [],
    isPinned: false,
    poll: null,
    forwardedFrom: null,
    agentAnswer: null,
    ...overrides,
  };
}

/** A public channel of workspace i1 named after its id, never posted in. */
export function makeChannel(id: string, overrides: Partial<ChannelDoc> = {}): ChannelDoc {
  return {
    id,
    institutionId: 'i1',
    name: id,
    type: 'public',
    isDefault: false,
    defaultRole: null,
    directMessageMembers: null,
    createdBy: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    lastSeq: 0,
    lastSentMessage: null,
    ...overrides,
  };
}

export function makeOutboxEntry(overrides: Partial<OutboxDoc> = {}): OutboxDoc {
  n += 1;
  const genId = overrides.genId ?? randomUUID();
  return {
    key: genId,
    order: n,
    state: 'queued',
    institutionId: 'i1',
    channelId: 'c1',
    genId,
    operation: { kind: 'post', content: `<p>hello ${n}</p>`, replyTo: null, attachments: [], mentions: [] },
    attempts: 0,
    lastError: null,
    createdAt: new Date().toISOString(),
    ...overrides,
  };
}

/** Each test gets its own database name (fake-indexeddb is per test file). */
export function openTestDatabase(collections?: readonly CollectionName[]) {
  return openLanternDatabase(`test-${randomUUID()}`, collections ? { collections } : {});
}
