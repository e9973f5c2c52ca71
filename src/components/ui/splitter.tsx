// A resizable panel beside the rest of a layout (spec §9 splitter): drag the line, or focus it and use the
// arrow keys, Home and End (the WAI-ARIA window splitter). The size is the panel's share of the layout in
// percent, kept in localStorage under `storageKey`, written 100 ms after the last change or when the page
// is left, whichever comes first.
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { cn } from './cn.ts';
import {
  HIT_MARGIN_PX,
  LAYOUT_SAVE_DELAY_MS,
  type PanelBounds,
  readSavedSize,
  sizeAfterKey,
  sizeAtPointer,
} from './splitter-layout.ts';

function savedSize(storageKey: string, bounds: PanelBounds): number | null {
  try {
    return readSavedSize(localStorage.getItem(storageKey), bounds);
  } catch {
    return null;
  }
}

/** Writes the size waiting in `unsaved`, if any, and clears it. */
function saveSize(storageKey: string, unsaved: { current: number | null }): void {
  const size = unsaved.current;
  if (size === null) return;
  unsaved.current = null;
  try {
    localStorage.setItem(storageKey, String(Math.round(size * 10) / 10));
  } catch {
    // Storage full or refused: the size lasts for this page.
  }
}

export function SplitLayout({
  panel,
  children,
  panelId,
  label,
  storageKey,
  defaultSize,
  bounds,
  minPx,
  maxPx,
  className,
  contentAs: Content = 'div',
  contentClassName,
}: {
  /** The resizable panel, first (left). */
  panel: ReactNode;
  children: ReactNode;
  panelId: string;
  /** The splitter's name, e.g. "Resize sidebar". */
  label: string;
  storageKey: string;
  defaultSize: number;
  bounds: PanelBounds;
  /** Pixel limits the percentage never crosses (a narrow window keeps a usable panel). */
  minPx?: number;
  maxPx?: number;
  className?: string;
  /**
   * The element that holds `children` and the splitter: `main` makes it the page's main landmark, so the
   * splitter (a focusable control) is within a landmark too, at the edge it moves.
   */
  contentAs?: 'div' | 'main';
  contentClassName?: string;
}) {
  const [size, setSize] = useState(() => savedSize(storageKey, bounds) ?? defaultSize);
  const [dragging, setDragging] = useState(false);
  const layout = useRef<HTMLDivElement>(null);
  const { min, max } = bounds;

  // The size waiting to be saved. A page left (or a layout unmounted) within the delay saves it at once:
  // a change made just before a reload was lost (keyboard.spec saw it under load).
  // Set with the change itself (not in an effect), so a reload right after a key press still finds it.
  const unsaved = useRef<number | null>(null);
  function change(next: number) {
    unsaved.current = next;
    setSize(next);
  }
  // biome-ignore lint/correctness/useExhaustiveDependencies: each change of size restarts the wait
  useEffect(() => {
    const timer = setTimeout(() => saveSize(storageKey, unsaved), LAYOUT_SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [size, storageKey]);
  useEffect(() => {
    const flush = () => saveSize(storageKey, unsaved);
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [storageKey]);

  function follow(clientX: number) {
    const rect = layout.current?.getBoundingClientRect();
    if (rect) change(sizeAtPointer(clientX, rect.left, rect.width, { min, max }));
  }

  return (
    <div
      ref={layout}
      className={cn('relative flex min-h-0', dragging && 'cursor-col-resize select-none', className)}
    >
      <div
        id={panelId}
        className="flex min-h-0 shrink-0 flex-col"
        style={{ width: `${size}%`, minWidth: minPx, maxWidth: maxPx }}
      >
        {panel}
      </div>
      <Content className={cn('relative flex min-h-0 min-w-0 flex-1 flex-col', contentClassName)}>
        {/* biome-ignore lint/a11y/useSemanticElements: a focusable window splitter, which <hr> cannot be */}
        <div
          role="separator"
          aria-orientation="vertical"
          aria-label={label}
          aria-controls={panelId}
          aria-valuenow={Math.round(size)}
          aria-valuemin={min}
          aria-valuemax={max}
          tabIndex={0}
          className="group absolute inset-y-0 left-0 z-10 w-0 cursor-col-resize outline-none"
          style={
            {
              '--hit-fine': `${HIT_MARGIN_PX.fine}px`,
              '--hit-coarse': `${HIT_MARGIN_PX.coarse}px`,
            } as React.CSSProperties
          }
          onKeyDown={(event) => {
            const next = sizeAfterKey(size, event.key, event.shiftKey, { min, max });
            if (next === null) return;
            event.preventDefault();
            change(next);
          }}
          onPointerDown={(event) => {
            if (event.button !== 0) return;
            event.preventDefault();
            event.currentTarget.setPointerCapture(event.pointerId);
            setDragging(true);
          }}
          onPointerMove={(event) => {
            if (event.currentTarget.hasPointerCapture(event.pointerId)) follow(event.clientX);
          }}
          onPointerUp={(event) => {
            event.currentTarget.releasePointerCapture(event.pointerId);
            setDragging(false);
          }}
          onPointerCancel={() => setDragging(false)}
        >
          {/* The hit area: wider than the line, more so for a finger. */}
          <span className="absolute inset-y-0 -left-[var(--hit-fine)] w-[calc(var(--hit-fine)*2)] pointer-coarse:-left-[var(--hit-coarse)] pointer-coarse:w-[calc(var(--hit-coarse)*2)]" />
          {/* The line shows on hover, drag and keyboard focus. */}
          <span
            className={cn(
              'pointer-events-none absolute inset-y-2 -left-px w-0.5 rounded-full bg-transparent transition-colors group-hover:bg-line-strong group-focus-visible:bg-accent',
              dragging && 'bg-accent',
            )}
          />
        </div>
        {children}
      </Content>
    </div>
  );
}
