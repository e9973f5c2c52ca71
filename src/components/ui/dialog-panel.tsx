// Modal dialog on Radix: overlay, centred panel, title and description wired for screen readers. Loaded
// when a dialog first opens (dialog.tsx).
import { X } from 'lucide-react';
import { Dialog as RadixDialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { cn } from './cn.ts';

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  children: ReactNode;
  /** Actions kept in view below the scrolling body (a long form's Save must not scroll away). */
  footer?: ReactNode;
  className?: string;
}

export function DialogPanel({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  className,
}: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-black/40 backdrop-blur-[1px]" />
        <RadixDialog.Content
          className={cn(
            'fixed top-[12vh] left-1/2 z-50 flex max-h-[76vh] w-[calc(100vw-24px)] max-w-md -translate-x-1/2 flex-col rounded-xl border border-line bg-surface shadow-2xl outline-none',
            className,
          )}
          // Without a description nothing describes the dialog: a hidden copy of the title made screen readers
          // announce it twice (issue 15 item 5). The explicit undefined tells Radix it is on purpose.
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <div className="flex items-start justify-between gap-4 px-5 pt-4 pb-2">
            <div className="min-w-0">
              <RadixDialog.Title className="text-base font-semibold">{title}</RadixDialog.Title>
              {description ? (
                <RadixDialog.Description className="mt-0.5 text-[13px] text-muted">
                  {description}
                </RadixDialog.Description>
              ) : null}
            </div>
            <RadixDialog.Close
              className="-mr-1 rounded-md p-1 text-muted hover:bg-hover hover:text-fg"
              aria-label="Close"
            >
              <X className="size-4" />
            </RadixDialog.Close>
          </div>
          <div className={cn('min-h-0 flex-1 overflow-y-auto px-5', footer ? 'pb-4' : 'pb-5')}>
            {children}
          </div>
          {footer ? <div className="border-t border-line px-5 py-3">{footer}</div> : null}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
