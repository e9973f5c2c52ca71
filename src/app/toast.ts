// Toasts without sonner on the first path: sonner (8 kB on the wire) loads with the first toast asked for,
// or once a channel's first rows are painted (at once on other pages; src/app/toaster.tsx). A toast asked
// for before it has loaded is shown when it has, in the order asked; sonner keeps toasts made before its
// Toaster subscribed. A load that fails (offline before the service worker holds the files) is tried again
// with the next toast, and never takes the page down. The calls are sonner's own (`toast`, `.success`,
// `.error`, `.warning`, `.dismiss`).
import type { ExternalToast, toast as sonnerToast } from 'sonner';

type Sonner = typeof import('sonner');
type Message = Parameters<typeof sonnerToast>[0];

let loading: Promise<Sonner> | null = null;
let loaded: Sonner | null = null;
const listeners = new Set<() => void>();

/** Starts loading sonner (once, unless it failed); listeners learn when it has loaded. */
export function loadToasts(): Promise<Sonner> {
  if (!loading) {
    loading = import('sonner').then(
      (module) => {
        loaded = module;
        for (const listener of listeners) listener();
        return module;
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
  }
  return loading;
}

/** For the toast area: sonner once loaded, else null. */
export function loadedToasts(): Sonner | null {
  return loaded;
}

export function subscribeToastsLoaded(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function run(call: (toast: Sonner['toast']) => void): void {
  if (loaded) call(loaded.toast);
  else
    void loadToasts().then(
      (module) => call(module.toast),
      (error: unknown) => console.warn('A notice could not be shown', error),
    );
}

export const toast = Object.assign(
  (message: Message, options?: ExternalToast): void => run((t) => t(message, options)),
  {
    success: (message: Message, options?: ExternalToast): void => run((t) => t.success(message, options)),
    error: (message: Message, options?: ExternalToast): void => run((t) => t.error(message, options)),
    warning: (message: Message, options?: ExternalToast): void => run((t) => t.warning(message, options)),
    dismiss: (id?: string | number): void => run((t) => t.dismiss(id)),
  },
);
