// The emoji picker: a searchable grid of the curated set in a popover, for the composer and reactions.
// Radix focuses the search box (the first focusable element) when it opens. Radix's popover comes with the
// overlay parts after a channel's first rows (decision 0067); the trigger pressed before opens it then.
import { Slot } from 'radix-ui';
import { type ReactNode, useRef, useState } from 'react';
import { requestOverlays, useOverlays } from '../ui/overlays.ts';
import { searchEmoji } from './emoji-data.ts';

export function EmojiPicker({
  trigger,
  onPick,
  label = 'Emoji',
  align = 'start',
}: {
  trigger: ReactNode;
  onPick: (char: string) => void;
  label?: string;
  align?: 'start' | 'end' | 'center';
}) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const parts = useOverlays();
  const hadFocus = useRef(false);
  if (!parts) {
    return (
      <Slot.Root
        aria-haspopup="dialog"
        aria-expanded={open}
        data-state={open ? 'open' : 'closed'}
        onFocus={() => {
          hadFocus.current = true;
        }}
        onBlur={() => {
          hadFocus.current = false;
        }}
        onClick={() => {
          setOpen(true);
          requestOverlays();
        }}
      >
        {trigger}
      </Slot.Root>
    );
  }
  const { Popover } = parts;
  const found = open ? searchEmoji(query) : [];
  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setQuery('');
      }}
    >
      <Popover.Trigger
        asChild
        ref={(el) => {
          // The trigger drawn before the parts came had focus: Radix's keeps it.
          if (el && hadFocus.current) {
            hadFocus.current = false;
            el.focus();
          }
        }}
      >
        {trigger}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          side="top"
          align={align}
          sideOffset={6}
          aria-label={label}
          className="z-50 w-72 rounded-lg border border-line bg-surface p-2 shadow-xl outline-none"
          onCloseAutoFocus={(e) => e.preventDefault()}
        >
          <input
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Search emoji"
            aria-label="Search emoji"
            className="mb-2 h-8 w-full rounded-md border border-line bg-surface-2 px-2 text-[13px] outline-none focus:border-accent"
          />
          {found.length === 0 ? (
            <p className="px-1 py-3 text-center text-[13px] text-muted">No emoji found</p>
          ) : (
            <div className="grid max-h-52 grid-cols-8 gap-0.5 overflow-y-auto">
              {found.map((e) => (
                <button
                  key={e.char}
                  type="button"
                  title={e.name}
                  aria-label={e.name}
                  onClick={() => {
                    onPick(e.char);
                    setOpen(false);
                    setQuery('');
                  }}
                  className="flex size-8 items-center justify-center rounded-md text-lg hover:bg-hover"
                >
                  {e.char}
                </button>
              ))}
            </div>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
