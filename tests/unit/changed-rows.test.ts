// What counts as an unchanged row: a refresh bringing it is not written (src/store/changed-rows.ts).
import { describe, expect, it } from 'vitest';
import { sameContent } from '../../src/store/changed-rows.ts';

const stored = {
  id: 'm1',
  name: 'Ada',
  user: { id: 'u1', isOnline: true },
  tags: ['a', 'b'],
  _meta: { lwt: 1 },
  _rev: '1-x',
  _attachments: {},
  _deleted: false,
};

describe('sameContent', () => {
  it('ignores the store’s own fields and keys left undefined', () => {
    expect(
      sameContent(stored, { id: 'm1', name: 'Ada', user: { id: 'u1', isOnline: true }, tags: ['a', 'b'] }),
    ).toBe(true);
    expect(
      sameContent(stored, {
        id: 'm1',
        name: 'Ada',
        nickname: undefined,
        user: { id: 'u1', isOnline: true },
        tags: ['a', 'b'],
      }),
    ).toBe(true);
  });

  it('sees a change anywhere in the content, a key added or dropped', () => {
    const doc = { id: 'm1', name: 'Ada', user: { id: 'u1', isOnline: true }, tags: ['a', 'b'] };
    expect(sameContent(stored, { ...doc, user: { id: 'u1', isOnline: false } })).toBe(false);
    expect(sameContent(stored, { ...doc, tags: ['b', 'a'] })).toBe(false);
    expect(sameContent(stored, { ...doc, tags: ['a'] })).toBe(false);
    expect(sameContent(stored, { ...doc, nickname: 'A' })).toBe(false);
    const { tags: _, ...withoutTags } = doc;
    expect(sameContent(stored, withoutTags)).toBe(false);
    expect(sameContent(stored, { ...doc, tags: null })).toBe(false);
  });

  it('writes a row that is missing or removed', () => {
    const doc = { id: 'm1', name: 'Ada', user: { id: 'u1', isOnline: true }, tags: ['a', 'b'] };
    expect(sameContent(undefined, doc)).toBe(false);
    expect(sameContent({ ...stored, _deleted: true }, doc)).toBe(false);
  });
});
