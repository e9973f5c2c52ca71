// Keyboard reach for chart marks: one Tab stop per chart, arrow keys move between bars (and between rows
// of the heatmap), Home/End jump to the ends. Each mark carries its value in its accessible name, so the
// screen reader says it as focus lands (WAI-ARIA "roving tabindex").
import { type KeyboardEvent, useRef, useState } from 'react';

export interface RovingItemProps {
  tabIndex: number;
  ref: (element: SVGElement | null) => void;
  onKeyDown: (event: KeyboardEvent<SVGElement>) => void;
  onFocus: () => void;
}

/**
 * `count` marks laid out `columns` to a row (a bar chart: all in one row; a ranked list: one per row;
 * the heatmap: 24). `onActive` hears which mark has focus, for the visible tooltip.
 */
export function useRovingFocus(count: number, columns: number, onActive?: (index: number) => void) {
  const [active, setActive] = useState(0);
  const elements = useRef<(SVGElement | null)[]>([]);
  const current = Math.min(active, Math.max(0, count - 1));

  function move(event: KeyboardEvent<SVGElement>, index: number) {
    const rowStart = index - (index % columns);
    const rowEnd = Math.min(count - 1, rowStart + columns - 1);
    // A single column reads as a list: left/right move through it like up/down.
    const step = columns === 1 ? 1 : 0;
    const next: Record<string, number> = {
      ArrowRight: columns === 1 ? index + step : Math.min(index + 1, rowEnd),
      ArrowLeft: columns === 1 ? index - step : Math.max(index - 1, rowStart),
      ArrowDown: index + columns,
      ArrowUp: index - columns,
      Home: columns === 1 ? 0 : rowStart,
      End: columns === 1 ? count - 1 : rowEnd,
    };
    const target = next[event.key];
    if (target === undefined) return;
    event.preventDefault();
    if (target < 0 || target >= count) return;
    setActive(target);
    elements.current[target]?.focus();
  }

  return (index: number): RovingItemProps => ({
    tabIndex: index === current ? 0 : -1,
    ref: (element) => {
      elements.current[index] = element;
    },
    onKeyDown: (event) => move(event, index),
    onFocus: () => {
      setActive(index);
      onActive?.(index);
    },
  });
}
