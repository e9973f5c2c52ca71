// Service worker: precaches the app shell so Lantern opens with the server down, and relays
// notification clicks and sounds to the open tabs (spec §3 message types).
/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { storedNotificationText } from './stored-message.ts';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
};

// The build's file list, injected by vite-plugin-pwa (injectManifest).
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// A page load of /signin gets the standalone sign-in page, as from the server (decision 0036).
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('signin.html'), { allowlist: [/^\/signin(?:$|\?)/] }),
);
// Every other in-app navigation gets the cached index.html (the SPA routes itself); API and socket paths
// must reach the network so a dead server shows as offline instead of as an app page. So must the LTI
// tool's server pages (login initiation, registration, key set); only the launch page is the app's.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), {
    denylist: [/^\/api\//, /^\/socket\.io\//, /^\/lti\/(?!launch(?:$|\?))/],
  }),
);

// A new build takes over at once: the shell is static and the store's data lives in IndexedDB.
self.addEventListener('install', () => {
  void self.skipWaiting();
});
clientsClaim();

type ToClients =
  | { type: 'PLAY_NOTIFICATION_SOUND' }
  | { type: 'PUSH_SUBSCRIPTION_CHANGED' }
  | {
      type: 'NOTIFICATION_CLICKED';
      channelId?: string;
      clientId?: string;
      isPwa?: boolean;
      requiresRefresh?: boolean;
    }
  | { type: 'PUSH_RECEIVED'; title: string; body: string; channelId?: string; clientId?: string };

async function tell(message: ToClients): Promise<readonly WindowClient[]> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const w of windows) w.postMessage(message);
  return windows;
}

/** The app badge (where supported) counts the notifications still waiting on this device. */
async function setBadge(): Promise<void> {
  const nav = self.navigator as Navigator & { setAppBadge?: (n: number) => Promise<void> };
  const waiting = await self.registration.getNotifications();
  await nav.setAppBadge?.(waiting.length).catch(() => undefined);
}

self.addEventListener('message', (event) => {
  const data = event.data as { type?: string } | null;
  if (data?.type === 'closeAllNotifications') {
    event.waitUntil(
      self.registration.getNotifications().then((list) => {
        for (const n of list) n.close();
      }),
    );
  } else if (data?.type === 'closeChannelNotifications') {
    // Opening a channel on this device clears its notifications (tagged with the channel id).
    const channelId = (data as { channelId?: unknown }).channelId;
    if (typeof channelId !== 'string') return;
    event.waitUntil(
      self.registration.getNotifications({ tag: channelId }).then(async (list) => {
        for (const n of list) n.close();
        await setBadge();
      }),
    );
  } else if (data?.type === 'PLAY_NOTIFICATION_SOUND') {
    event.waitUntil(tell({ type: 'PLAY_NOTIFICATION_SOUND' }));
  }
});

// ── Web Push (decision 0032) ──
/** The push message fields (spec §3) as server/push/payload.ts writes them. */
interface PushFields {
  title?: string;
  body?: string;
  channelId?: string;
  clientId?: string;
  messageId?: string;
  isPwa?: boolean;
  requiresRefresh?: boolean;
  idOnly?: boolean;
}

function readPush(event: PushEvent): PushFields {
  try {
    const json: unknown = event.data?.json();
    return json && typeof json === 'object' ? (json as PushFields) : {};
  } catch {
    return {};
  }
}

/** The Lantern window the person is looking at, if any (decision 0034). */
async function focusedWindow(): Promise<WindowClient | undefined> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  return windows.find((w) => w.focused && w.visibilityState === 'visible');
}

// A push while a Lantern page has focus goes to that page instead (decision 0034): it shows a toast
// unless the channel is open, and plays the sound; a system notification on top would alert twice
// (browsers only insist on one when no page of the site is in the foreground). Otherwise every push
// shows a notification, one per channel: a newer one replaces the channel's earlier one (tag) and
// still alerts (renotify). The app badge counts what is waiting.
self.addEventListener('push', (event) => {
  const push = readPush(event);
  event.waitUntil(
    (async () => {
      // An id-only push (PUSH_ID_ONLY) carries no text: the store has it, or at least the channel's name.
      const { title, body } =
        push.idOnly || !push.title
          ? await storedNotificationText(push.channelId, push.messageId)
          : { title: push.title, body: push.body ?? '' };
      const foreground = await focusedWindow();
      if (foreground) {
        const message: ToClients = {
          type: 'PUSH_RECEIVED',
          title,
          body,
          ...(push.channelId ? { channelId: push.channelId } : {}),
          ...(push.clientId ? { clientId: push.clientId } : {}),
        };
        foreground.postMessage(message);
        return;
      }
      await self.registration.showNotification(title, {
        body,
        icon: '/icons/icon-192.png',
        // Android draws the badge as a silhouette in the status bar: white on transparent.
        badge: '/icons/badge-96.png',
        ...(push.channelId ? { tag: push.channelId, renotify: true } : {}),
        data: {
          channelId: push.channelId,
          clientId: push.clientId,
          messageId: push.messageId,
          isPwa: push.isPwa ?? false,
          requiresRefresh: push.requiresRefresh ?? false,
        },
      } as NotificationOptions);
      await setBadge();
    })(),
  );
});

/** What a notification keeps for its click (set by the push handler above). */
interface ClickData {
  channelId?: string;
  clientId?: string;
  isPwa?: boolean;
  requiresRefresh?: boolean;
}

function readClickData(data: unknown): ClickData {
  const d = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
  return {
    ...(typeof d.channelId === 'string' ? { channelId: d.channelId } : {}),
    ...(typeof d.clientId === 'string' ? { clientId: d.clientId } : {}),
    isPwa: d.isPwa === true,
    requiresRefresh: d.requiresRefresh === true,
  };
}

/**
 * A click on a notification (spec §4): an open Lantern window opens the channel itself, in place, so its
 * store, socket and drafts stay (NOTIFICATION_CLICKED; an installed app also refetches the channel), and
 * comes to the front; with no window open, a new one starts on the channel. Only one window acts: the
 * one the person looked at last, not every tab at once.
 */
async function openFromNotification(data: ClickData): Promise<void> {
  const url = data.clientId && data.channelId ? `/client/${data.clientId}/channel/${data.channelId}` : '/';
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const target =
    windows.find((w) => w.focused) ?? windows.find((w) => w.visibilityState === 'visible') ?? windows[0];
  if (!target) {
    await self.clients.openWindow(url);
    return;
  }
  // The message first: were focusing refused, the window still shows the channel when next looked at.
  const message: ToClients = { type: 'NOTIFICATION_CLICKED', ...data };
  target.postMessage(message);
  await target.focus();
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(
    (async () => {
      await openFromNotification(readClickData(event.notification.data));
      await setBadge();
    })(),
  );
});

// The browser replaced the subscription: the worker holds no session token, so the open pages send the
// new one (src/data/push.ts); with none open, the next start notices the changed endpoint.
self.addEventListener('pushsubscriptionchange', (event) => {
  (event as ExtendableEvent).waitUntil(tell({ type: 'PUSH_SUBSCRIPTION_CHANGED' }));
});
