// Shared page states: a loading spinner, an empty state with an icon, and a page header.
import { Loader2, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from './cn.ts';

export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <div className={cn('flex flex-1 items-center justify-center p-8 text-muted', className)} role="status">
      <Loader2 className="size-5 animate-spin" aria-hidden />
      <span className="sr-only">{label}</span>
    </div>
  );
}

export function EmptyState({
  icon: Icon,
  title,
  children,
  action,
  className,
}: {
  icon: LucideIcon;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  return (
    <div
      className={cn(
        'flex flex-1 flex-col items-center justify-center gap-2 px-6 py-12 text-center',
        className,
      )}
    >
      <div className="mb-1 flex size-11 items-center justify-center rounded-xl border border-line bg-surface text-muted shadow-xs">
        <Icon className="size-5" aria-hidden />
      </div>
      <h2 className="text-[15px] font-semibold">{title}</h2>
      {children ? <div className="max-w-sm text-[13px] text-muted">{children}</div> : null}
      {action ? <div className="mt-3">{action}</div> : null}
    </div>
  );
}
