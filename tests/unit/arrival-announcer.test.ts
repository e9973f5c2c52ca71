// Decision 0077: what a screen reader is told when messages arrive in the open channel, and what it is not.
import { describe, expect, it } from 'vitest';
import type { MessageDoc } from '../../schemas/collections.ts';
import type { AgentAnswer } from '../../schemas/protocol/index.ts';
import {
  arrivalAnnouncement,
  READ_OUT_AT_ONCE,
  SPOKEN_TEXT_MAX,
  spokenMessage,
  takeArrivals,
} from '../../src/components/messages/arrival-announcer.ts';
import { pendingMessage } from '../../src/store/pending-message.ts';

const ME = 'me';
let nextGenId = 0;
function message(createdSeq: number, memberId: string, content = `<p>number ${createdSeq}</p>`): MessageDoc {
  const m = pendingMessage({
    genId: `g${nextGenId++}`,
    memberId,
    institutionId: 'i1',
    channelId: 'c1',
    createdAt: '2026-12-03T09:00:00.000Z',
    content,
  });
  return createdSeq === 0
    ? m
    : { ...m, status: 'confirmed', id: `m${createdSeq}`, createdSeq, seq: createdSeq };
}
const answer = (status: AgentAnswer['status']): AgentAnswer => ({
  runId: 'r1',
  status,
  askerMemberId: ME,
  toolCalls: [],
  citations: [],
});
const fresh = () => ({ newest: null as number | null, writing: new Set<string>() });
const contents = (ms: MessageDoc[]) => ms.map((m) => m.content);

describe('which messages are news', () => {
  it('none of the rows there when the channel opened, then each message of someone else once', () => {
    const seen = fresh();
    const opened = [message(1, 'grace'), message(2, 'tomas')];
    expect(takeArrivals(opened, ME, seen)).toEqual([]);
    const arrived = message(3, 'grace', '<p>the harbour plan</p>');
    const now = [...opened, arrived];
    expect(contents(takeArrivals(now, ME, seen))).toEqual(['<p>the harbour plan</p>']);
    // The same list again (a re-render, a reaction): nothing new.
    expect(takeArrivals(now, ME, seen)).toEqual([]);
  });

  it("not one's own sends, pending or confirmed, nor deleted ones", () => {
    const seen = fresh();
    const list = [message(1, 'grace')];
    takeArrivals(list, ME, seen);
    const mine = message(0, ME, '<p>my echo</p>');
    expect(takeArrivals([...list, mine], ME, seen)).toEqual([]);
    const confirmed = { ...mine, status: 'confirmed' as const, createdSeq: 2, seq: 2 };
    const gone = { ...message(3, 'tomas'), deletedAt: '2026-12-03T09:01:00.000Z' };
    expect(takeArrivals([...list, confirmed, gone], ME, seen)).toEqual([]);
  });

  it('not an older page brought in above', () => {
    const seen = fresh();
    const list = [message(50, 'grace'), message(51, 'tomas')];
    takeArrivals(list, ME, seen);
    const older = [message(48, 'ravi'), message(49, 'mira')];
    expect(takeArrivals([...older, ...list], ME, seen)).toEqual([]);
  });

  it("others' messages delivered before one's own pending row (which sorts last) are news, in order", () => {
    const seen = fresh();
    const list = [message(1, 'grace')];
    takeArrivals(list, ME, seen);
    const pending = message(0, ME);
    const caughtUp = [message(2, 'tomas', '<p>a</p>'), message(3, 'ravi', '<p>b</p>')];
    expect(contents(takeArrivals([...list, ...caughtUp, pending], ME, seen))).toEqual([
      '<p>a</p>',
      '<p>b</p>',
    ]);
  });

  it("an agent's answer when it is written, not while it thinks or streams", () => {
    const seen = fresh();
    const list = [message(1, 'grace')];
    takeArrivals(list, ME, seen);
    const thinking = { ...message(2, 'agent', '<p>Thinking…</p>'), agentAnswer: answer('thinking') };
    expect(takeArrivals([...list, thinking], ME, seen)).toEqual([]);
    const streaming = { ...thinking, content: '<p>The plan</p>', agentAnswer: answer('streaming'), seq: 3 };
    expect(takeArrivals([...list, streaming], ME, seen)).toEqual([]);
    const done = { ...streaming, content: '<p>The plan is ready.</p>', agentAnswer: answer('done'), seq: 4 };
    expect(contents(takeArrivals([...list, done], ME, seen))).toEqual(['<p>The plan is ready.</p>']);
    expect(takeArrivals([...list, done], ME, seen)).toEqual([]);
  });

  it('an answer already being written when the channel opened is spoken once it is done', () => {
    const seen = fresh();
    const writing = { ...message(1, 'agent', '<p>Thinking…</p>'), agentAnswer: answer('thinking') };
    expect(takeArrivals([writing], ME, seen)).toEqual([]);
    const done = { ...writing, content: '<p>Done.</p>', agentAnswer: answer('done') };
    expect(contents(takeArrivals([done], ME, seen))).toEqual(['<p>Done.</p>']);
  });
});

describe('what is said', () => {
  const arrival = (content: string, name = 'Grace Hopper') => ({
    message: message(9, 'grace', content),
    authorName: name,
  });

  it("reads another person's message with their name, without markup", () => {
    expect(arrivalAnnouncement([arrival('<p>The <strong>harbour</strong> plan &amp; map</p>')], null)).toBe(
      'Grace Hopper: The harbour plan & map',
    );
  });

  it('reads a few at once as sentences, and counts a burst', () => {
    expect(arrivalAnnouncement([arrival('<p>hi</p>'), arrival('<p>ready?</p>', 'Tomas Berg')], null)).toBe(
      'Grace Hopper: hi. Tomas Berg: ready?',
    );
    const burst = Array.from({ length: READ_OUT_AT_ONCE + 1 }, () => arrival('<p>x</p>'));
    expect(arrivalAnnouncement(burst, null)).toBe(`${READ_OUT_AT_ONCE + 1} new messages.`);
  });

  it('counts what waits below when the reader has scrolled up, as the Jump to latest button does', () => {
    expect(arrivalAnnouncement([arrival('<p>hi</p>')], 1)).toBe('1 new message below.');
    expect(arrivalAnnouncement([arrival('<p>hi</p>')], 4)).toBe('4 new messages below.');
  });

  it('says nothing for no arrivals', () => {
    expect(arrivalAnnouncement([], null)).toBeNull();
    expect(arrivalAnnouncement([], 3)).toBeNull();
  });

  it('cuts a long message, and names what a message without text holds', () => {
    const long = spokenMessage(message(1, 'grace', `<p>${'word '.repeat(200)}</p>`), 'Grace');
    expect(long.length).toBeLessThanOrEqual('Grace: '.length + SPOKEN_TEXT_MAX + 1);
    expect(long.endsWith('…')).toBe(true);
    const file = { id: 'f1', fileName: 'a.pdf', fileType: 'application/pdf', fileSize: 1 };
    const withFiles = {
      ...message(2, 'grace', ''),
      attachments: [file, { ...file, id: 'f2' }],
    } as MessageDoc;
    expect(spokenMessage(withFiles, 'Grace')).toBe('Grace: shared 2 files');
    const poll = { ...message(3, 'grace', ''), poll: { question: 'Lunch?' } } as unknown as MessageDoc;
    expect(spokenMessage(poll, 'Grace')).toBe('Grace: poll, Lunch?');
    const failed = { ...message(4, 'agent', '<p>Thinking…</p>'), agentAnswer: answer('failed') };
    expect(spokenMessage(failed, 'Helper')).toBe('Helper could not answer.');
  });
});
