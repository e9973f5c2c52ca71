// A store read's result crosses to the tab as its change (worker/store-changes.ts): the tab must end with
// exactly the worker's result, keeping the objects of every part that did not change.
import { describe, expect, it } from 'vitest';
import { applyChange, describeChange } from '../../worker/store-changes.ts';

/** What the tab holds after the worker sent `next`'s change, or `previous` itself when nothing was sent. */
function across(previous: unknown, next: unknown): unknown {
  const change = describeChange(previous, next);
  // structuredClone: the change crosses postMessage, so nothing of the worker's objects reaches the tab.
  return change === null ? previous : applyChange(previous, structuredClone(change));
}

const message = (genId: string, content: string, extra: Record<string, unknown> = {}) => ({
  genId,
  content,
  reactions: [{ emoji: '👍', memberIds: ['m1'] }],
  ...extra,
});

describe('a store result sent as its change', () => {
  it('sends nothing when the new result equals the held one', () => {
    const held = { messages: [message('a', 'hi')], hasOlderStored: false, held: new Set(['a']) };
    expect(describeChange(held, structuredClone(held))).toBeNull();
  });

  it('a message added to a window sends that message alone and keeps the others as they were', () => {
    const before = { messages: [message('a', 'one'), message('b', 'two')], hasOlderStored: true };
    const after = {
      ...structuredClone(before),
      messages: [...structuredClone(before.messages), message('c', 'three')],
    };
    const change = describeChange(before, after);
    expect(JSON.stringify(change)).not.toContain('one');
    expect(JSON.stringify(change)).toContain('three');
    const result = across(before, after) as typeof after;
    expect(result).toEqual(after);
    expect(result.messages[0]).toBe(before.messages[0]);
    expect(result.messages[1]).toBe(before.messages[1]);
  });

  it('an edited message is rebuilt with its unchanged parts kept, and rows matched by genId across a move', () => {
    const before = [message('a', 'one'), message('b', 'two'), message('c', 'three')];
    const after = [message('c', 'three'), message('a', 'one, edited'), message('b', 'two')];
    const result = across(before, after) as typeof after;
    expect(result).toEqual(after);
    expect(result[0]).toBe(before[2]);
    expect(result[2]).toBe(before[1]);
    expect(result[1]).not.toBe(before[0]);
    expect(result[1]?.reactions).toBe(before[0]?.reactions);
  });

  it('removed rows, removed fields, sets and nulls come out as the worker has them', () => {
    const cases: [unknown, unknown][] = [
      [[message('a', '1'), message('b', '2')], [message('b', '2')]],
      [{ a: 1, b: 2 }, { a: 1 }],
      [{ held: new Set(['a']) }, { held: new Set(['a', 'b']) }],
      [{ token: 't', user: { name: 'Ada' } }, null],
      [null, { token: 't', user: { name: 'Ada' } }],
      [undefined, [1, 2, 3]],
      [
        [1, 2, 3],
        [3, 2, 1, 0],
      ],
      [
        { pendingCount: 1, failedCount: 0 },
        { pendingCount: 0, failedCount: 1 },
      ],
    ];
    for (const [before, after] of cases) expect(across(before, after)).toEqual(after);
  });

  it('a field named __proto__ in stored data replaces the object instead of becoming its prototype', () => {
    const before = { data: { title: 'a' } };
    const after = JSON.parse('{"data":{"title":"b","__proto__":{"polluted":true}}}') as typeof before;
    const result = across(before, after) as { data: Record<string, unknown> };
    expect(Object.getPrototypeOf(result.data)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(result.data.title).toBe('b');
  });
});
