// Registers the Workbox service worker (sw/sw.ts) in production builds and answers its messages
// (spec §3 service-worker message types). Development runs without it so hot reload stays honest.
import { Workbox } from 'workbox-window';
import { requireClient } from '../data/client.ts';
import { isInAppBrowser } from './in-app-browser.ts';
import { playNotificationSound } from './notification-sound.ts';

/** A push that arrived while this page had focus (sw/sw.ts, decision 0034). */
export interface ForegroundPush {
  title: string;
  body: string;
  channelId?: string;
  clientId?: string;
}

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
    }
  | ({ type: 'PUSH_RECEIVED' } & ForegroundPush);

export interface ServiceWorkerHooks {
  /** A notification was clicked: open its channel. */
  openChannel: (clientId: string | undefined, channelId: string) => void;
  /** A push arrived while this page was in the foreground. */
  foregroundPush: (push: ForegroundPush) => void;
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
  // Straight from the container, not Workbox's 'message' event: Workbox only passes on messages from
  // a worker this page itself saw installing, so a page that loaded already controlled heard nothing.
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
    const data = event.data as ServiceWorkerMessage | undefined;
    if (!data || typeof data !== 'object') return;
    if (data.type === 'PLAY_NOTIFICATION_SOUND') {
      void playNotificationSound();
    } else if (data.type === 'PUSH_RECEIVED') {
      hooks.foregroundPush({
        title: String(data.title ?? ''),
        body: String(data.body ?? ''),
        ...(typeof data.channelId === 'string' ? { channelId: data.channelId } : {}),
        ...(typeof data.clientId === 'string' ? { clientId: data.clientId } : {}),
      });
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
