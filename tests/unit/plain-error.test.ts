// Refused input reads as a sentence (issue 15 item 4): zod's schema text ("name: Too big: expected string to
// have <=80 characters") never reaches a person; our schemas' own sentences are kept, and an entry of a list
// says which one it is.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldProblem, plainIssue } from '../../schemas/plain-error.ts';
import { channelName, createChannelBody } from '../../schemas/protocol/index.ts';
import { channelNameProblem } from '../../src/components/channels/channel-name-field.tsx';

const first = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('expected a refusal');
  return plainIssue(result.error.issues[0] as z.core.$ZodIssue);
};

describe('plain errors', () => {
  it("keeps a schema's own sentence, and says which entry of a list it is about", () => {
    expect(first(createChannelBody, { name: 'x'.repeat(81), type: 'public' })).toBe(
      'A channel name has at most 80 characters',
    );
    const emails = z.object({ emails: z.array(z.string().email('Enter a valid e-mail address')) });
    expect(first(emails, { emails: ['a@example.com', 'nope'] })).toBe(
      'Enter a valid e-mail address (number 2 in the list)',
    );
  });

  it("puts zod's defaults into words that name the field", () => {
    const body = z.strictObject({
      displayName: z.string().min(1).max(80),
      tags: z.array(z.string()).max(3),
      size: z.number().int().min(1),
      kind: z.enum(['public', 'private']),
      homePage: z.url().optional(),
    });
    const ok = { displayName: 'Ada', tags: [], size: 1, kind: 'public' };
    expect(first(body, { ...ok, displayName: 'x'.repeat(81) })).toBe(
      'The display name can be at most 80 characters.',
    );
    expect(first(body, { ...ok, displayName: '' })).toBe('The display name cannot be empty.');
    expect(first(body, { ...ok, displayName: undefined })).toBe('The display name is missing.');
    expect(first(body, { ...ok, displayName: 5 })).toBe('The display name should be text.');
    expect(first(body, { ...ok, tags: ['a', 'b', 'c', 'd'] })).toBe('The tags can hold at most 3 entries.');
    expect(first(body, { ...ok, size: 0 })).toBe('The size must be at least 1.');
    expect(first(body, { ...ok, size: 1.5 })).toBe('The size should be a whole number.');
    expect(first(body, { ...ok, kind: 'secret' })).toBe('The kind should be one of “public”, “private”.');
    expect(first(body, { ...ok, homePage: 'not a url' })).toBe('The home page is not a valid web address.');
    expect(first(body, { ...ok, role: 'admin' })).toBe('This request does not take “role”.');
    expect(first(body, 'text')).toBe('This request should be an object.');
  });

  it('never answers with zod wording', () => {
    const body = z.object({
      name: z.string().max(3),
      n: z.number().max(2),
      list: z.array(z.number()).min(2),
    });
    for (const value of [{ name: 'long' }, { name: 'a', n: 9 }, { name: 'a', n: 1, list: [1] }, null, []]) {
      expect(first(body, value)).not.toMatch(/Too big|Too small|Invalid|expected|received|<=|>=/);
    }
  });

  it('checks one field as it is typed, with the sentence the server would send', () => {
    expect(channelNameProblem('')).toBeNull();
    expect(channelNameProblem('design review')).toBeNull();
    expect(channelNameProblem('design/review')).toBe('Use letters, numbers, spaces, - and _');
    expect(channelNameProblem('x'.repeat(81))).toBe('A channel name has at most 80 characters');
    expect(fieldProblem(channelName, '   ')).toBe('Name cannot be empty');
  });
});
