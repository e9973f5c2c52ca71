// What to offer after '@' in a channel's composer (spec §5), computed from the store.
import type { MentionSuggestion } from '../../schemas/mention-suggestions.ts';
import { refreshChannelMembers } from './channel-members.ts';
import { refreshGroups } from './groups.ts';
import { useRefreshOnMount } from './live-query.ts';
import { useStoreRead } from './store-reads.ts';

/**
 * What to offer after '@' in a channel's composer (spec §5; nothing when the caller may not tag).
 * The channel's members and the workspace's groups are refreshed when the hook mounts; the list itself
 * is computed from the store, so it also works offline.
 */
export function useMentionSuggestions(
  institutionId: string,
  channelId: string,
  query: string,
): MentionSuggestion[] | undefined {
  useRefreshOnMount(`${institutionId}/${channelId}`, () =>
    Promise.all([refreshChannelMembers(institutionId, channelId), refreshGroups(institutionId)]),
  );
  return useStoreRead('mentionSuggestions', { institutionId, channelId, query });
}
