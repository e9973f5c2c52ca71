// The notification sound (spec §9): message-received.mp3, preloaded at start together with a silent
// file that is played on the first user gesture, because browsers (Safari above all) only let a page
// play audio after a gesture has "unlocked" it once. Played for the service worker's
// PLAY_NOTIFICATION_SOUND and for a push that arrives while Lantern is in the foreground.

export const NOTIFICATION_SOUND_URL = '/message-received.mp3';
export const SILENT_SOUND_URL = '/silent.mp3';

let chime: HTMLAudioElement | null = null;
let enabled = true;
let started = false;

/** Follows the device setting `playNotificationSound`. */
export function setNotificationSoundEnabled(on: boolean): void {
  enabled = on;
}

/** Preloads both files and unlocks audio on the first pointer or key press; safe to call twice. */
export function preloadNotificationSound(): void {
  if (started || typeof Audio === 'undefined') return;
  started = true;
  chime = new Audio(NOTIFICATION_SOUND_URL);
  chime.preload = 'auto';
  const silent = new Audio(SILENT_SOUND_URL);
  silent.preload = 'auto';
  const unlock = () => {
    window.removeEventListener('pointerdown', unlock, true);
    window.removeEventListener('keydown', unlock, true);
    void silent.play().catch(() => undefined);
  };
  window.addEventListener('pointerdown', unlock, true);
  window.addEventListener('keydown', unlock, true);
}

/** Plays the chime unless switched off; resolves false when nothing was played. */
export async function playNotificationSound(): Promise<boolean> {
  if (!enabled) return false;
  preloadNotificationSound();
  if (!chime) return false;
  try {
    chime.currentTime = 0;
    await chime.play();
    return true;
  } catch (error) {
    // Refused before any gesture: a missed chime is not worth a notice.
    console.info('Notification sound not played', error);
    return false;
  }
}
