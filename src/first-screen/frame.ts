// What the boot script and the app agree on about the picture of the first screen.

/** The screens a picture is kept of: a channel (the screen a reload most often lands on). */
export const CHANNEL_PATH = /^\/client\/[^/]+\/channel\/[^/]+$/;
/** Spec §9: desktop from 768 px; a picture is shown only on the side of it where it was taken. */
export const DESKTOP_MIN_WIDTH = 768;
export const FIRST_SCREEN_ID = 'first-screen';
/** Set on <html> once the app has painted: a picture read later is not shown. */
const DISMISSED = 'firstScreenDone';

export function isDismissed(): boolean {
  return document.documentElement.dataset[DISMISSED] === 'true';
}

/** The app has painted: the picture goes, and one still being read is not shown. */
export function dismissFirstScreen(): void {
  document.documentElement.dataset[DISMISSED] = 'true';
  document.getElementById(FIRST_SCREEN_ID)?.remove();
}
