// The sidebar splitter's rules (spec §9): sizes in percent of the layout, a keyboard step of 10 (Shift
// moves 100, so to the end), the layout saved debounced 100 ms, and a hit area that reaches past the thin
// line: 15 px each side for a coarse pointer (a finger), 5 px for a fine one (a mouse).

export const SPLITTER_KEY_STEP = 10;
export const SPLITTER_SHIFT_STEP = 100;
export const LAYOUT_SAVE_DELAY_MS = 100;
export const HIT_MARGIN_PX = { coarse: 15, fine: 5 } as const;

export interface PanelBounds {
  min: number;
  max: number;
}

export function clampSize(size: number, { min, max }: PanelBounds): number {
  return Math.min(max, Math.max(min, size));
}

/** The size after a key on the splitter, or null for a key it does not take. */
export function sizeAfterKey(size: number, key: string, shift: boolean, bounds: PanelBounds): number | null {
  const step = shift ? SPLITTER_SHIFT_STEP : SPLITTER_KEY_STEP;
  switch (key) {
    case 'ArrowRight':
      return clampSize(size + step, bounds);
    case 'ArrowLeft':
      return clampSize(size - step, bounds);
    case 'Home':
      return bounds.min;
    case 'End':
      return bounds.max;
    default:
      return null;
  }
}

/** The size that puts the splitter under the pointer at `clientX`, in a layout spanning `left`…`left + width`. */
export function sizeAtPointer(clientX: number, left: number, width: number, bounds: PanelBounds): number {
  if (width <= 0) return bounds.min;
  return clampSize(((clientX - left) / width) * 100, bounds);
}

/** A saved size, if it is a number within bounds (storage is the person's, and may hold anything). */
export function readSavedSize(saved: string | null, bounds: PanelBounds): number | null {
  if (saved === null) return null;
  const size = Number(saved);
  return Number.isFinite(size) && size >= bounds.min && size <= bounds.max ? size : null;
}
