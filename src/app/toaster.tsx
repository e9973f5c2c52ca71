// The root toast area (spec §2, §9): top-center, one toast at a time, close button, 4000 ms. Sonner loads
// after a channel's first rows, or with the first toast asked for before them (src/app/toast.ts).
import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { useAfterFirstRows } from '../first-screen/rows-painted.ts';
import { loadToasts, subscribeToastsWanted, toastsWanted } from './toast.ts';

export const TOAST_DURATION_MS = 4000;
export const TOAST_GAP_PX = 14;
export const TOAST_WIDTH_PX = 356;
export const TOAST_OFFSET_PX = 32;

const Sonner = lazy(() => loadToasts().then((m) => ({ default: m.Toaster })));

export function Toaster() {
  const afterRows = useAfterFirstRows();
  const wanted = useSyncExternalStore(subscribeToastsWanted, toastsWanted, () => false);
  useEffect(() => {
    if (afterRows) void loadToasts().catch(() => undefined);
  }, [afterRows]);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
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
    </Suspense>
  );
}
