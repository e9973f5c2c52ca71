// Tooltip with the spec §9 delays (open 700 ms, skip 300 ms): Radix's, from overlay-parts.tsx once the
// overlay parts have loaded after a channel's first rows (decision 0067); the trigger alone before that,
// and a trigger that had focus keeps it when Radix's takes its place.
import { Slot } from 'radix-ui';
import { type ReactNode, useRef } from 'react';
import { useOverlays } from './overlays.ts';

export function Tooltip({ content, children }: { content: ReactNode; children: ReactNode }) {
  const parts = useOverlays();
  const hadFocus = useRef(false);
  if (parts) {
    return (
      <parts.Tooltip content={content} refocus={hadFocus}>
        {children}
      </parts.Tooltip>
    );
  }
  return (
    <Slot.Root
      onFocus={() => {
        hadFocus.current = true;
      }}
      onBlur={() => {
        hadFocus.current = false;
      }}
    >
      {children}
    </Slot.Root>
  );
}
