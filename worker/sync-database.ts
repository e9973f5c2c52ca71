// The part of the store the sync engine touches: only collections, so both a full LanternDatabase and
// a database opened with the sync subset fit. The subset lets Node tests run several engines in one
// realm under the open-source RxDB collection limit (docs/decisions/0003-rxdb-collection-limit.md).
import type { LanternCollections } from '../src/store/database.ts';

export type SyncDatabase = Pick<LanternCollections, 'messages' | 'outbox' | 'syncState' | 'channels'> &
  Partial<
    Pick<
      LanternCollections,
      'channelMembers' | 'institutions' | 'session' | 'members' | 'invitations' | 'records'
    >
  >;
