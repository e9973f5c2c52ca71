// Recognises PostgreSQL's unique_violation (23505) whether the driver error arrives bare (PGlite, pg) or
// wrapped by Drizzle (DrizzleQueryError keeps it as `cause`).
const UNIQUE_VIOLATION = '23505';

export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    if ((e as { code?: unknown }).code === UNIQUE_VIOLATION) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
