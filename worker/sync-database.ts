// The part of the store the sync engine touches. The rest is optional so Node tests can run several
// engines in one realm under the open-source RxDB collection limit (decision 0003).
import type { RxDatabase } from 'rxdb';
import type { LanternCollections } from '../src/store/database.ts';

type Required_ = Pick<LanternCollections, 'messages' | 'outbox' | 'syncState' | 'channels'>;
type Optional_ = Partial<Pick<LanternCollections, 'channelMembers' | 'institutions' | 'session'>>;
export type SyncCollections = Required_ & Optional_;
export type SyncDatabase = RxDatabase<Required_> & Optional_;
