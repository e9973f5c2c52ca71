// Registers the Workbox service worker (sw/sw.ts) in production builds and answers its messages
// (spec §3 service-worker message types). Development runs without it so hot reload stays honest.
import { Workbox } from 'workbox-window';
import { refetchFirstPage } from '../data/messages.ts';
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
/** The registration's Workbox, once registered (production builds only). */
let workbox: Workbox | null = null;

/** Opening a channel closes its notifications on this device (they are tagged with the channel id). */
export function closeChannelNotifications(channelId: string): void {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.controller?.postMessage({ type: 'closeChannelNotifications', channelId });
}

/** What a message from the service worker may set off; the real ones in production, a test's own in tests. */
export interface MessageEffects extends ServiceWorkerHooks {
  playSound: () => void;
  /** Spec §4: page 1 of the channel, forced. */
  refetchChannel: (channelId: string) => void;
  later: (run: () => void, ms: number) => void;
}

/** Answers one message from the service worker (spec §3 types). */
export function handleServiceWorkerMessage(data: unknown, effects: MessageEffects): void {
  if (!data || typeof data !== 'object') return;
  const message = data as ServiceWorkerMessage;
  if (message.type === 'PLAY_NOTIFICATION_SOUND') {
    effects.playSound();
  } else if (message.type === 'PUSH_RECEIVED') {
    effects.foregroundPush({
      title: String(message.title ?? ''),
      body: String(message.body ?? ''),
      ...(typeof message.channelId === 'string' ? { channelId: message.channelId } : {}),
      ...(typeof message.clientId === 'string' ? { clientId: message.clientId } : {}),
    });
  } else if (message.type === 'NOTIFICATION_CLICKED' && typeof message.channelId === 'string') {
    const channelId = message.channelId;
    effects.openChannel(typeof message.clientId === 'string' ? message.clientId : undefined, channelId);
    // Spec §4: an installed app's store slept through what the push announced; once it is awake, page 1
    // of that channel is fetched again.
    if (message.isPwa === true && message.requiresRefresh === true) {
      effects.later(() => effects.refetchChannel(channelId), PWA_CLICK_REFRESH_DELAY_MS);
    }
  }
}

export function registerServiceWorker(hooks: ServiceWorkerHooks): void {
  if (!import.meta.env.PROD || registered || isInAppBrowser()) return;
  registered = true;
  if (!('serviceWorker' in navigator)) {
    console.info('Service workers are not supported; the app will not open offline.');
    return;
  }
  const wb = new Workbox('/sw.js', { scope: '/' });
  const effects: MessageEffects = {
    ...hooks,
    playSound: () => void playNotificationSound(),
    refetchChannel: (channelId) =>
      void refetchFirstPage(channelId).catch((error: unknown) =>
        console.warn('Refetch after notification failed', error),
      ),
    later: (run, ms) => void setTimeout(run, ms),
  };
  // Straight from the container, not Workbox's 'message' event: Workbox only passes on messages from
  // a worker this page itself saw installing, so a page that loaded already controlled heard nothing.
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent) =>
    handleServiceWorkerMessage(event.data, effects),
  );
  workbox = wb;
  wb.register().catch((error: unknown) => console.warn('Service worker registration failed', error));
}

/** The server serves a new build: fetch its service worker now, so it is waiting by the time of Reload. */
export function checkForServiceWorkerUpdate(): void {
  workbox?.update().catch((error: unknown) => console.warn('Service worker update check failed', error));
}

/** Bounds every wait of the reload below: a worker that never answers must not keep the page from reloading. */
const UPDATE_WAIT_MS = 10_000;

function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  return Promise.race([work, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms))]);
}

/**
 * The banner's Reload (decision 0043): through workbox-window's waiting flow. A new service worker waits
 * (sw/sw.ts does not skip waiting by itself) until this asks it to take over; the page reloads once it
 * controls the page, so the reload is served the new build's files and not the old precache.
 */
export async function reloadToNewVersion(reload: () => void = () => window.location.reload()): Promise<void> {
  const wb = workbox;
  const registration = wb
    ? await navigator.serviceWorker.getRegistration().catch(() => undefined)
    : undefined;
  if (!wb || !registration) return reload();
  await within(
    wb.update().catch(() => undefined),
    UPDATE_WAIT_MS,
  );
  const installing = registration.installing;
  if (!registration.waiting && installing) {
    await within(
      new Promise<void>((resolve) =>
        installing.addEventListener('statechange', () => {
          if (installing.state !== 'installing') resolve();
        }),
      ),
      UPDATE_WAIT_MS,
    );
  }
  if (!registration.waiting) return reload();
  const controlling = new Promise<void>((resolve) =>
    navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }),
  );
  wb.messageSkipWaiting();
  await within(controlling, UPDATE_WAIT_MS);
  reload();
}
