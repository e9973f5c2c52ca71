// Radix's menu, tooltip and popover, styled like the rest of the shell: loaded by overlays.ts after a
// channel's first rows. menu.tsx, tooltip.tsx and the emoji picker render these once they are here.
import { DropdownMenu, Popover, Tooltip as RadixTooltip } from 'radix-ui';
import { type ComponentProps, type ReactNode, useRef, useState } from 'react';
import { cn } from './cn.ts';

export { DropdownMenu, Popover };

/** Spec §9: a tooltip opens after 700 ms, and at once within 300 ms of another one closing. */
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

export function MenuContent({ className, children, ...props }: ComponentProps<typeof DropdownMenu.Content>) {
  return (
    <DropdownMenu.Portal>
      <DropdownMenu.Content
        sideOffset={4}
        className={cn(
          'z-50 min-w-52 rounded-lg border border-line bg-surface p-1 text-sm text-fg shadow-xl outline-none',
          className,
        )}
        {...props}
      >
        {children}
      </DropdownMenu.Content>
    </DropdownMenu.Portal>
  );
}

export function MenuItem({
  className,
  icon,
  children,
  destructive,
  ...props
}: ComponentProps<typeof DropdownMenu.Item> & { icon?: ReactNode; destructive?: boolean }) {
  return (
    <DropdownMenu.Item
      className={cn(
        'flex h-8 cursor-default items-center gap-2 rounded-md px-2 outline-none select-none data-[highlighted]:bg-hover [&_svg]:size-4 [&_svg]:text-muted',
        destructive && 'text-danger [&_svg]:text-danger',
        className,
      )}
      {...props}
    >
      {icon}
      <span className="min-w-0 flex-1 truncate">{children}</span>
    </DropdownMenu.Item>
  );
}

export function MenuLabel({ children }: { children: ReactNode }) {
  return (
    <DropdownMenu.Label className="px-2 pt-1.5 pb-1 text-xs font-medium text-muted">
      {children}
    </DropdownMenu.Label>
  );
}

export function MenuSeparator() {
  return <DropdownMenu.Separator className="my-1 h-px bg-line" />;
}

export function MenuSubTrigger({ className, ...props }: ComponentProps<typeof DropdownMenu.SubTrigger>) {
  return (
    <DropdownMenu.SubTrigger
      className={cn(
        'flex h-8 cursor-default items-center gap-2 rounded-md px-2 outline-none select-none data-[highlighted]:bg-hover data-[state=open]:bg-hover [&_svg]:size-4 [&_svg]:text-muted',
        className,
      )}
      {...props}
    />
  );
}

export function MenuSubContent({ className, ...props }: ComponentProps<typeof DropdownMenu.SubContent>) {
  return (
    <DropdownMenu.Portal>
      <DropdownMenu.SubContent
        className={cn(
          'z-50 min-w-44 rounded-lg border border-line bg-surface p-1 text-sm text-fg shadow-xl outline-none',
          className,
        )}
        {...props}
      />
    </DropdownMenu.Portal>
  );
}

let lastClosedAt = 0;

const justClosed = () => Date.now() - lastClosedAt < TOOLTIP_SKIP_DELAY_MS;

/**
 * Radix's tooltip with the spec's delays kept here rather than by a provider above the whole app (one
 * that arrived after the first rows would re-mount everything under it): each tooltip is its own, and
 * the last close time is shared. Focus opens it at once, as Radix does, and so does a pointer arriving
 * within 300 ms of another tooltip closing, in its own event as Radix's provider would.
 */
export function Tooltip({
  content,
  children,
  refocus,
}: {
  content: ReactNode;
  children: ReactNode;
  /** Set when the trigger drawn before this one had focus: this one takes it. */
  refocus?: { current: boolean };
}) {
  const [open, setOpen] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  const trigger = useRef<HTMLButtonElement>(null);
  const wait = () => window.clearTimeout(timer.current);
  const onOpenChange = (next: boolean) => {
    wait();
    if (!next) {
      if (open) lastClosedAt = Date.now();
      setOpen(false);
      return;
    }
    const focused = trigger.current !== null && trigger.current === document.activeElement;
    if (focused || justClosed()) setOpen(true);
    else timer.current = window.setTimeout(() => setOpen(true), TOOLTIP_DELAY_MS);
  };
  return (
    <RadixTooltip.Provider delayDuration={0}>
      <RadixTooltip.Root open={open} onOpenChange={onOpenChange}>
        <RadixTooltip.Trigger
          asChild
          ref={(el) => {
            trigger.current = el;
            if (el && refocus?.current) {
              refocus.current = false;
              el.focus();
            }
          }}
          onPointerMove={(event) => {
            if (event.pointerType !== 'touch' && !open && justClosed()) setOpen(true);
          }}
          // Radix tells nothing when the pointer leaves before the tooltip is open: the wait ends here.
          onPointerLeave={wait}
          onBlur={wait}
        >
          {children}
        </RadixTooltip.Trigger>
        <RadixTooltip.Portal>
          <RadixTooltip.Content
            sideOffset={6}
            className="z-50 rounded-md bg-primary px-2 py-1 text-xs text-primary-fg shadow-lg"
          >
            {content}
          </RadixTooltip.Content>
        </RadixTooltip.Portal>
      </RadixTooltip.Root>
    </RadixTooltip.Provider>
  );
}
