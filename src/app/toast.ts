// Toasts without sonner on the first path: sonner (8 kB on the wire) loads with the first toast asked for,
// or once a channel's first rows are painted (at once on other pages; src/app/toaster.tsx). A toast asked
// for before it has loaded is shown when it has, in the order asked; sonner keeps toasts made before its
// Toaster subscribed. A load that fails (offline before the service worker holds the files) is tried again
// with the next toast, and never takes the page down. The calls are sonner's own, one per type of spec §4
// (`toast`, `.success`, `.info`, `.warning`, `.error`, `.loading`) and `.dismiss`. A loading toast never
// closes by itself: the same id given to a later toast replaces it, or `.dismiss` takes it away.
import type { ExternalToast, toast as sonnerToast } from 'sonner';
import { deferredModule } from './deferred-module.ts';

type Sonner = typeof import('sonner');
type Message = Parameters<typeof sonnerToast>[0];

/** Sonner, loaded once (unless it failed); the toast area (toaster.tsx) renders once it is in. */
export const sonner = deferredModule<Sonner>(() => import('sonner'));

function run(call: (toast: Sonner['toast']) => void): void {
  const loaded = sonner.current();
  if (loaded) call(loaded.toast);
  else
    void sonner.load().then(
      (module) => call(module.toast),
      (error: unknown) => console.warn('A notice could not be shown', error),
    );
}

export const toast = Object.assign(
  (message: Message, options?: ExternalToast): void => run((t) => t(message, options)),
  {
    success: (message: Message, options?: ExternalToast): void => run((t) => t.success(message, options)),
    info: (message: Message, options?: ExternalToast): void => run((t) => t.info(message, options)),
    warning: (message: Message, options?: ExternalToast): void => run((t) => t.warning(message, options)),
    error: (message: Message, options?: ExternalToast): void => run((t) => t.error(message, options)),
    loading: (message: Message, options?: ExternalToast): void => run((t) => t.loading(message, options)),
    dismiss: (id?: string | number): void => run((t) => t.dismiss(id)),
  },
);
