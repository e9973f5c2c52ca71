// A refresh that brings what the store already holds writes nothing. RxDB writes a row whatever its
// content, and every write wakes each live query over the collection and each screen reading it: after a
// reload, the reconnect's refreshes (members, joined channels, roles, sections, checkpoints) re-rendered
// the whole channel screen a dozen times in half a second for rows whose only change was their write time.

/** RxDB's own fields of a stored row, not its content. */
const STORE_FIELDS = new Set(['_meta', '_rev', '_attachments', '_deleted']);

/** Deep equality of JSON-like values, a key holding `undefined` counting as absent (as once stored). */
function sameValue(a: unknown, b: unknown, skip?: ReadonlySet<string>): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => sameValue(v, b[i]));
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = (o: Record<string, unknown>) =>
    Object.keys(o).filter((k) => o[k] !== undefined && !skip?.has(k));
  const xs = keys(x);
  const ys = keys(y);
  return xs.length === ys.length && xs.every((k) => Object.hasOwn(y, k) && sameValue(x[k], y[k]));
}

/** Whether `stored` (a row as the store holds it, with or without RxDB's fields) has exactly `doc`'s content. */
export function sameContent(stored: object | null | undefined, doc: object): boolean {
  if (!stored || (stored as { _deleted?: boolean })._deleted) return false;
  return sameValue(stored, doc, STORE_FIELDS);
}

interface Readable {
  schema: { primaryPath: string | number | symbol };
  storageInstance: { findDocumentsById(ids: string[], withDeleted: boolean): Promise<object[]> };
}

/** The docs worth writing: those with no stored row, a removed one, or different content. */
export async function changedOnly<T extends object>(collection: Readable, docs: readonly T[]): Promise<T[]> {
  if (docs.length === 0) return [];
  const key = String(collection.schema.primaryPath);
  const idOf = (d: object) => String((d as Record<string, unknown>)[key]);
  const stored = await collection.storageInstance.findDocumentsById(docs.map(idOf), false);
  const byId = new Map(stored.map((row) => [idOf(row), row]));
  return docs.filter((d) => !sameContent(byId.get(idOf(d)), d));
}
