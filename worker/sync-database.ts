// The store the sync engine works on: every collection, as in the browser. Tests that run several
// engines in one process give each its own thread (tests/sync/fuzz-client.ts), so no engine is ever
// handed part of a store.
import type { LanternCollections } from '../src/store/database.ts';

export type SyncDatabase = LanternCollections;
