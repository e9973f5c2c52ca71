// What the composer offers after '@' (spec §5): only to someone who may tag, only non-default roles,
// members, agents, groups, @everyone and @here, best matches first and people in the channel first.
import { describe, expect, it } from 'vitest';
import {
  type MentionSuggestionInput,
  mentionSuggestions,
  type SuggestionMember,
  toMention,
} from '../../schemas/mention-suggestions.ts';

const person = (id: string, name: string, extra: Partial<SuggestionMember> = {}): SuggestionMember => ({
  id,
  name,
  profileImage: null,
  isOnline: false,
  isInChannel: true,
  ...extra,
});

function world(overrides: Partial<MentionSuggestionInput> = {}): MentionSuggestionInput {
  return {
    query: '',
    permissions: { canTag: true },
    members: [
      person('m-ann', 'Ann Lee', { isOnline: true }),
      person('m-bob', 'Bob Annand', { isInChannel: false }),
      person('m-me', 'Anna Me'),
    ],
    roles: [
      { id: 'r-default', name: 'member', isDefault: true },
      { id: 'r-design', name: 'designers', isDefault: false },
    ],
    agents: [{ id: 'a-helper', name: 'Annotator', profileImage: 'bot.png' }],
    groups: [{ id: 'g-ops', name: 'ops team' }],
    selfMemberId: 'm-me',
    ...overrides,
  };
}

const ids = (input: MentionSuggestionInput) => mentionSuggestions(input).map((s) => s.id);

describe('mention suggestions', () => {
  it('offer nothing at all to someone who may not tag', () => {
    expect(mentionSuggestions(world({ permissions: { canTag: false } }))).toEqual([]);
    expect(mentionSuggestions(world({ permissions: { canTag: false }, query: 'ann' }))).toEqual([]);
  });

  it('offer every kind with an empty query, but never the default role or the person typing', () => {
    const all = ids(world());
    expect(all).toEqual(
      expect.arrayContaining(['@everyone', '@here', 'm-ann', 'm-bob', 'a-helper', 'r-design', 'g-ops']),
    );
    expect(all).not.toContain('r-default');
    expect(all).not.toContain('m-me');
    expect(all.slice(0, 2)).toEqual(['@everyone', '@here']);
  });

  it('put prefix matches before word and substring matches, and people in the channel first', () => {
    // 'ann': Ann Lee (prefix, in channel), Annotator (prefix, agent), Bob Annand (later word, not in channel).
    expect(ids(world({ query: 'ann' }))).toEqual(['m-ann', 'a-helper', 'm-bob']);
    expect(ids(world({ query: '@Ann' }))).toEqual(['m-ann', 'a-helper', 'm-bob']);
  });

  it('carry what the list shows: type, name, picture, presence and channel membership', () => {
    const [agent] = mentionSuggestions(world({ query: 'annot' }));
    expect(agent).toEqual({
      id: 'a-helper',
      type: 'agent',
      name: 'Annotator',
      profileImage: 'bot.png',
      isOnline: true,
      isInChannel: true,
    });
    const [bob] = mentionSuggestions(world({ query: 'bob' }));
    expect(bob).toMatchObject({ type: 'member', isInChannel: false, isOnline: false });
  });

  it('match without regard to case or accents, and find roles, groups and the special mentions', () => {
    expect(ids(world({ query: 'DÉSIGN' }))).toEqual(['r-design']);
    expect(ids(world({ query: 'team' }))).toEqual(['g-ops']);
    expect(ids(world({ query: 'he' }))).toEqual(['@here']);
    expect(ids(world({ query: 'nobody' }))).toEqual([]);
  });

  it('list online people before offline ones among equal matches, and respect the limit', () => {
    const members = [person('m-1', 'Zed Offline'), person('m-2', 'Zed Online', { isOnline: true })];
    expect(ids(world({ members, query: 'zed' }))).toEqual(['m-2', 'm-1']);
    expect(ids(world({ limit: 3 }))).toHaveLength(3);
  });

  it('turn a chosen suggestion into the mention a message carries', () => {
    expect(toMention({ id: '@everyone', type: 'everyone' })).toEqual({ type: 'everyone', id: 'everyone' });
    expect(toMention({ id: '@here', type: 'here' })).toEqual({ type: 'here', id: 'here' });
    expect(toMention({ id: 'r-design', type: 'role' })).toEqual({ type: 'role', id: 'r-design' });
  });
});
