// `npm run backup -- <folder>`: a consistent backup of the embedded database and DATA_DIR's files (the
// server must be stopped). `npm run restore -- <folder>` brings it back into an empty DATA_DIR.
// server/operations/backup.ts does the work; this reads the configuration and reports.
import { loadConfig } from '../server/config.ts';
import { BackupError, backupDataDir, restoreDataDir } from '../server/operations/backup.ts';

const [mode, folder] = process.argv.slice(2);

async function main(): Promise<string> {
  if ((mode !== 'backup' && mode !== 'restore') || !folder)
    throw new BackupError('Usage: npm run backup -- <folder>   or   npm run restore -- <folder>');
  const config = loadConfig();
  if (config.DATABASE_URL)
    throw new BackupError(
      'DATABASE_URL is set: back up PostgreSQL with pg_dump and restore with pg_restore (docs/operations.md).',
    );
  const s3 = config.S3_ENDPOINT
    ? " Uploaded files are in S3 (S3_ENDPOINT) and not in this backup: use the bucket's versioning."
    : '';
  if (mode === 'backup') {
    const manifest = await backupDataDir(config.dataDir, folder);
    return `Backed up ${config.dataDir} to ${folder} (database and ${manifest.entries.join(', ') || 'no other files'}). It holds secrets.json, the installation's keys: keep it as safe as the server.${s3}`;
  }
  const manifest = await restoreDataDir(folder, config.dataDir);
  return `Restored the backup of ${manifest.createdAt} from ${folder} into ${config.dataDir}. Start the server with DATA_DIR=${config.dataDir}.${s3}`;
}

main().then(
  (message) => console.log(message),
  (err: unknown) => {
    console.error(err instanceof BackupError || err instanceof Error ? err.message : String(err));
    process.exit(1);
  },
);
