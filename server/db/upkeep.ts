// Upkeep of the embedded database (decision 0073). PGlite runs PostgreSQL in this process without its
// background workers, so nothing ever vacuums or analyzes its tables: dead rows (every updated or deleted
// row version) are never reclaimed, the files only grow, and the planner plans every statement on default
// guesses because no table has statistics. This does what autovacuum does on a PostgreSQL server, with its
// default thresholds, on the server's own thread: one table at a time, each between two turns of the event
// loop. PostgreSQL (DATABASE_URL) has its own autovacuum and gets none of this.
import type { PGlite } from '@electric-sql/pglite';

/** How often the tables are looked at: autovacuum's own default nap. */
export const UPKEEP_INTERVAL_MS = 60_000;

/** What one table is due for, and why (PostgreSQL's autovacuum thresholds and defaults). */
export interface TableUpkeep {
  table: string;
  vacuum: boolean;
  analyze: boolean;
}

interface TableStats {
  table: string;
  dead: number;
  insertedSinceVacuum: number;
  changedSinceAnalyze: number;
  rows: number;
  xidAge: number;
}

/** autovacuum_vacuum_threshold + autovacuum_vacuum_scale_factor × rows. */
const deadLimit = (rows: number) => 50 + 0.2 * rows;
/** autovacuum_vacuum_insert_threshold + its scale factor: insert-only tables get their pages marked all-visible. */
const insertLimit = (rows: number) => 1_000 + 0.2 * rows;
/** autovacuum_analyze_threshold + autovacuum_analyze_scale_factor × rows. */
const changeLimit = (rows: number) => 50 + 0.1 * rows;
/** Below autovacuum_freeze_max_age: a table this many transactions old is vacuumed whatever else it holds. */
const XID_AGE_LIMIT = 150_000_000;

function dueFor(stats: TableStats): TableUpkeep {
  return {
    table: stats.table,
    vacuum:
      stats.dead > deadLimit(stats.rows) ||
      stats.insertedSinceVacuum > insertLimit(stats.rows) ||
      stats.xidAge > XID_AGE_LIMIT,
    analyze: stats.changedSinceAnalyze > changeLimit(stats.rows),
  };
}

/** The application's tables and what each is due for (none: nothing to do). */
export async function tablesDue(client: PGlite): Promise<TableUpkeep[]> {
  // The counters reach the statistics views when this backend reports them, at most once a second and
  // later while busy: the last writes are counted now.
  await client.query('SELECT pg_stat_force_next_flush()');
  const { rows } = await client.query<{
    table: string;
    dead: string;
    inserted: string;
    changed: string;
    rows: number;
    xid_age: number;
  }>(
    `SELECT s.relname AS table, s.n_dead_tup AS dead, s.n_ins_since_vacuum AS inserted,
       s.n_mod_since_analyze AS changed, greatest(c.reltuples, 0) AS rows, age(c.relfrozenxid) AS xid_age
     FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
     WHERE s.schemaname = 'public' ORDER BY s.relname`,
  );
  return rows
    .map((r) =>
      dueFor({
        table: r.table,
        dead: Number(r.dead),
        insertedSinceVacuum: Number(r.inserted),
        changedSinceAnalyze: Number(r.changed),
        rows: Number(r.rows),
        xidAge: Number(r.xid_age),
      }),
    )
    .filter((t) => t.vacuum || t.analyze);
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

function command({ table, vacuum, analyze }: TableUpkeep): string {
  if (vacuum && analyze) return `VACUUM (ANALYZE) public.${quoted(table)}`;
  return `${vacuum ? 'VACUUM' : 'ANALYZE'} public.${quoted(table)}`;
}

export interface UpkeepLog {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** A table's upkeep this slow is logged at info, as PostgreSQL's log_autovacuum_min_duration would. */
const SLOW_UPKEEP_MS = 100;

/** One pass: every table that is due, one at a time. Returns what was done. */
export async function upkeepOnce(client: PGlite, log?: UpkeepLog): Promise<TableUpkeep[]> {
  const done: TableUpkeep[] = [];
  for (const due of await tablesDue(client)) {
    // A table's VACUUM holds the thread; sockets and requests get their turn between two tables.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const started = performance.now();
    await client.exec(command(due));
    done.push(due);
    const ms = Math.round(performance.now() - started);
    const line = { table: due.table, vacuum: due.vacuum, analyze: due.analyze, ms };
    // Busy tables are due every minute: only a slow one is worth an operator's line.
    if (ms >= SLOW_UPKEEP_MS) log?.info(line, 'Database upkeep');
    else log?.debug(line, 'Database upkeep');
  }
  return done;
}

/**
 * Runs a pass every interval until stopped (a tick that finds the last pass still running is skipped); a
 * failed pass is logged and the next one tries again. The stop waits for a pass in flight, so the
 * database is not closed under it.
 */
export function startUpkeep(
  client: PGlite,
  log: UpkeepLog,
  intervalMs = UPKEEP_INTERVAL_MS,
): () => Promise<void> {
  let running: Promise<void> | null = null;
  let stopped = false;
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = upkeepOnce(client, log)
      .then(() => undefined)
      .catch((err: unknown) => log.warn({ err }, 'Database upkeep failed; the next pass tries again'))
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
