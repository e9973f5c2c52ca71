// A row of mutually exclusive choices (the date range, the trend's period): buttons that say which one is
// pressed, in one group with a name.
import { cn } from '../../components/ui/cn.ts';

export function Segmented<T extends string>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: readonly { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="m-0 inline-flex min-w-0 shrink-0 rounded-lg border border-line bg-surface-2 p-0.5">
      <legend className="sr-only">{label}</legend>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={option.value === value}
          onClick={() => onChange(option.value)}
          className={cn(
            'h-7 rounded-md px-2.5 text-[13px] whitespace-nowrap text-muted outline-none hover:text-fg focus-visible:ring-2 focus-visible:ring-ring',
            option.value === value && 'bg-surface font-medium text-fg shadow-xs ring-1 ring-line',
          )}
        >
          {option.label}
        </button>
      ))}
    </fieldset>
  );
}
