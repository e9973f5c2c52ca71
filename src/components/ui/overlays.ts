// Radix's menus, tooltips and popovers (overlay-parts.tsx, with their layers, popper and floating-ui) are
// not among a channel's first scripts (decision 0067): they load after its first rows, or at once on any
// other page, and sooner when a menu or picker is opened before that. Until then menu.tsx, tooltip.tsx and
// the emoji picker draw their triggers themselves; a trigger pressed meanwhile opens once the parts are in.
import { deferredModule, useDeferredModule } from '../../app/deferred-module.ts';
import { afterFirstRows } from '../../first-screen/rows-painted.ts';

export type OverlayParts = typeof import('./overlay-parts.tsx');

const overlayParts = deferredModule<OverlayParts>(() => import('./overlay-parts.tsx'));

/** The parts once loaded; undefined before (the caller draws its own trigger). */
export function useOverlays(): OverlayParts | undefined {
  return useDeferredModule(overlayParts);
}

/** Asks for the parts on behalf of a trigger pressed before they came. */
export function requestOverlays(): void {
  overlayParts.load().catch((error: unknown) => console.warn('Menus could not be loaded', error));
}

if (typeof window !== 'undefined') afterFirstRows(requestOverlays);
