// The person's own membership rows carry settings only they change (muted, blocked, on profile). Lists
// from the server (joined channels, a channel's members) also carry them, as of when the list was asked
// for; an answer can land after the person changed one. A row written since the list left keeps its
// settings. The check and the writes run in the channelMembers collection's list order (list-writes.ts),
// so a setting stored while a list is being written is not overwritten by it (another context's list can
// still meet it between its read and its write; the refresh the server asks for after every such change
// brings it back).
import type { RxCollection } from 'rxdb';
import type { ChannelMemberDoc } from '../../schemas/collections.ts';
import type { ChannelMember } from '../../schemas/protocol/index.ts';

const OWN_SETTINGS = ['muted', 'blocked', 'showOnProfile'] as const;

/**
 * The listed memberships, each with the own settings of the stored row when that row was written at or
 * after `fetchedAt` (when the list was asked for). Call inside inListOrder(channelMembers, …), with the writes.
 */
export async function withNewerOwnSettings(
  channelMembers: RxCollection<ChannelMemberDoc>,
  listed: readonly ChannelMember[],
  fetchedAt: number,
): Promise<ChannelMember[]> {
  if (!Number.isFinite(fetchedAt) || listed.length === 0) return [...listed];
  const stored = await channelMembers.storageInstance.findDocumentsById(
    listed.map((m) => m.id),
    false,
  );
  const newer = new Map(stored.filter((d) => d._meta.lwt >= fetchedAt).map((d) => [d.id, d]));
  return listed.map((m) => {
    const kept = newer.get(m.id);
    if (!kept) return m;
    const merged: ChannelMember = { ...m };
    for (const key of OWN_SETTINGS) {
      if (kept[key] === undefined) delete merged[key];
      else merged[key] = kept[key];
    }
    return merged;
  });
}
