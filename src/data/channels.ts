// Channels: the joined list and the browsable one, a channel's settings, creating, joining, leaving and
// opening one, direct messages (start, block), and the caller's own per-channel settings (mute, profile).

import { useEffect, useState } from 'react';
import type { ChannelDoc, ChannelFields, ChannelMemberDoc } from '../../schemas/collections.ts';
import type { Channel, ChannelLookup, ChannelMember } from '../../schemas/protocol/index.ts';
import type { OpenedChannel } from '../../worker/api.ts';
import { ApiError } from '../store/api-error.ts';
import { changedOnly } from '../store/changed-rows.ts';
import type { ChannelAccess } from '../store/channel-access.ts';
import { upsertMembership } from '../store/channels.ts';
import { latestOf } from '../store/sections.ts';
import { storeOwnMembership } from '../store/workspaces.ts';
import { refreshChannelMembers } from './channel-members.ts';
import { getReadyClient, requireClient, requireConnection, type StoreClient } from './client.ts';
import { useRefreshOnMount } from './live-query.ts';
import { sameFields, useStoreRead, useStoreReadPart } from './store-reads.ts';

/** Joined channels of a workspace and this user's membership rows. */
export function useChannels(
  institutionId: string,
): { channels: ChannelDoc[]; channelMembers: ChannelMemberDoc[] } | undefined {
  return useStoreRead('joinedChannels', { institutionId });
}

/** What the sidebar shows of the joined list: unread counts, the direct messages, whether there are channels. */
export interface JoinedSummary {
  /** The caller's unread count per channel. */
  unread: ReadonlyMap<string, number>;
  /** Direct messages, each with when its latest message was sent (or it was opened: decision 0083). */
  directs: readonly { channel: ChannelFields; latest: string }[];
  /** Any joined channel that is not a direct message. */
  hasChannels: boolean;
}

export function joinedSummary(
  joined: { channels: ChannelDoc[]; channelMembers: ChannelMemberDoc[] } | undefined,
  meId: string,
): JoinedSummary | undefined {
  if (!joined) return undefined;
  return {
    unread: new Map(
      joined.channelMembers.filter((m) => m.memberId === meId).map((m) => [m.channelId, m.unreadCount]),
    ),
    directs: joined.channels
      .filter((channel) => channel.type === 'direct_message')
      .map(({ lastSeq: _seq, lastSentMessage, ...channel }) => ({
        channel,
        latest: latestOf({ lastSentMessage, createdAt: channel.createdAt }),
      })),
    hasChannels: joined.channels.some((c) => c.type !== 'direct_message'),
  };
}

export function sameJoinedSummary(a: JoinedSummary | undefined, b: JoinedSummary | undefined): boolean {
  if (!a || !b) return a === b;
  return (
    a.hasChannels === b.hasChannels &&
    a.unread.size === b.unread.size &&
    [...a.unread].every(([id, count]) => b.unread.get(id) === count) &&
    a.directs.length === b.directs.length &&
    a.directs.every(
      (d, i) => d.latest === b.directs[i]?.latest && sameFields(d.channel, b.directs[i]?.channel),
    )
  );
}

/**
 * The joined list as the sidebar shows it. A message in an open channel moves that channel's lastSeq (and
 * its members' counts only when they change): the summary stays the same object, and the sidebar with its
 * menus, links and sections does not redraw.
 */
export function useJoinedSummary(institutionId: string, meId: string): JoinedSummary | undefined {
  return useStoreReadPart(
    'joinedChannels',
    { institutionId },
    (joined) => joinedSummary(joined, meId),
    sameJoinedSummary,
  );
}

/** Channels the user may browse; fetched from the server into the store when the hook mounts. */
export function useBrowsableChannels(institutionId: string): ChannelDoc[] | undefined {
  const [ids, setIds] = useState<{ institutionId: string; ids: string[] } | undefined>(undefined);
  useEffect(() => {
    let live = true;
    fetchBrowsableChannels(institutionId)
      .then((list) => live && setIds({ institutionId, ids: list }))
      .catch(() => live && setIds({ institutionId, ids: [] }));
    return () => {
      live = false;
    };
  }, [institutionId]);
  const all = useStoreRead('workspaceChannels', { institutionId });
  if (!all || !ids || ids.institutionId !== institutionId) return undefined;
  const wanted = new Set(ids.ids);
  return all.filter((ch) => wanted.has(ch.id));
}

export function useChannel(channelId: string): ChannelDoc | null | undefined {
  return useStoreRead('channel', { channelId });
}

/**
 * A channel as its screen shows it: every field but the two each new message moves (`lastSeq`,
 * `lastSentMessage`), with `neverUsed` for whether a message was ever sent. A message arriving in the
 * open channel then re-renders its row, not the header, the composer and every control around them.
 */
export type ShownChannel = ChannelFields & { neverUsed: boolean };

function shown(channel: ChannelDoc | null | undefined): ShownChannel | null | undefined {
  if (!channel) return channel;
  const { lastSeq: _seq, lastSentMessage, ...rest } = channel;
  return { ...rest, neverUsed: lastSentMessage === null };
}

export function useShownChannel(channelId: string): ShownChannel | null | undefined {
  return useStoreReadPart('channel', { channelId }, shown, sameFields);
}

/** The caller's membership of a channel (null: not a member). */
export function useMyChannelMembership(channelId: string): ChannelMemberDoc | null | undefined {
  return useStoreRead('myChannelMembership', { channelId });
}

/**
 * What the caller may do in a channel, evaluated on the device from the stored channel, membership and
 * roles (spec §6; works offline). `cannotPostReason` is the sentence to show when canPost is false.
 */
export function useChannelPermissions(channelId: string): ChannelAccess | undefined {
  // Only whether it is a direct message, and whose: the channel's other fields move with every message.
  const directIn = useStoreReadPart('channel', { channelId }, (channel) =>
    channel?.type === 'direct_message' ? channel.institutionId : null,
  );
  // A direct message also needs the other person's membership (did they block me?); fetched on open.
  useRefreshOnMount(directIn ? channelId : null, async () => {
    if (directIn) await refreshChannelMembers(directIn, channelId);
  });
  return useStoreRead('channelAccess', { channelId });
}

/** The joined channels from the server, by the worker, which then joins their rooms and catches them up. */
export async function refreshJoinedChannels(institutionId: string): Promise<void> {
  await (await requireConnection()).worker.refreshStore({ kind: 'joinedChannels', institutionId });
}

/** Browsable channels into the store; returns their ids (used by useBrowsableChannels). */
async function fetchBrowsableChannels(institutionId: string): Promise<string[]> {
  const { http, db } = await requireClient();
  const list = (await http.call('channels', { params: { id: institutionId } })).data;
  const changed = await changedOnly(db.channels, list);
  if (changed.length) await db.channels.bulkUpsert(changed);
  return list.map((c) => c.id);
}

/** A channel the caller now belongs to, with their membership, into the store. */
async function storeChannelResponse(res: {
  channel: Channel;
  channelMember: ChannelMember;
}): Promise<ChannelDoc> {
  const { db, worker } = await requireClient();
  await upsertMembership(db, res.channel, res.channelMember);
  await worker.channelsChanged();
  return res.channel;
}

export async function createChannel(
  institutionId: string,
  input: { name: string; type: 'public' | 'private' },
): Promise<ChannelDoc> {
  const { http } = await requireConnection();
  const channel = await storeChannelResponse(
    await http.call('createChannel', { params: { id: institutionId }, body: input }),
  );
  await refreshJoinedChannels(institutionId);
  return channel;
}

export async function joinChannel(institutionId: string, channelId: string): Promise<void> {
  const { http } = await requireConnection();
  await storeChannelResponse(await http.call('joinChannel', { params: { id: institutionId, channelId } }));
  await refreshJoinedChannels(institutionId);
}

/** "Mark as read": the channel's unread count goes to zero on this device and, once online, everywhere. */
export async function markChannelRead(institutionId: string, channelId: string): Promise<void> {
  const { worker } = await requireConnection();
  await worker.markChannelRead({ institutionId, channelId });
}

export async function leaveChannel(institutionId: string, channelId: string): Promise<void> {
  const { http, db, worker } = await requireClient();
  await http.call('leaveChannel', { params: { id: institutionId, channelId } });
  await db.channelMembers.find({ selector: { channelId } }).remove();
  await db.syncState.findOne(channelId).remove();
  await worker.channelsChanged();
}

export async function startDirectMessage(institutionId: string, memberId: string): Promise<ChannelDoc> {
  const { http } = await requireConnection();
  const channel = await storeChannelResponse(
    await http.call('openDirectMessage', {
      params: { id: institutionId },
      body: { directMessageMemberId: memberId },
    }),
  );
  await refreshJoinedChannels(institutionId);
  return channel;
}

/** The channel this tab shows, if any: its unread count stays zero when the joined list is fetched again. */
let openHere: string | null = null;

/**
 * Shows a channel in this tab: resets its unread count here and on the server, and catches it up.
 * Resolves with how many messages were unread before (where the "New messages" line goes).
 */
export async function openChannel(institutionId: string, channelId: string): Promise<OpenedChannel> {
  openHere = channelId;
  // The worker zeroes the stored count (and the server's) as it marks the channel open.
  const { worker, tabId } = await requireConnection();
  return worker.setOpenChannel(tabId, { institutionId, channelId });
}

// A tab that goes away (a reload, a full navigation) stops showing its channel now, rather than when the
// worker sees its lock released: a live message in that moment would count as seen and be marked read.
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', (event) => {
    const client = getReadyClient();
    if (event.persisted || !openHere || !client) return;
    void client.worker.setOpenChannel(client.tabId, null).catch(() => {});
  });
}

export async function closeChannel(): Promise<void> {
  openHere = null;
  const { worker, tabId } = await requireConnection();
  await worker.setOpenChannel(tabId, null);
}

export async function renameChannel(
  institutionId: string,
  channelId: string,
  name: string,
): Promise<ChannelDoc> {
  const { http, db } = await requireClient();
  const { channel } = await http.call('renameChannel', {
    params: { id: institutionId, channelId },
    body: { name },
  });
  await db.channels.upsert(channel);
  return channel;
}

/** Sets what the channel is for (issue 15 item 2); an empty text removes it. */
export async function describeChannel(
  institutionId: string,
  channelId: string,
  description: string,
): Promise<ChannelDoc> {
  const { http, db } = await requireClient();
  const { channel } = await http.call('renameChannel', {
    params: { id: institutionId, channelId },
    body: { description: description.trim() || null },
  });
  await db.channels.upsert(channel);
  return channel;
}

/** Deletes the channel for everyone; the store forgets it and its messages. */
export async function deleteChannel(institutionId: string, channelId: string): Promise<void> {
  const { http, db, worker } = await requireClient();
  await http.call('deleteChannel', { params: { id: institutionId, channelId } });
  await forgetChannel(db, channelId);
  await worker.channelsChanged();
}

async function forgetChannel(db: StoreClient['db'], channelId: string): Promise<void> {
  await db.channelMembers.find({ selector: { channelId } }).remove();
  await db.syncState.findOne(channelId).remove();
  await db.messages.find({ selector: { channelId } }).remove();
  await db.drafts.findOne(channelId).remove();
  await db.records.find({ selector: { scope: channelId } }).remove();
  await db.channels.findOne(channelId).remove();
}

/** Stores the caller's membership from a response (keeping the local unread count). */
async function storeMembershipFrom(res: { channelMember: ChannelMember }): Promise<void> {
  const { db } = await requireClient();
  await storeOwnMembership(db, res.channelMember);
}

/** The caller's own setting for a channel: muted or not. */
export async function setChannelMuted(
  institutionId: string,
  channelId: string,
  muted: boolean,
): Promise<void> {
  const { http } = await requireConnection();
  await storeMembershipFrom(
    await http.call('updateMembership', { params: { id: institutionId, channelId }, body: { muted } }),
  );
}

/** Direct messages: the other person can no longer post to the caller (and the caller's composer says so). */
export async function blockDirectMessage(institutionId: string, channelId: string): Promise<void> {
  await setBlocked(institutionId, channelId, true);
}

export async function unblockDirectMessage(institutionId: string, channelId: string): Promise<void> {
  await setBlocked(institutionId, channelId, false);
}

async function setBlocked(institutionId: string, channelId: string, blocked: boolean): Promise<void> {
  const { http, db } = await requireClient();
  const res = await http.call(blocked ? 'block' : 'unblock', { params: { id: institutionId, channelId } });
  await storeMembershipFrom(res);
  // Whatever the response carried, the caller's row now says what the server holds.
  const rows = await db.channelMembers.find({ selector: { channelId } }).exec();
  for (const row of rows) if (row.blocked !== blocked) await row.incrementalPatch({ blocked });
}

/** Which channels show on the caller's profile (replaces the previous choice). */
export async function setProfileChannels(institutionId: string, channelIds: string[]): Promise<void> {
  const { http, db } = await requireClient();
  await http.call('profileChannels', { params: { id: institutionId }, body: { channels: channelIds } });
  const chosen = new Set(channelIds);
  const rows = await db.channelMembers.find().exec();
  for (const row of rows) {
    const channel = await db.channels.findOne(row.channelId).exec();
    if (channel?.institutionId !== institutionId) continue;
    if ((row.showOnProfile ?? false) !== chosen.has(row.channelId))
      await row.incrementalPatch({ showOnProfile: chosen.has(row.channelId) });
  }
}

/**
 * What a link to a channel that is not on this device points at, asked once per address: the answer, or
 * 'not-found', or 'unknown' when the server cannot be asked (offline) or failed.
 */
export type ChannelLookupState = ChannelLookup | 'not-found' | 'unknown' | undefined;

export function useChannelLookup(institutionId: string, channelId: string): ChannelLookupState {
  const [state, setState] = useState<{ key: string; value: ChannelLookupState }>();
  const key = `${institutionId}/${channelId}`;
  useEffect(() => {
    let live = true;
    void (async () => {
      let value: ChannelLookupState;
      try {
        const { http } = await requireConnection();
        value = await http.call('channelLookup', { params: { id: institutionId, channelId } });
      } catch (error) {
        // A 400 is an address that is no channel id at all: not found either.
        value =
          error instanceof ApiError && (error.status === 404 || error.status === 400)
            ? 'not-found'
            : 'unknown';
      }
      if (live) setState({ key, value });
    })();
    return () => {
      live = false;
    };
  }, [institutionId, channelId, key]);
  return state?.key === key ? state.value : undefined;
}
