// How a store read's new result travels to its tab (decision 0065): as what changed since the result the
// tab already holds, not as a whole copy. The worker compares (describeChange), the tab rebuilds
// (applyChange) and keeps every unchanged part as the object it already had, so a new message in a window
// of sixty costs the tab one row's copy, and memoised rows see the same objects and skip their render.

/** A result's change: none, a new value, a list element by element, or an object's changed fields. */
export type StoreChange =
  | { value: unknown }
  | { list: ListItem[] }
  | { fields: Record<string, StoreChange>; removed?: string[] };

/** One element of a changed list: the previous list's element at that index unchanged, a change of it, or new. */
type ListItem = number | { at: number; change: StoreChange } | { value: unknown };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** An element's identity in a list: a message's genId, else an id; lists of others match by position. */
function identity(value: unknown): unknown {
  if (!isPlainObject(value)) return undefined;
  return typeof value.genId === 'string' ? value.genId : typeof value.id === 'string' ? value.id : undefined;
}

/** What turns `previous` into `next`; null when they are equal. */
export function describeChange(previous: unknown, next: unknown): StoreChange | null {
  if (Object.is(previous, next)) return null;
  if (Array.isArray(previous) && Array.isArray(next)) {
    const byIdentity = new Map<unknown, number>();
    previous.forEach((item, index) => {
      const id = identity(item);
      if (id !== undefined && !byIdentity.has(id)) byIdentity.set(id, index);
    });
    let same = previous.length === next.length;
    const list = next.map((item, index): ListItem => {
      const id = identity(item);
      const at = id !== undefined ? byIdentity.get(id) : index < previous.length ? index : undefined;
      if (at === undefined) {
        same = false;
        return { value: item };
      }
      const change = describeChange(previous[at], item);
      if (change !== null || at !== index) same = false;
      return change === null ? at : 'value' in change ? change : { at, change };
    });
    return same ? null : { list };
  }
  if (previous instanceof Set && next instanceof Set) {
    if (previous.size === next.size && [...next].every((item) => previous.has(item))) return null;
    return { value: next };
  }
  // A field named __proto__ (it can come in a stored payload) would be set as the prototype when rebuilt.
  if (isPlainObject(previous) && isPlainObject(next) && !Object.hasOwn(next, '__proto__')) {
    const fields: Record<string, StoreChange> = {};
    let changed = false;
    for (const key of Object.keys(next)) {
      const change = Object.hasOwn(previous, key)
        ? describeChange(previous[key], next[key])
        : { value: next[key] };
      if (change !== null) {
        fields[key] = change;
        changed = true;
      }
    }
    const removed = Object.keys(previous).filter((key) => !Object.hasOwn(next, key));
    if (!changed && removed.length === 0) return null;
    return removed.length > 0 ? { fields, removed } : { fields };
  }
  return { value: next };
}

/** `previous` changed by `change`, sharing every unchanged part with it. */
export function applyChange(previous: unknown, change: StoreChange): unknown {
  if ('value' in change) return change.value;
  if ('list' in change) {
    const before = previous as unknown[];
    return change.list.map((item) =>
      typeof item === 'number'
        ? before[item]
        : 'value' in item
          ? item.value
          : applyChange(before[item.at], item.change),
    );
  }
  const before = previous as Record<string, unknown>;
  const next: Record<string, unknown> = { ...before };
  for (const key of change.removed ?? []) delete next[key];
  for (const [key, fieldChange] of Object.entries(change.fields))
    next[key] = applyChange(before[key], fieldChange);
  return next;
}
