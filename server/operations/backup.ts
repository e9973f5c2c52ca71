// Backups of an embedded installation (PGlite under DATA_DIR/db, files under DATA_DIR): `npm run backup`
// writes a folder holding the database as PGlite's own data-directory dump (db.tar.gz) and a copy of
// everything else in DATA_DIR (uploaded files, secrets.json with its keys, MCP folders, mail); `npm run
// restore` brings one back into an empty DATA_DIR. The server must be stopped: the database is read with
// nothing writing to it, so the dump and the files are one consistent moment. PostgreSQL and S3 have their
// own tools (docs/operations.md). Decision 0040.
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/** What a backup folder holds, so that a restore can refuse something that is not one. */
export interface BackupManifest {
  format: 'lantern-backup';
  version: 1;
  createdAt: string;
  /** Entries of DATA_DIR copied beside the database dump (files/, secrets.json, …). */
  entries: string[];
}

const MANIFEST = 'manifest.json';
const DB_DUMP = 'db.tar.gz';
const DATA = 'data';

export class BackupError extends Error {
  override name = 'BackupError';
}

const isEmptyOrMissing = (dir: string) => !existsSync(dir) || readdirSync(dir).length === 0;

/** Writes a backup of `dataDir` to the folder `target`, which must not exist yet or be empty. */
export async function backupDataDir(dataDir: string, target: string): Promise<BackupManifest> {
  const dbDir = path.join(dataDir, 'db');
  if (!existsSync(path.join(dbDir, 'PG_VERSION')))
    throw new BackupError(`There is no embedded database in ${dbDir}: nothing to back up.`);
  // PGlite keeps postmaster.pid while the database is open and removes it on a clean close.
  if (existsSync(path.join(dbDir, 'postmaster.pid')))
    throw new BackupError(
      `The database in ${dbDir} is in use: stop the Lantern server first. If no server is running, it did not stop cleanly: start it once and stop it (Ctrl+C or SIGTERM), then back up.`,
    );
  if (!isEmptyOrMissing(target))
    throw new BackupError(`${target} is not empty: give a new folder for the backup.`);

  // Written beside the target and renamed at the end, so a failed backup never looks like a whole one.
  const partial = `${path.resolve(target)}.partial`;
  rmSync(partial, { recursive: true, force: true });
  // It holds secrets.json (the installation's keys): readable by this user only.
  mkdirSync(path.join(partial, DATA), { recursive: true, mode: 0o700 });
  try {
    const db = await PGlite.create(dbDir);
    try {
      const dump = await db.dumpDataDir('gzip');
      writeFileSync(path.join(partial, DB_DUMP), Buffer.from(await dump.arrayBuffer()));
    } finally {
      await db.close();
    }
    const entries = readdirSync(dataDir).filter((name) => name !== 'db');
    for (const name of entries)
      cpSync(path.join(dataDir, name), path.join(partial, DATA, name), {
        recursive: true,
        preserveTimestamps: true,
      });
    const manifest: BackupManifest = {
      format: 'lantern-backup',
      version: 1,
      createdAt: new Date().toISOString(),
      entries,
    };
    writeFileSync(path.join(partial, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    rmSync(target, { recursive: true, force: true });
    renameSync(partial, target);
    return manifest;
  } catch (err) {
    rmSync(partial, { recursive: true, force: true });
    throw err;
  }
}

function readManifest(source: string): BackupManifest {
  const file = path.join(source, MANIFEST);
  let manifest: Partial<BackupManifest>;
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8')) as Partial<BackupManifest>;
  } catch {
    throw new BackupError(`${source} is not a Lantern backup: ${MANIFEST} is missing or unreadable.`);
  }
  if (manifest.format !== 'lantern-backup' || manifest.version !== 1 || !Array.isArray(manifest.entries))
    throw new BackupError(`${source} is not a Lantern backup this version can restore.`);
  if (!existsSync(path.join(source, DB_DUMP)))
    throw new BackupError(`${source} is incomplete: ${DB_DUMP} is missing.`);
  return manifest as BackupManifest;
}

/** Restores the backup folder `source` into `dataDir`, which must be empty or not exist. */
export async function restoreDataDir(source: string, dataDir: string): Promise<BackupManifest> {
  const manifest = readManifest(source);
  if (!isEmptyOrMissing(dataDir))
    throw new BackupError(
      `${dataDir} is not empty: restore only into an empty DATA_DIR, so nothing of another installation is mixed in.`,
    );
  mkdirSync(dataDir, { recursive: true });
  try {
    const dump = new Blob([readFileSync(path.join(source, DB_DUMP))]);
    const db = await PGlite.create({ dataDir: path.join(dataDir, 'db'), loadDataDir: dump });
    await db.close();
    for (const name of manifest.entries)
      cpSync(path.join(source, DATA, name), path.join(dataDir, name), {
        recursive: true,
        preserveTimestamps: true,
      });
  } catch (err) {
    // Leave the folder empty again, so the restore can simply be run once more.
    for (const name of readdirSync(dataDir))
      rmSync(path.join(dataDir, name), { recursive: true, force: true });
    throw err;
  }
  return manifest;
}
