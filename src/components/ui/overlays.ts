// Radix's menus, tooltips and popovers (overlay-parts.tsx, with their layers, popper and floating-ui) are
// not among a channel's first scripts (decision 0067): they load after its first rows, or at once on any
// other page, and sooner when a menu or picker is opened before that. Until then menu.tsx, tooltip.tsx and
// the emoji picker draw their triggers themselves; a trigger pressed meanwhile opens once the parts are in.
import { useSyncExternalStore } from 'react';
import { afterFirstRows } from '../../first-screen/rows-painted.ts';

export type OverlayParts = typeof import('./overlay-parts.tsx');

let parts: OverlayParts | undefined;
let loading: Promise<OverlayParts> | undefined;
const listeners = new Set<() => void>();

/** Loads the parts once; a load that fails is tried again by the next caller. */
export function loadOverlays(): Promise<OverlayParts> {
  loading ??= import('./overlay-parts.tsx').then(
    (module) => {
      parts = module;
      for (const listener of listeners) listener();
      return module;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const current = () => parts;

/** The parts once loaded; undefined before (the caller draws its own trigger). */
export function useOverlays(): OverlayParts | undefined {
  return useSyncExternalStore(subscribe, current, current);
}

/** Asks for the parts on behalf of a trigger pressed before they came. */
export function requestOverlays(): void {
  loadOverlays().catch((error: unknown) => console.warn('Menus could not be loaded', error));
}

if (typeof window !== 'undefined') afterFirstRows(requestOverlays);
