// The resend loop, driven through a send() delegate and a fake clock, with a log of what happened.
import { describe, expect, it } from 'vitest';
import type { OutboxDoc } from '../../schemas/collections.ts';
import { afterSend, type SendResult } from '../../src/store/outbox-state.ts';
import { OutboxLoop } from '../../worker/outbox-loop.ts';
import type { Clock } from '../../worker/timings.ts';
import { makeOutboxEntry, makeServerMessage } from './factories.ts';

class FakeClock implements Clock {
  time = 0;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 1;
  now() {
    return this.time;
  }
  setTimeout(fn: () => void, ms: number) {
    const id = this.nextId++;
    this.timers.push({ at: this.time + ms, fn, id });
    return id;
  }
  clearTimeout(id: unknown) {
    this.timers = this.timers.filter((t) => t.id !== id);
  }
  /** Moves time forward, firing due timers. */
  advance(ms: number) {
    this.time += ms;
    const due = this.timers.filter((t) => t.at <= this.time);
    this.timers = this.timers.filter((t) => t.at > this.time);
    for (const t of due) t.fn();
  }
  get pending() {
    return this.timers.length;
  }
}

/** An in-memory outbox plus a scripted server: answers come from `respond`. */
function harness(respond: (entry: OutboxDoc, attempt: number) => SendResult) {
  const clock = new FakeClock();
  let rows: OutboxDoc[] = [];
  const log: string[] = [];
  const attempts = new Map<string, number>();
  let connected = true;
  const loop = new OutboxLoop({
    list: async () => rows.map((r) => ({ ...r })),
    send: async (entry) => {
      const n = (attempts.get(entry.key) ?? 0) + 1;
      attempts.set(entry.key, n);
      const label = (entry.operation as { content: string }).content;
      log.push(`send ${label}`);
      return respond(entry, n);
    },
    record: async (entry, result) => {
      const t = afterSend(entry, result);
      rows = t.entry
        ? rows.map((r) => (r.key === entry.key ? t.entry! : r))
        : rows.filter((r) => r.key !== entry.key);
      log.push(`${result.kind} ${(entry.operation as { content: string }).content}`);
    },
    settle: async (queued) => {
      log.push(`settle ${queued.length}`);
    },
    isConnected: () => connected,
    clock,
    resyncIntervalMs: 60_000,
  });
  const add = (content: string, channelId = 'c1') =>
    rows.push(
      makeOutboxEntry({
        channelId,
        operation: { kind: 'post', content, replyTo: null, attachments: [], mentions: [] },
      }),
    );
  return {
    loop,
    clock,
    log,
    add,
    rows: () => rows,
    setConnected: (v: boolean) => {
      connected = v;
    },
  };
}

const ok = (): SendResult => ({ kind: 'ok', message: makeServerMessage() });
const timeout = (): SendResult => ({ kind: 'transient', reason: 'request timed out' });

describe('outbox loop', () => {
  it('settles first after a connect, then sends a channel’s messages in the order they were written', async () => {
    const h = harness(ok);
    h.add('a');
    h.add('b');
    h.add('c');
    await h.loop.onConnect();
    expect(h.log).toEqual(['settle 3', 'send a', 'ok a', 'send b', 'ok b', 'send c', 'ok c']);
    expect(h.rows()).toEqual([]);
  });

  it('sends nothing while disconnected (no buffering) and everything once connected', async () => {
    const h = harness(ok);
    h.setConnected(false);
    h.add('a');
    await h.loop.kick();
    expect(h.log).toEqual([]);
    h.setConnected(true);
    await h.loop.onConnect();
    expect(h.log).toEqual(['settle 1', 'send a', 'ok a']);
  });

  it('stops a channel at a time-out so later messages never overtake, and resends after 60 s', async () => {
    let sends = 0;
    const h = harness(() => (++sends === 1 ? timeout() : ok()));
    h.add('a');
    h.add('b');
    await h.loop.kick();
    expect(h.log).toEqual(['settle 2', 'send a', 'transient a']);
    expect(h.rows().map((r) => r.state)).toEqual(['queued', 'queued']);
    h.clock.advance(59_999);
    await h.loop.idle();
    expect(h.log).toHaveLength(3);
    h.clock.advance(1);
    await h.loop.idle();
    expect(h.log.slice(3)).toEqual(['send a', 'ok a', 'send b', 'ok b']);
    expect(h.clock.pending).toBe(0);
  });

  it('marks a refused message failed and carries on with the next one', async () => {
    const h = harness((e) =>
      (e.operation as { content: string }).content === 'bad' ? { kind: 'error', message: 'no' } : ok(),
    );
    h.add('bad');
    h.add('good');
    await h.loop.kick();
    expect(h.log.slice(1)).toEqual(['send bad', 'error bad', 'send good', 'ok good']);
    expect(h.rows()).toMatchObject([{ state: 'failed', lastError: 'no' }]);
    // A failed entry alone does not keep the resync timer running.
    expect(h.clock.pending).toBe(0);
  });

  it('does not let one stuck channel hold up another', async () => {
    const h = harness((e) => ((e.operation as { content: string }).content === 'x1' ? timeout() : ok()));
    h.add('x1', 'x');
    h.add('y1', 'y');
    h.add('y2', 'y');
    await h.loop.kick();
    expect(h.log).toContain('ok y2');
    expect(h.log).not.toContain('send x2');
    expect(h.rows().map((r) => (r.operation as { content: string }).content)).toEqual(['x1']);
  });
});
