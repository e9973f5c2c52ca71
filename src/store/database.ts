// Opens the client store: RxDB on Dexie with every collection of schemas/collections.ts.
// The same code runs in tabs, in the worker and in Node tests (fake-indexeddb).

import {
  addRxPlugin,
  createRxDatabase,
  getPreviousVersions,
  getPrimaryKeyOfInternalDocument,
  INTERNAL_CONTEXT_COLLECTION,
  type RxCollection,
  type RxDatabase,
  type RxStorage,
} from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import {
  type ChannelDoc,
  type ChannelMemberDoc,
  type CollectionName,
  collectionMigrations,
  collectionSchemas,
  type DraftDoc,
  type InstitutionDoc,
  type InvitationDoc,
  type MemberDoc,
  type MessageDoc,
  type OutboxDoc,
  type RecordDoc,
  type SessionDoc,
  type SettingsDoc,
  type SyncStateDoc,
} from '../../schemas/collections.ts';
import { DEFAULT_DATABASE_NAME } from './database-name.ts';

export interface LanternCollections {
  messages: RxCollection<MessageDoc>;
  outbox: RxCollection<OutboxDoc>;
  drafts: RxCollection<DraftDoc>;
  channels: RxCollection<ChannelDoc>;
  channelMembers: RxCollection<ChannelMemberDoc>;
  members: RxCollection<MemberDoc>;
  institutions: RxCollection<InstitutionDoc>;
  invitations: RxCollection<InvitationDoc>;
  syncState: RxCollection<SyncStateDoc>;
  settings: RxCollection<SettingsDoc>;
  session: RxCollection<SessionDoc>;
  /** Roles, others' memberships, requests, sections, groups, profiles (decision 0004). */
  records: RxCollection<RecordDoc>;
}
export type LanternDatabase = RxDatabase<LanternCollections>;

// Documents written by an earlier app version are migrated on open (collectionMigrations). RxDB's
// migration plugin (10 kB brotli, on every tab's first path) is loaded only when the store holds a
// collection of an earlier version: the same check the plugin makes (an older version's entry in
// RxDB's internal store, removed once its documents are migrated).
let migrations: Promise<void> | null = null;

function loadMigrations(): Promise<void> {
  migrations ??= import('rxdb/plugins/migration-schema').then(
    (m) => addRxPlugin(m.RxDBMigrationSchemaPlugin),
    (error: unknown) => {
      // A failed load (the network gone mid-update) is tried again at the next open.
      migrations = null;
      throw error;
    },
  );
  return migrations;
}

async function holdsEarlierVersions(db: LanternDatabase, names: readonly CollectionName[]): Promise<boolean> {
  const keys = names.flatMap((n) =>
    getPreviousVersions(collectionSchemas[n]).map((version) =>
      getPrimaryKeyOfInternalDocument(`${n}-${version}`, INTERNAL_CONTEXT_COLLECTION),
    ),
  );
  if (keys.length === 0) return false;
  return (await db.internalStore.findDocumentsById(keys, false)).length > 0;
}

export interface OpenOptions {
  /** Defaults to Dexie over the global indexedDB. */
  storage?: RxStorage<unknown, unknown>;
  /** Open only these collections (a migration test opens an old version's few). */
  collections?: readonly CollectionName[];
}

export async function openLanternDatabase(
  name: string = DEFAULT_DATABASE_NAME,
  options: OpenOptions = {},
): Promise<LanternDatabase> {
  const db = await createRxDatabase<LanternCollections>({
    name,
    storage: options.storage ?? getRxStorageDexie(),
    // A write in the worker must reach every tab's live query (and the reverse).
    multiInstance: true,
    eventReduce: true,
  });
  const names = options.collections ?? (Object.keys(collectionSchemas) as CollectionName[]);
  if (await holdsEarlierVersions(db, names)) await loadMigrations();
  await db.addCollections(
    Object.fromEntries(
      names.map((n) => [
        n,
        {
          schema: collectionSchemas[n],
          migrationStrategies: collectionMigrations[n],
          // Without the plugin RxDB refuses to open a collection of version > 0 that would migrate.
          autoMigrate: migrations !== null,
        },
      ]),
    ),
  );
  return db;
}
