// Socket events about people and workspaces (issue 3), applied to the store one at a time in arrival
// order: memberAction (join requests made or answered), userOnlineStatusUpdate(s) (directory dots) and
// refresh {value} (reload a list the server says changed).
import type { z } from 'zod';
import type {
  MemberActionEvent,
  refreshEvent,
  userOnlineStatusEvent,
  userOnlineStatusUpdates,
} from '../schemas/protocol/index.ts';
import {
  applyRequestStatus,
  fetchChannelMembers,
  fetchChannelRequests,
  fetchGroups,
  fetchInstitutions,
  fetchMembers,
  fetchMyRequests,
  fetchSections,
  planMemberAction,
  setUserOnline,
  type WorkspaceStore,
} from '../src/store/workspaces.ts';

export interface WorkspaceEventDeps {
  store(): WorkspaceStore;
  /** Reload joined channels (every workspace), join their rooms and catch up. */
  refreshJoined(): Promise<void>;
  /** The channels some tab shows now: only their member lists are worth reloading when they change. */
  openChannels(): { institutionId: string; channelId: string }[];
  log?: (message: string, error?: unknown) => void;
}

export class WorkspaceEvents {
  private queue: Promise<void> = Promise.resolve();
  private readonly deps: WorkspaceEventDeps;

  constructor(deps: WorkspaceEventDeps) {
    this.deps = deps;
  }

  memberAction(event: MemberActionEvent): Promise<void> {
    return this.enqueue('memberAction', (store) => this.applyMemberAction(store, event));
  }

  onlineStatus(event: z.infer<typeof userOnlineStatusEvent>): Promise<void> {
    return this.onlineStatuses({ updates: [event] });
  }

  onlineStatuses(event: z.infer<typeof userOnlineStatusUpdates>): Promise<void> {
    return this.enqueue('userOnlineStatusUpdates', async (store) => {
      for (const update of event.updates)
        await setUserOnline(store.db, update.user.id, update.status === 'online');
    });
  }

  refresh({ value, channelId }: z.infer<typeof refreshEvent>): Promise<void> {
    return this.enqueue(`refresh ${value}`, async (store) => {
      if (value === 'joinedChannels') return this.deps.refreshJoined();
      if (value === 'institutions') {
        await fetchInstitutions(store);
        return;
      }
      if (value === 'channelMembers') return this.refreshOpenChannelMembers(store, channelId);
      const fetchOne = { members: fetchMembers, sections: fetchSections, groups: fetchGroups }[value];
      const institutions = await store.db.institutions.find().exec();
      await Promise.all(institutions.map((i) => fetchOne(store, i.id)));
      // Someone joined or left the workspace: that changes who is in its default channels too.
      if (value === 'members') await this.refreshOpenChannelMembers(store);
    });
  }

  /** Reloads the member lists of the open channels (only `channelId`'s, when given). */
  private async refreshOpenChannelMembers(store: WorkspaceStore, channelId?: string): Promise<void> {
    const open = this.deps.openChannels().filter((c) => channelId === undefined || c.channelId === channelId);
    await Promise.all(open.map((c) => fetchChannelMembers(store, c.institutionId, c.channelId)));
  }

  /** Resolves once everything received so far is applied. */
  idle(): Promise<void> {
    return this.queue;
  }

  private enqueue(what: string, run: (store: WorkspaceStore) => Promise<unknown>): Promise<void> {
    this.queue = this.queue
      .then(async () => {
        await run(this.deps.store());
      })
      .catch((error) => this.deps.log?.(`Could not apply ${what}`, error));
    return this.queue;
  }

  private async applyMemberAction(store: WorkspaceStore, event: MemberActionEvent): Promise<void> {
    const plan = await planMemberAction(store.db, event);
    if (!plan) return;
    if (plan.mine) {
      // The event's status shows at once; the list then comes from the server (a request made on another
      // device). An approval is the exception: only the server's copy carries the channel's name (a requester
      // may see it once a member), so the outcome waits for that copy rather than showing "this channel".
      if (event.status === 'approved')
        await fetchMyRequests(store, plan.institutionId).catch(() => applyRequestStatus(store.db, event));
      else {
        await applyRequestStatus(store.db, event);
        await fetchMyRequests(store, plan.institutionId);
      }
    }
    if (plan.refreshRequests) await fetchChannelRequests(store, plan.institutionId, event.channelId);
    if (plan.refreshMembers) await fetchChannelMembers(store, plan.institutionId, event.channelId);
    if (plan.refreshJoined) await this.deps.refreshJoined();
  }
}
