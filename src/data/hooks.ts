// React hooks over the store's reactive queries: the only way screens read data (decision 0001).
// Every hook returns `undefined` until its first result.
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { Observable } from 'rxjs';
import { combineLatest, map } from 'rxjs';
import {
  type ChannelDoc,
  type ChannelMemberDoc,
  type DraftDoc,
  type MemberDoc,
  type MessageDoc,
  SETTINGS_DEFAULTS,
  type SettingsDoc,
} from '../../schemas/collections.ts';
import type { InstitutionWithMember, InvitationWithInstitution, User } from '../../schemas/protocol.ts';
import type { ConnectionStatus } from '../../worker/api.ts';
import { orderMessages } from '../store/message-order.ts';
import { fetchBrowsableChannels } from './actions.ts';
import { getReadyClient, type LanternClient, startClient, subscribeClientReady } from './client.ts';

function useLanternClient(): LanternClient | null {
  const client = useSyncExternalStore(subscribeClientReady, getReadyClient, () => null);
  useEffect(() => {
    if (!client) void startClient();
  }, [client]);
  return client;
}

/** Subscribes to `make(client)`; resets to undefined whenever a dependency changes. */
function useObservable<T>(
  make: (client: LanternClient) => Observable<T>,
  deps: readonly unknown[],
): T | undefined {
  const client = useLanternClient();
  const [state, setState] = useState<{ key: readonly unknown[]; value: T } | undefined>(undefined);
  // biome-ignore lint/correctness/useExhaustiveDependencies: deps are the caller's query inputs
  useEffect(() => {
    if (!client) return;
    const key = deps;
    const sub = make(client).subscribe((value) => setState({ key, value }));
    return () => sub.unsubscribe();
  }, [client, ...deps]);
  if (!state || state.key.length !== deps.length || state.key.some((k, i) => k !== deps[i])) return undefined;
  return state.value;
}

export function useSession(): { token: string; user: User } | null | undefined {
  return useObservable(
    (c) =>
      c.db.session
        .findOne('current')
        .$.pipe(map((doc) => (doc ? { token: doc.token, user: doc.user } : null))),
    [],
  );
}

export function useInstitutions(): InstitutionWithMember[] | undefined {
  return useObservable(
    (c) =>
      c.db.institutions
        .find({ sort: [{ id: 'asc' }] })
        .$.pipe(map((docs) => docs.map((d) => d.toJSON() as InstitutionWithMember))),
    [],
  );
}

export function useSelectedInstitutionId(): string | null | undefined {
  return useObservable(
    (c) => c.db.session.findOne('current').$.pipe(map((doc) => doc?.selectedInstitutionId ?? null)),
    [],
  );
}

/** Joined channels of a workspace and this user's membership rows. */
export function useChannels(
  institutionId: string,
): { channels: ChannelDoc[]; channelMembers: ChannelMemberDoc[] } | undefined {
  return useObservable(
    (c) =>
      combineLatest([
        c.db.channels.find({ selector: { institutionId } }).$,
        c.db.channelMembers.find().$,
      ]).pipe(
        map(([channels, members]) => {
          const memberships = members.map((m) => m.toJSON() as ChannelMemberDoc);
          const joined = new Set(memberships.map((m) => m.channelId));
          const list = channels.map((ch) => ch.toJSON() as ChannelDoc).filter((ch) => joined.has(ch.id));
          const ids = new Set(list.map((ch) => ch.id));
          return { channels: list, channelMembers: memberships.filter((m) => ids.has(m.channelId)) };
        }),
      ),
    [institutionId],
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
  const all = useObservable(
    (c) =>
      c.db.channels
        .find({ selector: { institutionId } })
        .$.pipe(map((docs) => docs.map((d) => d.toJSON() as ChannelDoc))),
    [institutionId],
  );
  if (!all || !ids || ids.institutionId !== institutionId) return undefined;
  const wanted = new Set(ids.ids);
  return all.filter((ch) => wanted.has(ch.id));
}

export function useChannel(channelId: string): ChannelDoc | null | undefined {
  return useObservable(
    (c) => c.db.channels.findOne(channelId).$.pipe(map((d) => (d ? (d.toJSON() as ChannelDoc) : null))),
    [channelId],
  );
}

/** Oldest first: confirmed by createdSeq, then pending/failed by createdAt; tombstones excluded. */
export function useMessages(channelId: string): MessageDoc[] | undefined {
  return useObservable(
    (c) =>
      c.db.messages
        .find({ selector: { channelId } })
        .$.pipe(map((docs) => orderMessages(docs.map((d) => d.toJSON() as MessageDoc)))),
    [channelId],
  );
}

export function useMembers(institutionId: string): MemberDoc[] | undefined {
  return useObservable(
    (c) =>
      c.db.members
        .find({ selector: { institutionId } })
        .$.pipe(
          map((docs) =>
            docs.map((d) => d.toJSON() as MemberDoc).sort((a, b) => a.name.localeCompare(b.name)),
          ),
        ),
    [institutionId],
  );
}

export function useDraft(channelId: string): DraftDoc | null | undefined {
  return useObservable(
    (c) => c.db.drafts.findOne(channelId).$.pipe(map((d) => (d ? (d.toJSON() as DraftDoc) : null))),
    [channelId],
  );
}

/** Drafts of a workspace, most recently changed first. */
export function useDrafts(institutionId: string): DraftDoc[] | undefined {
  return useObservable(
    (c) =>
      c.db.drafts
        .find({ selector: { institutionId }, sort: [{ lastUpdateAt: 'desc' }] })
        .$.pipe(map((docs) => docs.map((d) => d.toJSON() as DraftDoc))),
    [institutionId],
  );
}

/** Spec §3 settings; defaults until the stored row loads (never undefined). */
export function useSettings(): SettingsDoc {
  const stored = useObservable(
    (c) =>
      c.db.settings
        .findOne('settings')
        .$.pipe(map((d) => ({ ...SETTINGS_DEFAULTS, ...(d ? (d.toJSON() as Partial<SettingsDoc>) : {}) }))),
    [],
  );
  return stored ?? SETTINGS_DEFAULTS;
}

export function useConnection(): { status: ConnectionStatus; pendingCount: number; failedCount: number } {
  const client = useLanternClient();
  const [status, setStatus] = useState<ConnectionStatus>('offline');
  useEffect(() => {
    if (!client) return;
    let live = true;
    void import('comlink').then(({ proxy }) =>
      client.worker.subscribeConnection(
        proxy((s: ConnectionStatus) => {
          if (live) setStatus(s);
        }),
      ),
    );
    return () => {
      live = false;
    };
  }, [client]);
  const counts = useObservable(
    (c) =>
      c.db.messages.find({ selector: { status: { $in: ['pending', 'failed'] } } }).$.pipe(
        map((docs) => ({
          pendingCount: docs.filter((d) => d.status === 'pending').length,
          failedCount: docs.filter((d) => d.status === 'failed').length,
        })),
      ),
    [],
  );
  return { status, pendingCount: counts?.pendingCount ?? 0, failedCount: counts?.failedCount ?? 0 };
}

export function useInvitations(): InvitationWithInstitution[] | undefined {
  return useObservable(
    (c) =>
      c.db.invitations.find().$.pipe(map((docs) => docs.map((d) => d.toJSON() as InvitationWithInstitution))),
    [],
  );
}
