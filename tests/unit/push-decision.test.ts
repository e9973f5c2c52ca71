// The push decision as a scenario table on a fake clock: who gets a push for a message, from mentions,
// direct messages and replies, held back by reading the same channel in the last 20 s (on any device),
// muting, a channel level or Do-not-disturb, and never for one's own message. Then the payload's size cap.
import { describe, expect, it } from 'vitest';
import {
  ACTIVE_IN_CHANNEL_MS,
  type Activity,
  decidePushes,
  type PushMessageFacts,
  type RecipientFacts,
} from '../../server/push/decision.ts';
import { buildPayload, MAX_PAYLOAD_BYTES } from '../../server/push/payload.ts';

const NOW = new Date('2026-03-02T10:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);

const message = (over: Partial<PushMessageFacts> = {}): PushMessageFacts => ({
  channelId: 'room',
  channelType: 'public',
  authorUserId: 'u-author',
  authorMemberId: 'm-author',
  mentionedMemberIds: new Set(),
  everyone: false,
  here: false,
  repliedToMemberId: null,
  ...over,
});
const ana = (over: Partial<RecipientFacts> = {}): RecipientFacts => ({
  memberId: 'm-ana',
  userId: 'u-ana',
  muted: false,
  level: null,
  dndUntil: null,
  activity: [],
  ...over,
});
const at = (channelId: string | null, msAgo: number): Activity => ({ channelId, at: ago(msAgo) });
const mentionsAna = { mentionedMemberIds: new Set(['m-ana']) };

const scenarios: Array<[string, Partial<PushMessageFacts>, Partial<RecipientFacts>, string | null]> = [
  ['mention while away', mentionsAna, {}, 'mention'],
  ['mention, active in the same channel 5 s ago', mentionsAna, { activity: [at('room', 5_000)] }, null],
  [
    'mention, active in the same channel 19 s ago on the phone, laptop idle',
    mentionsAna,
    { activity: [at('room', 19_000), at(null, 600_000)] },
    null,
  ],
  ['mention, last in the same channel 25 s ago', mentionsAna, { activity: [at('room', 25_000)] }, 'mention'],
  [
    'mention, active in another channel 1 s ago',
    mentionsAna,
    { activity: [at('general', 1_000)] },
    'mention',
  ],
  [
    'mention, tab open but idle (no activity for 10 min)',
    mentionsAna,
    { activity: [at('room', 600_000)] },
    'mention',
  ],
  [
    'mention, laptop shut right after reading (last sign 21 s ago)',
    mentionsAna,
    { activity: [at('room', ACTIVE_IN_CHANNEL_MS + 1_000)] },
    'mention',
  ],
  ['mention in a muted channel', mentionsAna, { muted: true }, null],
  ['mention, channel level nothing', mentionsAna, { level: 'nothing' }, null],
  ['mention during Do-not-disturb', mentionsAna, { dndUntil: new Date(NOW.getTime() + 60_000) }, null],
  ['mention after Do-not-disturb ended', mentionsAna, { dndUntil: ago(1) }, 'mention'],
  ['plain message, default level', {}, {}, null],
  ['plain message, level all', {}, { level: 'all' }, 'message'],
  ['plain message, level all, reading it', {}, { level: 'all', activity: [at('room', 2_000)] }, null],
  ['direct message', { channelType: 'direct_message' }, {}, 'direct_message'],
  [
    'direct message, level mentions still counts as addressed',
    { channelType: 'direct_message' },
    { level: 'mentions' },
    'direct_message',
  ],
  ['direct message, muted', { channelType: 'direct_message' }, { muted: true }, null],
  ['reply to her message', { repliedToMemberId: 'm-ana' }, {}, 'reply'],
  ['@everyone', { everyone: true }, {}, 'mention'],
  [
    '@here while she is around (app open 2 min ago)',
    { here: true },
    { activity: [at(null, 120_000)] },
    'mention',
  ],
  ['@here while she is long gone', { here: true }, { activity: [at(null, 3 * 3600_000)] }, null],
  [
    'her own message mentioning herself',
    { ...mentionsAna, authorMemberId: 'm-ana', authorUserId: 'u-ana' },
    {},
    null,
  ],
  [
    'her own message from another workspace membership',
    { ...mentionsAna, authorMemberId: 'm-other', authorUserId: 'u-ana' },
    {},
    null,
  ],
];

describe('push decision', () => {
  it.each(scenarios)('%s', (_name, facts, recipient, reason) => {
    const decided = decidePushes(message(facts), [ana(recipient)], NOW);
    expect(decided.map((d) => d.reason)).toEqual(reason ? [reason] : []);
  });

  it('decides per person: one push each for those it applies to', () => {
    const people = [
      ana(),
      ana({ memberId: 'm-bo', userId: 'u-bo' }),
      ana({ memberId: 'm-cy', userId: 'u-cy', activity: [at('room', 1_000)] }),
      ana({ memberId: 'm-author', userId: 'u-author' }),
    ];
    const decided = decidePushes(message({ everyone: true }), people, NOW);
    expect(decided.map((d) => d.userId)).toEqual(['u-ana', 'u-bo']);
  });
});

describe('push payload', () => {
  const input = {
    reason: 'mention' as const,
    authorName: 'Ana',
    channelName: 'design',
    channelId: 'c1',
    institutionId: 'w1',
    messageId: 'm1',
    isPwa: true,
    idOnly: false,
    unreadCount: 7,
  };

  it('keeps a short message whole, with the spec fields', () => {
    expect(buildPayload({ ...input, text: 'Ship it' })).toEqual({
      title: 'Ana in #design',
      body: 'Ship it',
      channelId: 'c1',
      clientId: 'w1',
      messageId: 'm1',
      isPwa: true,
      requiresRefresh: true,
      idOnly: false,
      unreadCount: 7,
    });
  });

  it('cuts an over-long message (multi-byte text too) to stay under 3 KB, ending in an ellipsis', () => {
    for (const text of ['x'.repeat(20_000), '日本語のテキスト😀'.repeat(2_000)]) {
      const payload = buildPayload({ ...input, text });
      expect(Buffer.byteLength(JSON.stringify(payload))).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
      expect(Buffer.byteLength(JSON.stringify(payload))).toBeGreaterThan(MAX_PAYLOAD_BYTES - 16);
      expect(payload.body.endsWith('…')).toBe(true);
      expect(text.startsWith(payload.body.slice(0, -1))).toBe(true);
    }
  });

  it('carries only ids when the operator asks for id-only pushes', () => {
    const payload = buildPayload({ ...input, idOnly: true, text: 'secret plans' });
    expect(payload).toMatchObject({
      title: '',
      body: '',
      idOnly: true,
      channelId: 'c1',
      messageId: 'm1',
      unreadCount: 7,
    });
    expect(JSON.stringify(payload)).not.toContain('secret');
  });
});
