// The e-mail lists of invitations and groups (spec §9 tags input): values added one by one or pasted as a
// list, an optional maximum where 0 means unlimited, duplicates refused unless allowed, each refusal said.
import { describe, expect, it } from 'vitest';
import { addTags, splitTags, withPending } from '../../src/components/ui/tags-input.tsx';
import { emailProblem, normalizeEmail } from '../../src/components/workspace/email-list.ts';

describe('tags input', () => {
  it('splits a pasted list on commas, semicolons, spaces and new lines', () => {
    expect(splitTags('ada@x.io, grace@x.io;\nlin@x.io  bo@x.io')).toEqual([
      'ada@x.io',
      'grace@x.io',
      'lin@x.io',
      'bo@x.io',
    ]);
  });

  it('refuses a duplicate and says so, unless duplicates are allowed', () => {
    const rules = { normalize: normalizeEmail };
    expect(addTags(['ada@x.io'], ['Ada@X.io ', 'grace@x.io'], rules)).toEqual({
      tags: ['ada@x.io', 'grace@x.io'],
      refused: ['ada@x.io is already in the list'],
    });
    expect(addTags(['a'], ['a'], { allowDuplicates: true })).toEqual({ tags: ['a', 'a'], refused: [] });
  });

  it('stops at the maximum, naming what was left out; 0 means unlimited', () => {
    expect(addTags(['a'], ['b', 'c'], { max: 2 })).toEqual({
      tags: ['a', 'b'],
      refused: ['Up to 2 at a time: c was left out'],
    });
    const many = Array.from({ length: 500 }, (_, i) => `v${i}`);
    expect(addTags([], many, { max: 0 }).tags).toHaveLength(500);
  });

  it('adds what is still being typed when the form is sent', () => {
    expect(withPending(['ada@x.io'], ' Grace@x.io, ', { normalize: normalizeEmail })).toEqual([
      'ada@x.io',
      'grace@x.io',
    ]);
    expect(withPending(['ada@x.io'], '')).toEqual(['ada@x.io']);
  });

  it('drops empty values', () => {
    expect(addTags([], ['  ', ''])).toEqual({ tags: [], refused: [] });
  });

  it('names an address that cannot be one', () => {
    expect(emailProblem('ada@x.io')).toBeNull();
    expect(emailProblem('ada.x.io')).toBe('ada.x.io is not an e-mail address');
  });
});
