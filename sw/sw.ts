// Service worker: precaches the app shell so Lantern opens with the server down, and relays
// notification clicks and sounds to the open tabs (spec §3 message types).
/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
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

// The bundled emoji font's subsets (scripts/emoji-font.ts) are not precached: only a device without an
// emoji font of its own fetches them, and only those its messages use. Once fetched, they are kept, so
// emoji still draw offline.
registerRoute(
  ({ url }) => url.origin === self.location.origin && /^\/assets\/noto-color-emoji-/.test(url.pathname),
  new CacheFirst({ cacheName: 'lantern-emoji-font' }),
);

// A new build waits until a page's "A new version of Lantern is available" Reload asks it to take over
// (workbox-window's messageSkipWaiting, src/app/service-worker.ts): taking over under an open page would
// serve it chunks of another build. The first install has nothing to wait for and controls at once.
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

/**
 * The app badge (where supported): the person's unread total, which each push carries (the server counts
 * it after the message's commit). The open pages keep it up to date from their store (src/app/app-badge.ts).
 * A push without it (an older server) shows the number of notifications waiting instead.
 */
async function setBadge(unreadCount?: number): Promise<void> {
  const nav = self.navigator as Navigator & {
    setAppBadge?: (n?: number) => Promise<void>;
    clearAppBadge?: () => Promise<void>;
  };
  const n = unreadCount ?? (await self.registration.getNotifications()).length;
  await (n > 0 ? nav.setAppBadge?.(n) : nav.clearAppBadge?.())?.catch(() => undefined);
}

self.addEventListener('message', (event) => {
  const data = event.data as { type?: string } | null;
  if (data?.type === 'SKIP_WAITING') {
    void self.skipWaiting();
  } else if (data?.type === 'closeAllNotifications') {
    event.waitUntil(
      self.registration.getNotifications().then((list) => {
        for (const n of list) n.close();
      }),
    );
  } else if (data?.type === 'closeChannelNotifications') {
    // Opening a channel on this device clears its notifications (tagged with the channel id). The badge
    // follows from the page, whose store resets the channel's unread count.
    const channelId = (data as { channelId?: unknown }).channelId;
    if (typeof channelId !== 'string') return;
    event.waitUntil(
      self.registration.getNotifications({ tag: channelId }).then((list) => {
        for (const n of list) n.close();
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
  /** The person's unread total, for the app badge. */
  unreadCount?: number;
}

/**
 * The same fields from a Firebase registration (decision 0046): FCM hands the page's worker
 * `{data: {...}, from, fcmMessageId}`, every data value a string.
 */
function fromFcmData(data: Record<string, unknown>): PushFields {
  const text = (k: string) => (typeof data[k] === 'string' ? (data[k] as string) : undefined);
  const flag = (k: string) => text(k) === 'true';
  const count = Number(text('unreadCount'));
  const fields: PushFields = {
    isPwa: flag('isPwa'),
    requiresRefresh: flag('requiresRefresh'),
    idOnly: flag('idOnly'),
    ...(Number.isInteger(count) && count >= 0 && text('unreadCount') ? { unreadCount: count } : {}),
  };
  for (const k of ['title', 'body', 'channelId', 'clientId', 'messageId'] as const) {
    const v = text(k);
    if (v !== undefined) fields[k] = v;
  }
  return fields;
}

function readPush(event: PushEvent): PushFields {
  try {
    const json: unknown = event.data?.json();
    if (!json || typeof json !== 'object') return {};
    const data = (json as { data?: unknown; fcmMessageId?: unknown }).data;
    if ('fcmMessageId' in json && data && typeof data === 'object')
      return fromFcmData(data as Record<string, unknown>);
    return json as PushFields;
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
// still alerts (renotify). The app badge shows the unread total the push carries.
self.addEventListener('push', (event) => {
  const push = readPush(event);
  event.waitUntil(
    (async () => {
      // The badge first, foreground or not: the icon shows the count even while the page is in front.
      const count = typeof push.unreadCount === 'number' ? push.unreadCount : undefined;
      if (count !== undefined) await setBadge(count);
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
      if (count === undefined) await setBadge();
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
    // The badge is left to the page that opens the channel (its unread count resets there).
    openFromNotification(readClickData(event.notification.data)),
  );
});

// The browser replaced the subscription: the worker holds no session token, so the open pages send the
// new one (src/data/push.ts); with none open, the next start notices the changed endpoint.
self.addEventListener('pushsubscriptionchange', (event) => {
  (event as ExtendableEvent).waitUntil(tell({ type: 'PUSH_SUBSCRIPTION_CHANGED' }));
});
