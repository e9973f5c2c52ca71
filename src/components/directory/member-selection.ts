// Which members are ticked in the directory: a click toggles one, Shift+click sets the whole range from the
// last ticked row to this one (as in a mail client), and "Select all shown" covers what the filters show.

/**
 * The selection after ticking (or unticking) `id`. With `range`, every shown row between `anchor` and
 * `id` takes the same state; an anchor no longer shown makes it a single toggle.
 */
export function tickMember(
  selected: ReadonlySet<string>,
  shown: readonly string[],
  id: string,
  checked: boolean,
  anchor: string | null,
  range: boolean,
): Set<string> {
  const next = new Set(selected);
  const from = range && anchor !== null ? shown.indexOf(anchor) : -1;
  const to = shown.indexOf(id);
  const ids = from === -1 || to === -1 ? [id] : shown.slice(Math.min(from, to), Math.max(from, to) + 1);
  for (const one of ids) {
    if (checked) next.add(one);
    else next.delete(one);
  }
  return next;
}

/** Ticks every shown row, or unticks them when all are ticked already; rows not shown keep their state. */
export function tickAllShown(selected: ReadonlySet<string>, shown: readonly string[]): Set<string> {
  const next = new Set(selected);
  const all = shown.length > 0 && shown.every((id) => next.has(id));
  for (const id of shown) {
    if (all) next.delete(id);
    else next.add(id);
  }
  return next;
}
