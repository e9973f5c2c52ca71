// A choice from a list, on Radix Select (spec §9): its scroll buttons scroll the list every 50 ms while
// pointed at (Radix's own pace), and no item has an empty value: "nothing chosen yet" is the placeholder,
// and a choice that means "the default" has a value of its own. Radix refuses an empty item value too.
import { Check, ChevronDown, ChevronUp } from 'lucide-react';
import { Select as RadixSelect } from 'radix-ui';
import { cn } from './cn.ts';

export interface SelectOption {
  /** Never empty (spec §9). */
  value: string;
  label: string;
}

/** Options fit for the list: every value non-empty, each once. */
export function selectOptions(options: readonly SelectOption[]): SelectOption[] {
  const seen = new Set<string>();
  return options.filter((o) => {
    if (!o.value || seen.has(o.value)) return false;
    seen.add(o.value);
    return true;
  });
}

export function Select({
  id,
  value,
  onValueChange,
  options,
  placeholder,
  label,
  disabled,
  className,
}: {
  id?: string;
  /** The chosen value, or '' for none yet (the placeholder shows). */
  value: string;
  onValueChange: (value: string) => void;
  options: readonly SelectOption[];
  placeholder?: string;
  /** For a select without a visible label. */
  label?: string;
  disabled?: boolean;
  className?: string;
}) {
  const items = selectOptions(options);
  return (
    <RadixSelect.Root value={value || undefined} onValueChange={onValueChange} disabled={disabled}>
      <RadixSelect.Trigger
        id={id}
        aria-label={label}
        className={cn(
          'flex h-9 w-full min-w-0 items-center justify-between gap-2 rounded-md border border-line-strong bg-surface px-2.5 text-left text-sm text-fg shadow-xs outline-none focus-visible:border-accent focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-60 data-[placeholder]:text-muted',
          className,
        )}
      >
        <span className="min-w-0 truncate">
          <RadixSelect.Value placeholder={placeholder} />
        </span>
        <RadixSelect.Icon>
          <ChevronDown className="size-4 shrink-0 text-muted" aria-hidden />
        </RadixSelect.Icon>
      </RadixSelect.Trigger>
      <RadixSelect.Portal>
        <RadixSelect.Content
          position="popper"
          sideOffset={4}
          className="z-50 max-h-[min(var(--radix-select-content-available-height),20rem)] min-w-[var(--radix-select-trigger-width)] overflow-hidden rounded-lg border border-line bg-surface text-sm text-fg shadow-xl"
        >
          <RadixSelect.ScrollUpButton className="flex h-6 items-center justify-center text-muted">
            <ChevronUp className="size-4" aria-hidden />
          </RadixSelect.ScrollUpButton>
          <RadixSelect.Viewport className="p-1">
            {items.map((o) => (
              <RadixSelect.Item
                key={o.value}
                value={o.value}
                className="relative flex h-8 cursor-default items-center rounded-md pr-2 pl-7 outline-none select-none data-[disabled]:opacity-50 data-[highlighted]:bg-hover"
              >
                <RadixSelect.ItemIndicator className="absolute left-2 inline-flex">
                  <Check className="size-4 text-accent" aria-hidden />
                </RadixSelect.ItemIndicator>
                <RadixSelect.ItemText>{o.label}</RadixSelect.ItemText>
              </RadixSelect.Item>
            ))}
          </RadixSelect.Viewport>
          <RadixSelect.ScrollDownButton className="flex h-6 items-center justify-center text-muted">
            <ChevronDown className="size-4" aria-hidden />
          </RadixSelect.ScrollDownButton>
        </RadixSelect.Content>
      </RadixSelect.Portal>
    </RadixSelect.Root>
  );
}
