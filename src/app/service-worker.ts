// Registers the Workbox service worker (sw/sw.ts) in production builds and answers its messages
// (spec §3 service-worker message types). Development runs without it so hot reload stays honest.
import { Workbox } from 'workbox-window';
import { requireClient } from '../data/client.ts';
import { isInAppBrowser } from './in-app-browser.ts';

/** Spec §9: an installed app waits this long after a notification click before refetching. */
export const PWA_CLICK_REFRESH_DELAY_MS = 2000;

export type ServiceWorkerMessage =
  | { type: 'PLAY_NOTIFICATION_SOUND' }
  | {
      type: 'NOTIFICATION_CLICKED';
      channelId?: string;
      clientId?: string;
      isPwa?: boolean;
      requiresRefresh?: boolean;
    };

export interface ServiceWorkerHooks {
  /** A notification was clicked: open its channel. */
  openChannel: (clientId: string | undefined, channelId: string) => void;
}

let registered = false;

/** Opening a channel closes its notifications on this device (they are tagged with the channel id). */
export function closeChannelNotifications(channelId: string): void {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.controller?.postMessage({ type: 'closeChannelNotifications', channelId });
}

export function registerServiceWorker(hooks: ServiceWorkerHooks): void {
  if (!import.meta.env.PROD || registered || isInAppBrowser()) return;
  registered = true;
  if (!('serviceWorker' in navigator)) {
    console.info('Service workers are not supported; the app will not open offline.');
    return;
  }
  const wb = new Workbox('/sw.js', { scope: '/' });
  wb.addEventListener('message', (event) => {
    const data = event.data as ServiceWorkerMessage | undefined;
    if (!data || typeof data !== 'object') return;
    if (data.type === 'PLAY_NOTIFICATION_SOUND') {
      playChime();
    } else if (data.type === 'NOTIFICATION_CLICKED' && data.channelId) {
      hooks.openChannel(data.clientId, data.channelId);
      // Spec §4: an installed app's store slept through what the push announced; once it is awake,
      // a forced refresh pulls the channels' first pages again.
      if (data.isPwa && data.requiresRefresh) {
        setTimeout(() => {
          void requireClient()
            .then(({ worker }) => worker.refresh('manual', true))
            .catch((error: unknown) => console.warn('Refresh after notification failed', error));
        }, PWA_CLICK_REFRESH_DELAY_MS);
      }
    }
  });
  wb.register().catch((error: unknown) => console.warn('Service worker registration failed', error));
}

/** A short two-note chime made with Web Audio, so no sound file has to be shipped or cached. */
function playChime(): void {
  try {
    const audio = new AudioContext();
    const gain = audio.createGain();
    gain.connect(audio.destination);
    gain.gain.setValueAtTime(0.0001, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.15, audio.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.35);
    for (const [i, freq] of [880, 1320].entries()) {
      const osc = audio.createOscillator();
      osc.frequency.value = freq;
      osc.connect(gain);
      osc.start(audio.currentTime + i * 0.08);
      osc.stop(audio.currentTime + 0.35);
    }
    setTimeout(() => void audio.close(), 500);
  } catch (error) {
    // Browsers refuse audio before a user gesture; a missed chime is not worth a notice.
    console.info('Notification sound not played', error);
  }
}
