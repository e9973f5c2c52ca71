// The app's toasts (spec §2, §9), with sonner's API: sonner is loaded with the first toast or after the
// first rows, not with the page, so the channel route's first path stays without it (decision 0058).
// Calls made before it has loaded run in order once it has; sonner's area shows toasts that were raised
// before it mounted.
import type { toast as sonnerToast } from 'sonner';

type Sonner = typeof sonnerToast;
type Loaded = typeof import('sonner');

let loaded: Loaded | undefined;
let loading: Promise<Loaded> | undefined;
const wantedListeners = new Set<() => void>();

/** Loads sonner once; the toast area (src/app/deferred-toaster.tsx) hears that a toast is waiting. */
export function loadSonner(): Promise<Loaded> {
  if (!loading) {
    loading = import('sonner').then((module) => {
      loaded = module;
      return module;
    });
    for (const listener of wantedListeners) listener();
  }
  return loading;
}

/** True once anything asked for sonner: the toast area mounts then at the latest. */
export function sonnerWanted(): boolean {
  return loading !== undefined;
}

export function onSonnerWanted(listener: () => void): () => void {
  wantedListeners.add(listener);
  return () => wantedListeners.delete(listener);
}

/** Runs at once when sonner is here, else in call order after it has loaded. */
function withSonner(run: (toast: Sonner) => void): void {
  if (loaded) run(loaded.toast);
  else
    void loadSonner()
      .then((module) => run(module.toast))
      .catch((error: unknown) => console.error('The toast area could not be loaded', error));
}

type Message = Parameters<Sonner>[0];
type Options = Parameters<Sonner>[1];

export const toast = Object.assign(
  (message: Message, options?: Options): void => withSonner((t) => t(message, options)),
  {
    success: (message: Message, options?: Options): void => withSonner((t) => t.success(message, options)),
    error: (message: Message, options?: Options): void => withSonner((t) => t.error(message, options)),
    warning: (message: Message, options?: Options): void => withSonner((t) => t.warning(message, options)),
    dismiss: (id?: string | number): void => withSonner((t) => t.dismiss(id)),
  },
);
