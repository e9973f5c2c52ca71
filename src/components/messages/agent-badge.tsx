// The small "AI" mark beside an agent's name (messages, mention menu, directory, profile, pickers), so
// nobody mistakes an agent's words for a person's.
import { Sparkles } from 'lucide-react';
import { cn } from '../ui/cn.ts';

export function AgentBadge({ className }: { className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex h-4 shrink-0 items-center gap-0.5 rounded border border-violet-500/30 bg-violet-500/10 px-1 text-[10px] leading-none font-semibold tracking-wide text-violet-700 dark:text-violet-300',
        className,
      )}
      title="AI agent"
      data-testid="ai-badge"
    >
      <Sparkles className="size-2.5" aria-hidden />
      AI
    </span>
  );
}

/** Whether a member (or suggestion) is an agent; members stored before issue 5 have no kind. */
export function isAgent(member: { kind?: string } | null | undefined): boolean {
  return member?.kind === 'agent';
}
