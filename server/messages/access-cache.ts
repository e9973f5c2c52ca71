// Who may post where, remembered between posts on this node (issue 11, decision 0056). A lone post used to
// read its membership, channel and roles afresh: the largest statement of its transaction. Now a batch whose
// posters are all remembered reads nothing, and learns in the statement that takes its sequence numbers
// (channels.access_version, raised by the database's own triggers on every write that can change access)
// whether what it remembered was still current. If not, the batch rolls back and runs again on a fresh read.
// Only grants are remembered: a refusal is always read afresh, so a lifted refusal applies at once.
import type { RoleFlags } from '../../schemas/permissions.ts';
import type { MemberRow } from '../access.ts';
import type { ChannelMemberRow, ChannelRoleRow, ChannelRow } from '../channels/wire.ts';
import type { Db } from '../db/client.ts';

/** A post's membership as the batch's access read found it, with what its permissions are made of. */
export interface RememberedAccess {
  member: MemberRow;
  channel: ChannelRow;
  channelMember: ChannelMemberRow;
  defaultRole: ChannelRoleRow | null;
  heldRoles: RoleFlags[];
}

/** Enough for every active poster on a busy node; the oldest are forgotten first. */
const MAX_ENTRIES = 20_000;

export interface AccessCache {
  get(key: string): RememberedAccess | undefined;
  /** The other members who blocked someone in this direct message, as read with `version`. */
  blockers(channelId: string, version: number): string[] | undefined;
  remember(key: string, access: RememberedAccess): void;
  rememberBlockers(channelId: string, version: number, memberIds: string[]): void;
  /** Drops what was remembered of these channels: their access changed since it was read. */
  forget(channelIds: Iterable<string>): void;
}

export const accessKey = (r: { institutionId: string; channelId: string; userId: string }) =>
  `${r.institutionId}/${r.channelId}/${r.userId}`;

function createAccessCache(): AccessCache {
  // A Map keeps insertion order: re-inserting on use makes its first key the least recently used.
  const entries = new Map<string, RememberedAccess>();
  const blockersOf = new Map<string, { version: number; memberIds: string[] }>();
  const keysOf = new Map<string, Set<string>>();

  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    keysOf.get(entry.channel.id)?.delete(key);
  };

  return {
    get(key) {
      const entry = entries.get(key);
      if (entry) {
        entries.delete(key);
        entries.set(key, entry);
      }
      return entry;
    },
    blockers(channelId, version) {
      const b = blockersOf.get(channelId);
      return b && b.version === version ? b.memberIds : undefined;
    },
    remember(key, access) {
      drop(key);
      entries.set(key, access);
      const keys = keysOf.get(access.channel.id) ?? new Set<string>();
      keysOf.set(access.channel.id, keys);
      keys.add(key);
      while (entries.size > MAX_ENTRIES) drop(entries.keys().next().value as string);
    },
    rememberBlockers(channelId, version, memberIds) {
      blockersOf.set(channelId, { version, memberIds });
      if (blockersOf.size > MAX_ENTRIES) blockersOf.delete(blockersOf.keys().next().value as string);
    },
    forget(channelIds) {
      for (const id of channelIds) {
        for (const key of keysOf.get(id) ?? []) entries.delete(key);
        keysOf.delete(id);
        blockersOf.delete(id);
      }
    },
  };
}

const perDatabase = new WeakMap<Db, AccessCache>();

/** One cache per database handle: each server in a process (tests run several) has its own. */
export function accessCacheFor(db: Db): AccessCache {
  let cache = perDatabase.get(db);
  if (!cache) {
    cache = createAccessCache();
    perDatabase.set(db, cache);
  }
  return cache;
}
