// The rows of a raw `db.execute(sql…)`: node-postgres answers `{ rows }`, PGlite's driver the same, and
// drizzle types both loosely.
export const rowsOf = <T>(result: unknown): T[] =>
  Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
