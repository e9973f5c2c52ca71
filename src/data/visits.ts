// Visits to a member, channel or group (metrics): sent over the worker's socket when connected and
// dropped when offline, never queued.
import { requireConnection } from './client.ts';

/** Recorded over the socket when connected; dropped when offline (never queued). */
export function visitMember(institutionId: string, memberId: string): void {
  void requireConnection().then(({ worker }) => worker.visit({ kind: 'member', institutionId, memberId }));
}

export function visitChannel(institutionId: string, channelId: string): void {
  void requireConnection().then(({ worker }) => worker.visit({ kind: 'channel', institutionId, channelId }));
}

export function visitGroup(institutionId: string, groupId: string): void {
  void requireConnection().then(({ worker }) => worker.visit({ kind: 'group', institutionId, groupId }));
}
