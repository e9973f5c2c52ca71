// The bar at the top of every workspace page; on phones it carries the way back to the sidebar.
import { ChevronLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useWorkspace } from '../../app/workspace-context.ts';

export function ScreenHeader({
  title,
  icon,
  subtitle,
  actions,
}: {
  title: ReactNode;
  icon?: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
}) {
  const { institution } = useWorkspace();
  return (
    <header className="flex h-13 shrink-0 items-center gap-2 border-b border-line px-2 md:px-4">
      <Link
        to={`/client/${institution.id}`}
        className="flex size-9 items-center justify-center rounded-md text-muted hover:bg-hover hover:text-fg md:hidden"
        aria-label="Back to channels"
      >
        <ChevronLeft className="size-5" aria-hidden />
      </Link>
      <div className="flex min-w-0 flex-1 items-center gap-2">
        {icon ? <span className="flex shrink-0 text-muted [&_svg]:size-4">{icon}</span> : null}
        <div className="min-w-0">
          <h1 className="truncate text-[15px] leading-tight font-semibold">{title}</h1>
          {subtitle ? <p className="truncate text-xs text-muted">{subtitle}</p> : null}
        </div>
      </div>
      {actions ? <div className="flex shrink-0 items-center gap-1">{actions}</div> : null}
    </header>
  );
}

/** A scrolling page body with a comfortable reading width. */
export function ScreenBody({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      <div className={`mx-auto w-full max-w-3xl px-4 py-5 md:px-6 ${className ?? ''}`}>{children}</div>
    </div>
  );
}
