// A member's workspace role as a small badge: owners and admins stand out, guests are marked.
import { Crown, Shield } from 'lucide-react';
import type { WorkspaceRole } from '../../../schemas/protocol/index.ts';
import { cn } from '../ui/cn.ts';
import { ROLE_LABEL } from './member-search.ts';

export function RoleBadge({ role, className }: { role: WorkspaceRole; className?: string }) {
  const owner = role === 'primary_owner' || role === 'owner';
  return (
    <span
      className={cn(
        'inline-flex h-5 shrink-0 items-center gap-1 rounded-full border px-2 text-[11px] font-medium',
        owner
          ? 'border-transparent bg-accent-soft text-accent-fg'
          : role === 'admin'
            ? 'border-transparent bg-sky-500/12 text-sky-700 dark:text-sky-300'
            : role === 'guest'
              ? 'border-dashed border-line-strong text-muted'
              : 'border-line text-muted',
        className,
      )}
    >
      {owner ? <Crown className="size-3" aria-hidden /> : null}
      {role === 'admin' ? <Shield className="size-3" aria-hidden /> : null}
      {ROLE_LABEL[role] ?? role}
    </span>
  );
}
