// Spec §5's tagging rule as one pure function beside the permission module: what the composer offers
// after '@' — members, non-default channel roles, agents, groups, @everyone and @here — and nothing at
// all for someone who may not tag. Best matches first; among equals, people in the channel first.
import type { ChannelPermissions } from './permissions.ts';
import type { ChannelRole, Mention } from './protocol/index.ts';

export type MentionSuggestionType = 'agent' | 'role' | 'member' | 'group' | 'everyone' | 'here';

export interface MentionSuggestion {
  id: string;
  type: MentionSuggestionType;
  name: string;
  profileImage: string | null;
  isOnline: boolean;
  isInChannel: boolean;
}

export const EVERYONE_ID = '@everyone';
export const HERE_ID = '@here';

export interface SuggestionMember {
  id: string;
  name: string;
  profileImage: string | null;
  isOnline: boolean;
  isInChannel: boolean;
}

export interface MentionSuggestionInput {
  /** What the person typed after '@'. */
  query: string;
  permissions: Pick<ChannelPermissions, 'canTag'>;
  members: readonly SuggestionMember[];
  roles: readonly Pick<ChannelRole, 'id' | 'name' | 'isDefault'>[];
  agents: readonly { id: string; name: string; profileImage: string | null }[];
  groups: readonly { id: string; name: string }[];
  /** The person typing: never offered to themselves. */
  selfMemberId?: string;
  /** At most this many suggestions (20 unless given). */
  limit?: number;
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

/** 0 exact, 1 prefix, 2 a later word starts with it, 3 contains it; null when it does not match. */
function matchRank(name: string, query: string): number | null {
  const n = fold(name);
  if (query === '') return 1;
  if (n === query) return 0;
  if (n.startsWith(query)) return 1;
  if (n.split(/[\s_\-.]+/).some((word) => word.startsWith(query))) return 2;
  return n.includes(query) ? 3 : null;
}

/** Among equally good matches: the special mentions, people in the channel, agents, roles, groups, others. */
function categoryOrder(s: MentionSuggestion): number {
  if (s.type === 'everyone' || s.type === 'here') return 0;
  if (s.type === 'member') return s.isInChannel ? 1 : 5;
  return { agent: 2, role: 3, group: 4 }[s.type];
}

export function mentionSuggestions(input: MentionSuggestionInput): MentionSuggestion[] {
  if (!input.permissions.canTag) return [];
  const query = fold(input.query.replace(/^@/, ''));
  const candidates: MentionSuggestion[] = [
    {
      id: EVERYONE_ID,
      type: 'everyone',
      name: 'everyone',
      profileImage: null,
      isOnline: false,
      isInChannel: true,
    },
    { id: HERE_ID, type: 'here', name: 'here', profileImage: null, isOnline: false, isInChannel: true },
    ...input.members
      .filter((m) => m.id !== input.selfMemberId)
      .map((m) => ({ ...m, type: 'member' as const })),
    ...input.agents.map((a) => ({ ...a, type: 'agent' as const, isOnline: true, isInChannel: true })),
    ...input.roles
      .filter((r) => !r.isDefault)
      .map((r) => ({
        id: r.id,
        type: 'role' as const,
        name: r.name,
        profileImage: null,
        isOnline: false,
        isInChannel: true,
      })),
    ...input.groups.map((g) => ({
      id: g.id,
      type: 'group' as const,
      name: g.name,
      profileImage: null,
      isOnline: false,
      isInChannel: true,
    })),
  ];
  const ranked = candidates
    .map((s) => ({ s, rank: matchRank(s.name, query) }))
    .filter((r): r is { s: MentionSuggestion; rank: number } => r.rank !== null);
  ranked.sort(
    (a, b) =>
      a.rank - b.rank ||
      categoryOrder(a.s) - categoryOrder(b.s) ||
      Number(b.s.isOnline) - Number(a.s.isOnline) ||
      a.s.name.localeCompare(b.s.name),
  );
  return ranked.slice(0, input.limit ?? 20).map((r) => r.s);
}

/** The mention a chosen suggestion puts into the message. */
export function toMention(s: Pick<MentionSuggestion, 'id' | 'type'>): Mention {
  if (s.type === 'everyone') return { type: 'everyone', id: 'everyone' };
  if (s.type === 'here') return { type: 'here', id: 'here' };
  return { type: s.type, id: s.id };
}
