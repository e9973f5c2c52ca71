// What every metrics chart shares: its measured width (charts are drawn in CSS pixels, so text never
// stretches), a tooltip that follows hover and keyboard focus, and "nice" axis steps.
import { type ReactNode, useEffect, useRef, useState } from 'react';

/** The width of the element the ref is on, kept current as the layout changes. */
export function useElementWidth<E extends HTMLElement>(fallback = 600) {
  const ref = useRef<E>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.max(120, Math.floor(entry.contentRect.width)));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

export interface Tip {
  /** Where the mark's top centre is, in the chart's pixels. */
  x: number;
  y: number;
  text: ReactNode;
}

/** The value of the hovered or focused mark, above it; hidden from screen readers (the mark says it). */
export function ChartTip({ tip, width }: { tip: Tip | null; width: number }) {
  if (!tip) return null;
  // Keep the bubble inside the chart near its edges.
  const shift = tip.x < 80 ? '0%' : tip.x > width - 80 ? '-100%' : '-50%';
  return (
    <div
      aria-hidden
      className="pointer-events-none absolute z-10 rounded-md bg-primary px-2 py-1 text-xs whitespace-nowrap text-primary-fg shadow-md"
      style={{ left: tip.x, top: tip.y - 6, transform: `translate(${shift}, -100%)` }}
    >
      {tip.text}
    </div>
  );
}

/** A round step (1, 2, 5 × 10ⁿ) that splits `max` into about `ticks` parts; never below 1 (counts). */
export function niceStep(max: number, ticks = 4): number {
  const raw = Math.max(1, max / ticks);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / magnitude;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
  return Math.max(1, nice * magnitude);
}
