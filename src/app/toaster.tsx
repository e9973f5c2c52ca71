// The root toast area (spec §2, §9): top-center, one toast at a time, close button, 4000 ms. Sonner loads
// after a channel's first rows (at once on any other page), or with the first toast asked for before them
// (src/app/toast.ts); the area appears once it has loaded.
import { useEffect } from 'react';
import { afterFirstRows } from '../first-screen/rows-painted.ts';
import { useDeferredModule } from './deferred-module.ts';
import { sonner as sonnerModule } from './toast.ts';

export const TOAST_DURATION_MS = 4000;
export const TOAST_GAP_PX = 14;
export const TOAST_WIDTH_PX = 356;
export const TOAST_OFFSET_PX = 32;

export function Toaster() {
  const sonner = useDeferredModule(sonnerModule);
  useEffect(() => {
    afterFirstRows(
      () =>
        void sonnerModule
          .load()
          .catch((error: unknown) => console.warn('Notices will load with the first one', error)),
    );
  }, []);
  if (!sonner) return null;
  const Sonner = sonner.Toaster;
  return (
    <Sonner
      position="top-center"
      visibleToasts={1}
      closeButton
      duration={TOAST_DURATION_MS}
      gap={TOAST_GAP_PX}
      offset={TOAST_OFFSET_PX}
      mobileOffset={12}
      hotkey={['altKey', 'KeyT']}
      theme="system"
      style={{ '--width': `${TOAST_WIDTH_PX}px` } as React.CSSProperties}
      toastOptions={{
        classNames: {
          toast: 'font-sans !rounded-lg !border-line !shadow-lg',
        },
      }}
    />
  );
}
