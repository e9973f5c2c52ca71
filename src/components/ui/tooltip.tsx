// Tooltip with the spec §9 delays (open 700 ms, skip 300 ms): Radix's, from overlay-parts.tsx once the
// overlay parts have loaded after a channel's first rows (decision 0067); the trigger alone before that.
import type { ReactNode } from 'react';
import { useOverlays } from './overlays.ts';

export function Tooltip({ content, children }: { content: ReactNode; children: ReactNode }) {
  const parts = useOverlays();
  return parts ? <parts.Tooltip content={content}>{children}</parts.Tooltip> : children;
}
