// Modal dialog, as every screen opens one. Only an open dialog is rendered, and its Radix panel
// (dialog-panel.tsx, with Radix's focus trap and scroll lock) loads when the first dialog opens: a
// channel's first rows do not wait for it (decision 0067). Closing unmounts it; Radix's focus scope then
// gives focus back to what had it before.
import { lazy, Suspense } from 'react';
import { loadChunk } from '../../app/reload-guard.ts';
import type { DialogProps } from './dialog-panel.tsx';

export type { DialogProps } from './dialog-panel.tsx';

const DialogPanel = lazy(async () => ({
  default: (await loadChunk(() => import('./dialog-panel.tsx'))).DialogPanel,
}));

export function Dialog(props: DialogProps) {
  if (!props.open) return null;
  return (
    <Suspense fallback={null}>
      <DialogPanel {...props} />
    </Suspense>
  );
}
