// The emoji picker: a searchable grid of the curated set in a popover, for the composer and reactions.
// Radix focuses the search box (the first focusable element) when it opens.
import { Popover } from 'radix-ui';
import { type ReactNode, useState } from 'react';
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
  const found = searchEmoji(query);
  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setQuery('');
      }}
    >
      <Popover.Trigger asChild>{trigger}</Popover.Trigger>
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
