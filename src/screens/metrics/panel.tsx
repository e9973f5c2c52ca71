// The frame of every metrics block: a card with a title, a line of explanation and its actions (CSV
// export), and the block's loading, empty and error states. While a new range loads, the previous figures
// stay, dimmed, instead of collapsing into a skeleton.
import { AlertTriangle, Download, RotateCw } from 'lucide-react';
import { type ReactNode, useRef } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import type { RemoteState } from '../../data/remote-query.ts';

export function Panel({
  title,
  description,
  actions,
  children,
  className,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section
      aria-label={title}
      className={cn('min-w-0 rounded-xl border border-line bg-surface shadow-xs', className)}
    >
      <header className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 px-4 pt-4 pb-3 md:px-5">
        <div className="min-w-0">
          <h3 className="text-sm font-semibold">{title}</h3>
          {description ? <p className="mt-0.5 text-[13px] text-muted">{description}</p> : null}
        </div>
        {actions ? <div className="flex shrink-0 items-center gap-2">{actions}</div> : null}
      </header>
      <div className="px-4 pb-4 md:px-5">{children}</div>
    </section>
  );
}

/** The last answer while a new one loads (a range change), so the page does not jump. */
export function useSteady<T>(state: RemoteState<T>): RemoteState<T> & { stale: boolean } {
  const last = useRef<T | undefined>(undefined);
  if (state.data !== undefined) last.current = state.data;
  if (state.data === undefined && state.loading && last.current !== undefined) {
    return { ...state, data: last.current, stale: true };
  }
  return { ...state, stale: false };
}

/**
 * Shows `render(data)` once loaded; a skeleton before; the server's message and a retry after a failure
 * with nothing to show; `empty` when `isEmpty(data)`.
 */
export function RemoteBlock<T>({
  state,
  isEmpty,
  empty,
  skeleton,
  onRetry,
  children,
}: {
  state: RemoteState<T>;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  skeleton?: ReactNode;
  onRetry: () => void;
  children: (data: T) => ReactNode;
}) {
  const steady = useSteady(state);
  if (steady.data === undefined) {
    if (steady.error) return <ErrorNote message={steady.error} onRetry={onRetry} />;
    return <>{skeleton ?? <Skeleton className="h-48" />}</>;
  }
  const body = isEmpty?.(steady.data) ? empty : children(steady.data);
  return (
    <div aria-busy={steady.loading} className={cn('transition-opacity', steady.stale && 'opacity-50')}>
      {steady.error ? <ErrorNote message={steady.error} onRetry={onRetry} compact /> : null}
      {body}
    </div>
  );
}

export function Skeleton({ className }: { className?: string }) {
  return (
    <div className={cn('animate-pulse rounded-lg bg-hover', className)} role="status">
      <span className="sr-only">Loading</span>
    </div>
  );
}

function ErrorNote({
  message,
  onRetry,
  compact,
}: {
  message: string;
  onRetry: () => void;
  compact?: boolean;
}) {
  return (
    <div
      role="alert"
      className={cn(
        'flex items-center gap-3 rounded-lg border border-danger/30 bg-danger-soft/60 px-3 text-[13px]',
        compact ? 'mb-3 py-2' : 'py-3',
      )}
    >
      <AlertTriangle className="size-4 shrink-0 text-danger" aria-hidden />
      <p className="min-w-0 flex-1">{message}</p>
      <Button variant="outline" size="xs" onClick={onRetry}>
        <RotateCw aria-hidden className="size-3" />
        Try again
      </Button>
    </div>
  );
}

export function EmptyNote({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center justify-center gap-1 rounded-lg border border-dashed border-line px-4 py-10 text-center">
      <p className="text-[13px] font-medium">{title}</p>
      {children ? <p className="max-w-sm text-[13px] text-muted">{children}</p> : null}
    </div>
  );
}

export function CsvButton({ onExport, disabled }: { onExport: () => void; disabled?: boolean }) {
  return (
    <Button variant="outline" size="sm" onClick={onExport} disabled={disabled}>
      <Download aria-hidden className="size-3.5" />
      Export CSV
    </Button>
  );
}

/** A table that scrolls sideways on a phone rather than squeezing its columns. */
export function MetricTable({
  caption,
  head,
  minWidth,
  children,
}: {
  caption: string;
  head: readonly { label: string; numeric?: boolean; className?: string }[];
  /** Below this many pixels the table scrolls sideways (tables with many columns, on a phone). */
  minWidth?: number;
  children: ReactNode;
}) {
  return (
    <div className="-mx-4 overflow-x-auto md:-mx-5">
      <table className="w-full border-collapse text-[13px]" style={{ minWidth }}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-y border-line bg-surface-2 text-left text-xs text-muted">
            {head.map((h) => (
              <th
                key={h.label}
                scope="col"
                className={cn(
                  'px-4 py-2 font-medium first:md:pl-5 last:md:pr-5',
                  h.numeric && 'text-right',
                  h.className,
                )}
              >
                {h.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="[&_td]:px-4 [&_td]:py-2.5 [&_td:first-child]:md:pl-5 [&_td:last-child]:md:pr-5 [&_tr]:border-b [&_tr]:border-line [&_tr:last-child]:border-0">
          {children}
        </tbody>
      </table>
    </div>
  );
}

/** A right-aligned figure cell. */
export function Num({ children, className }: { children: ReactNode; className?: string }) {
  return <td className={cn('text-right tabular-nums', className)}>{children}</td>;
}
