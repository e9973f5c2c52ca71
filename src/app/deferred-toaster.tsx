// The toast area, mounted once the channel's first rows are painted or a toast is raised, whichever comes
// first: sonner is not on the first rows' path (decision 0058). It takes no room on the page, so nothing
// stands in for it meanwhile; sonner shows a toast raised before it mounted.
import { type ComponentType, useEffect, useState, useSyncExternalStore } from 'react';
import { useAfterFirstRows } from '../first-screen/rows-painted.ts';
import { onSonnerWanted, sonnerWanted } from './toast.ts';

export function DeferredToaster() {
  const afterRows = useAfterFirstRows();
  const wanted = useSyncExternalStore(onSonnerWanted, sonnerWanted);
  const [Area, setArea] = useState<ComponentType | null>(null);
  const due = afterRows || wanted;
  useEffect(() => {
    if (!due) return;
    let live = true;
    // A failed load leaves the page without toasts rather than replacing it with the error screen.
    import('./toaster.tsx')
      .then((module) => live && setArea(() => module.Toaster))
      .catch((error: unknown) => console.error('The toast area could not be loaded', error));
    return () => {
      live = false;
    };
  }, [due]);
  return Area ? <Area /> : null;
}
