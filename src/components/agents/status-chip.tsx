// A small coloured label for a state: neutral, working (with a spinner), good or bad.
import { Loader2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../ui/cn.ts';

export type ChipTone = 'neutral' | 'working' | 'good' | 'bad' | 'accent';

const TONES: Record<ChipTone, string> = {
  neutral: 'bg-selected text-muted',
  working: 'bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-200',
  good: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200',
  bad: 'bg-danger-soft text-danger',
  accent: 'bg-accent-soft text-accent-fg',
};

export function StatusChip({ tone, children }: { tone: ChipTone; children: ReactNode }) {
  return (
    <span
      className={cn(
        'inline-flex h-5 shrink-0 items-center gap-1 rounded-full px-2 text-[11px] leading-none font-medium whitespace-nowrap',
        TONES[tone],
      )}
    >
      {tone === 'working' ? <Loader2 className="size-3 animate-spin" aria-hidden /> : null}
      {tone === 'good' ? <span className="size-1.5 rounded-full bg-current" aria-hidden /> : null}
      {children}
    </span>
  );
}
