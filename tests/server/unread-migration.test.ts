// A database from before unread counts became read positions (decision 0047) keeps the counts people saw:
// the first migration alone, rows with stored counts, then every migration, as a node upgrading would.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { type Db, migrationsFolder } from '../../server/db/client.ts';
import * as schema from '../../server/db/schema.ts';
import { unreadCounts } from '../../server/messages/unread.ts';

describe('unread counts across the upgrade to read positions', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lantern-unread-migration-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The migrations folder as it was before: 0000 only. */
  function firstMigrationOnly(): string {
    const folder = path.join(dir, 'migrations');
    mkdirSync(path.join(folder, 'meta'), { recursive: true });
    copyFileSync(path.join(migrationsFolder, '0000_init.sql'), path.join(folder, '0000_init.sql'));
    const journal = JSON.parse(
      readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
    ) as {
      entries: { tag: string }[];
    };
    journal.entries = journal.entries.filter((e) => e.tag === '0000_init');
    writeFileSync(path.join(folder, 'meta', '_journal.json'), JSON.stringify(journal));
    return folder;
  }

  it('keeps each member’s stored count, then counts from it', async () => {
    const client = await PGlite.create();
    try {
      const db = drizzle(client, { schema });
      await migrate(db, { migrationsFolder: firstMigrationOnly() });
      // Alice wrote five messages; bob read up to the second (three unread); carol joined after them all.
      await client.exec(`
        INSERT INTO users (id, email, name) VALUES ('u-a', 'a@x.test', 'A'), ('u-b', 'b@x.test', 'B'), ('u-c', 'c@x.test', 'C');
        INSERT INTO institutions (id, name) VALUES ('i', 'Acme');
        INSERT INTO members (id, institution_id, user_id, role) VALUES ('alice', 'i', 'u-a', 'primary_owner'), ('bob', 'i', 'u-b', 'member'), ('carol', 'i', 'u-c', 'member');
        INSERT INTO channels (id, institution_id, name, type, last_seq, last_message_id) VALUES ('c', 'i', 'general', 'public', 5, 'm5');
        INSERT INTO messages (id, gen_id, channel_id, institution_id, member_id, content, seq, created_seq)
          SELECT 'm' || n, 'g' || n, 'c', 'i', 'alice', '<p>hi</p>', n, n FROM generate_series(1, 5) AS n;
        INSERT INTO channel_members (id, channel_id, member_id, unread_count, last_read_message_id) VALUES
          ('cm-a', 'c', 'alice', 0, NULL), ('cm-b', 'c', 'bob', 3, 'm2'), ('cm-c', 'c', 'carol', 0, NULL);
      `);

      await migrate(db, { migrationsFolder });
      const ids = ['cm-a', 'cm-b', 'cm-c'];
      const counts = async () =>
        Object.fromEntries(
          [...(await unreadCounts(db as unknown as Db, ids))].map(([id, unread]) => [id, unread.count]),
        );
      expect(await counts()).toEqual({ 'cm-a': 0, 'cm-b': 3, 'cm-c': 0 });

      // After the upgrade the positions behave as if they had always been kept: a deletion of an unread
      // message takes it away from bob; a new message counts for both readers.
      await db.execute(sql`UPDATE messages SET deleted_at = now(), seq = 6 WHERE id = 'm4'`);
      expect(await counts()).toEqual({ 'cm-a': 0, 'cm-b': 2, 'cm-c': 0 });
    } finally {
      await client.close();
    }
  });
});
