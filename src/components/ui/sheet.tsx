// Side panel on Radix Dialog: slides over the right edge on desktop, fills the screen on phones.
import { X } from 'lucide-react';
import { Dialog as RadixDialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { cn } from './cn.ts';

export interface SheetProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** Read by screen readers; shown under the title when `showDescription`. */
  description: string;
  showDescription?: boolean;
  icon?: ReactNode;
  children: ReactNode;
  className?: string;
  /** Radix's: call `preventDefault()` to leave focus where it is instead of returning it to the trigger. */
  onCloseAutoFocus?: (event: Event) => void;
}

export function Sheet({
  open,
  onOpenChange,
  title,
  description,
  showDescription,
  icon,
  children,
  className,
  onCloseAutoFocus,
}: SheetProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-black/30 md:bg-black/20" />
        <RadixDialog.Content
          {...(onCloseAutoFocus ? { onCloseAutoFocus } : {})}
          className={cn(
            'fixed inset-0 z-50 flex flex-col bg-surface shadow-2xl outline-none md:inset-y-2 md:right-2 md:left-auto md:w-[440px] md:rounded-xl md:border md:border-line',
            className,
          )}
        >
          <div className="flex h-13 shrink-0 items-center gap-2 border-b border-line px-4">
            {icon ? <span className="flex shrink-0 text-muted [&_svg]:size-4">{icon}</span> : null}
            <div className="min-w-0 flex-1">
              <RadixDialog.Title className="truncate text-[15px] font-semibold">{title}</RadixDialog.Title>
              <RadixDialog.Description
                className={showDescription ? 'truncate text-xs text-muted' : 'sr-only'}
              >
                {description}
              </RadixDialog.Description>
            </div>
            <RadixDialog.Close
              className="-mr-1 flex size-8 items-center justify-center rounded-md text-muted hover:bg-hover hover:text-fg"
              aria-label="Close"
            >
              <X className="size-4" />
            </RadixDialog.Close>
          </div>
          <div className="flex min-h-0 flex-1 flex-col">{children}</div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
