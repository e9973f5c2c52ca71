// Dropdown menu on Radix: keyboard navigable, styled like the rest of the shell (overlay-parts.tsx).
// Radix's parts load after a channel's first rows (overlays.ts, decision 0067). Until then the trigger is
// drawn here with the same attributes; pressed meanwhile, the menu opens as soon as the parts are in, and a
// trigger that had focus keeps it when Radix's takes its place.
import type { DropdownMenu } from 'radix-ui';
import { Slot } from 'radix-ui';
import {
  type ComponentProps,
  createContext,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  useContext,
  useRef,
  useState,
} from 'react';
import { requestOverlays, useOverlays } from './overlays.ts';

interface MenuState {
  open: boolean;
  setOpen: (open: boolean) => void;
  /** The drawn trigger had focus when Radix's replaced it. */
  hadFocus: { current: boolean };
}

const MenuContext = createContext<MenuState | null>(null);

type RootProps = ComponentProps<typeof DropdownMenu.Root>;

export function Menu({ open: openProp, onOpenChange, defaultOpen, children, ...props }: RootProps) {
  const parts = useOverlays();
  const [openState, setOpenState] = useState(defaultOpen ?? false);
  const open = openProp ?? openState;
  const setOpen = (next: boolean) => {
    if (openProp === undefined) setOpenState(next);
    onOpenChange?.(next);
  };
  const hadFocus = useRef(false);
  return (
    <MenuContext.Provider value={{ open, setOpen, hadFocus }}>
      {parts ? (
        <parts.DropdownMenu.Root open={open} onOpenChange={setOpen} {...props}>
          {children}
        </parts.DropdownMenu.Root>
      ) : (
        children
      )}
    </MenuContext.Provider>
  );
}

export function MenuTrigger({ asChild, ...props }: ComponentProps<typeof DropdownMenu.Trigger>) {
  const parts = useOverlays();
  const menu = useContext(MenuContext);
  if (parts) {
    return (
      <parts.DropdownMenu.Trigger
        asChild={asChild}
        {...props}
        ref={(el) => {
          if (el && menu?.hadFocus.current) {
            menu.hadFocus.current = false;
            el.focus();
          }
        }}
      />
    );
  }
  const open = menu?.open ?? false;
  const request = () => {
    if (props.disabled) return;
    menu?.setOpen(true);
    requestOverlays();
  };
  const Trigger = asChild ? Slot.Root : 'button';
  return (
    <Trigger
      type="button"
      aria-haspopup="menu"
      aria-expanded={open}
      data-state={open ? 'open' : 'closed'}
      {...(props as ComponentProps<'button'>)}
      onFocus={(event) => {
        if (menu) menu.hadFocus.current = true;
        props.onFocus?.(event as never);
      }}
      onBlur={(event) => {
        if (menu) menu.hadFocus.current = false;
        props.onBlur?.(event as never);
      }}
      onPointerDown={(event: PointerEvent<HTMLButtonElement>) => {
        props.onPointerDown?.(event as never);
        if (event.button === 0 && !event.ctrlKey) request();
      }}
      onKeyDown={(event: KeyboardEvent<HTMLButtonElement>) => {
        props.onKeyDown?.(event as never);
        if (['Enter', ' ', 'ArrowDown'].includes(event.key)) {
          event.preventDefault();
          request();
        }
      }}
    />
  );
}

export function MenuContent(props: ComponentProps<OverlayPart<'MenuContent'>>) {
  const parts = useOverlays();
  return parts ? <parts.MenuContent {...props} /> : null;
}

export function MenuItem(props: ComponentProps<OverlayPart<'MenuItem'>>) {
  const parts = useOverlays();
  return parts ? <parts.MenuItem {...props} /> : null;
}

export function MenuLabel({ children }: { children: ReactNode }) {
  const parts = useOverlays();
  return parts ? <parts.MenuLabel>{children}</parts.MenuLabel> : null;
}

export function MenuSeparator() {
  const parts = useOverlays();
  return parts ? <parts.MenuSeparator /> : null;
}

/** A submenu (Move to section): only ever rendered inside an open menu, so the parts are in. */
export function MenuSub(props: ComponentProps<typeof DropdownMenu.Sub>) {
  const parts = useOverlays();
  return parts ? <parts.DropdownMenu.Sub {...props} /> : null;
}

export function MenuSubTrigger(props: ComponentProps<OverlayPart<'MenuSubTrigger'>>) {
  const parts = useOverlays();
  return parts ? <parts.MenuSubTrigger {...props} /> : null;
}

export function MenuSubContent(props: ComponentProps<OverlayPart<'MenuSubContent'>>) {
  const parts = useOverlays();
  return parts ? <parts.MenuSubContent {...props} /> : null;
}

type OverlayPart<K extends keyof import('./overlays.ts').OverlayParts> =
  import('./overlays.ts').OverlayParts[K];
