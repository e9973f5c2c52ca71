// A progress bar on Radix Progress with the spec §9 rules: the value counts between 0 and max (default 100)
// and anything else is "not known yet" (an indeterminate bar, no number announced); max must be above 0.
import { Progress as RadixProgress } from 'radix-ui';
import { cn } from './cn.ts';

export const PROGRESS_MAX = 100;

/** The value and max the bar shows: a value outside 0…max is null (indeterminate); a max not above 0 is 100. */
export function progressOf(
  value: number | null | undefined,
  max: number = PROGRESS_MAX,
): { value: number | null; max: number } {
  const top = Number.isFinite(max) && max > 0 ? max : PROGRESS_MAX;
  const known = typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= top;
  return { value: known ? value : null, max: top };
}

export function ProgressBar({
  value,
  max,
  label,
  className,
}: {
  value: number | null | undefined;
  max?: number;
  label: string;
  className?: string;
}) {
  const shown = progressOf(value, max);
  return (
    <RadixProgress.Root
      value={shown.value}
      max={shown.max}
      aria-label={label}
      className={cn('relative h-1.5 overflow-hidden rounded-full bg-line', className)}
    >
      <RadixProgress.Indicator
        className={cn(
          'h-full rounded-[inherit] bg-accent',
          shown.value === null ? 'progress-indeterminate w-1/3' : 'transition-[width] duration-200',
        )}
        style={shown.value === null ? undefined : { width: `${(shown.value / shown.max) * 100}%` }}
      />
    </RadixProgress.Root>
  );
}
