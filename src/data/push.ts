// Web Push from the page's side (decision 0032): once the person allows notifications, this browser
// subscribes with the server's VAPID key and hands the subscription to the session
// (PUT /api/users/sessions/fcm-token). It is sent again every 7 days (spec §9), whenever the browser's
// subscription changed (the service worker's `pushsubscriptionchange` has no token to send it with), and
// it is deleted at sign-out. Social in-app browsers run without a service worker, hence without push.
import type { ChannelPushLevel, PushPreferencesResponse } from '../../schemas/protocol/push.ts';
import { isInAppBrowser } from '../app/in-app-browser.ts';
import type { Http } from '../store/http.ts';

/** Spec §9: the push token is refreshed every 7 days. */
export const PUSH_REFRESH_MS = 7 * 24 * 60 * 60_000;
const SENT_KEY = 'lantern.push.sent';

export type PushPermission = 'unsupported' | 'default' | 'denied' | 'granted';

/** What the settings page shows: whether this browser can do notifications, and what the person chose. */
export function pushPermission(): PushPermission {
  if (
    typeof window === 'undefined' ||
    !('Notification' in window) ||
    !('serviceWorker' in navigator) ||
    !('PushManager' in window) ||
    isInAppBrowser()
  ) {
    return 'unsupported';
  }
  return Notification.permission;
}

interface SentRecord {
  endpoint: string;
  at: number;
}

function readSent(): SentRecord | null {
  try {
    const value = JSON.parse(localStorage.getItem(SENT_KEY) ?? 'null') as SentRecord | null;
    return value && typeof value.endpoint === 'string' && typeof value.at === 'number' ? value : null;
  } catch {
    return null;
  }
}

function isStandalone(): boolean {
  return window.matchMedia?.('(display-mode: standalone)').matches === true;
}

/** base64url → the bytes PushManager.subscribe wants as applicationServerKey. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/**
 * Subscribes (or reuses the browser's subscription) and sends it to the server unless the same endpoint
 * went out less than 7 days ago. `force` sends regardless (the person just pressed the button).
 */
let syncing: Promise<void> | null = null;

export function syncPushSubscription(http: Http, force = false): Promise<void> {
  // One at a time: two callers at once (start, a permission change) would subscribe twice.
  syncing ??= syncOnce(http, force).finally(() => {
    syncing = null;
  });
  return syncing;
}

async function syncOnce(http: Http, force: boolean): Promise<void> {
  if (pushPermission() !== 'granted') return;
  const registration = await navigator.serviceWorker.ready;
  let subscription = await registration.pushManager.getSubscription();
  if (!subscription) {
    const { vapidKey } = await http.call('pushConfig');
    subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(vapidKey),
    });
  }
  const sent = readSent();
  const fresh = sent?.endpoint === subscription.endpoint && Date.now() - sent.at < PUSH_REFRESH_MS;
  if (fresh && !force) return;
  const json = subscription.toJSON();
  await http.call('savePushToken', {
    body: {
      fcmToken: {
        endpoint: subscription.endpoint,
        expirationTime: json.expirationTime ?? null,
        keys: {
          p256dh: json.keys?.p256dh ?? '',
          auth: json.keys?.auth ?? '',
        },
      },
      isPwa: isStandalone(),
    },
  });
  localStorage.setItem(SENT_KEY, JSON.stringify({ endpoint: subscription.endpoint, at: Date.now() }));
}

/** Calls back when the person changes the permission in the browser's own settings (where supported). */
export function watchPushPermission(onChange: (permission: PushPermission) => void): () => void {
  if (pushPermission() === 'unsupported' || !navigator.permissions?.query) return () => undefined;
  let status: PermissionStatus | null = null;
  let stopped = false;
  const listener = () => onChange(pushPermission());
  void navigator.permissions
    .query({ name: 'notifications' })
    .then((s) => {
      if (stopped) return;
      status = s;
      s.addEventListener('change', listener);
    })
    .catch(() => undefined);
  return () => {
    stopped = true;
    status?.removeEventListener('change', listener);
  };
}

/** From a click (iOS grants only from a gesture): ask, then subscribe. Returns the person's answer. */
export async function enablePush(http: Http): Promise<PushPermission> {
  if (pushPermission() === 'unsupported') return 'unsupported';
  const answer = await Notification.requestPermission();
  if (answer === 'granted') await syncPushSubscription(http, true);
  return answer;
}

/** At sign-out: the server forgets this session's subscription, the browser drops it. Never throws. */
export async function dropPushSubscription(http: Http): Promise<void> {
  localStorage.removeItem(SENT_KEY);
  if (pushPermission() === 'unsupported') return;
  try {
    const registration = await navigator.serviceWorker.getRegistration();
    const subscription = await registration?.pushManager.getSubscription();
    if (!subscription) return;
    await http.call('deletePushToken').catch(() => undefined);
    await subscription.unsubscribe();
  } catch (error) {
    console.info('Push subscription not removed', error);
  }
}

/**
 * Keeps the subscription current while the app runs: at start, once a day, and when the service worker
 * says the browser replaced it.
 */
export function installPushRefresh(http: Http, hasSession: () => Promise<boolean>): void {
  if (pushPermission() === 'unsupported') return;
  const run = async (force: boolean) => {
    if (!(await hasSession())) return;
    await syncPushSubscription(http, force).catch((error: unknown) =>
      console.info('Push subscription not refreshed', error),
    );
  };
  void run(false);
  setInterval(() => void run(false), 24 * 60 * 60_000);
  navigator.serviceWorker.addEventListener('message', (event) => {
    const data = event.data as { type?: string } | null;
    if (data?.type === 'PUSH_SUBSCRIPTION_CHANGED') void run(true);
  });
}

/**
 * The server keeps levels and Do-not-disturb (GET /api/users/push-settings reads them back); this device
 * remembers the last answer so a screen shows it at once, then corrects it from the server.
 */
const LEVEL_KEY = (channelId: string) => `lantern.push.level.${channelId}`;
const DND_KEY = 'lantern.push.dndUntil';

const defaultLevel = (isDirect: boolean): ChannelPushLevel => (isDirect ? 'all' : 'mentions');

/** Every level, checked against the schema's by type: read without zod, which the first rows do not load. */
const PUSH_LEVELS = { all: true, mentions: true, nothing: true } satisfies Record<ChannelPushLevel, true>;

/** The level last known here; a direct message always counts as addressed to you, other channels default to mentions. */
export function savedPushLevel(channelId: string, isDirect: boolean): ChannelPushLevel {
  const value = localStorage.getItem(LEVEL_KEY(channelId));
  if (value !== null && Object.hasOwn(PUSH_LEVELS, value)) return value as ChannelPushLevel;
  return defaultLevel(isDirect);
}

/** Do-not-disturb as last known here, if it has not run out. */
export function savedDnd(): Date | null {
  const value = localStorage.getItem(DND_KEY);
  const date = value ? new Date(value) : null;
  return date && date.getTime() > Date.now() ? date : null;
}

function rememberDnd(dndUntil: string | null): void {
  if (dndUntil) localStorage.setItem(DND_KEY, dndUntil);
  else localStorage.removeItem(DND_KEY);
}

/** What the server keeps, remembered here; what another device set shows on this one. */
export async function loadPushPreferences(http: Http): Promise<PushPreferencesResponse> {
  const prefs = await http.call('pushPreferences');
  rememberDnd(prefs.dndUntil);
  for (const { channelId, level } of prefs.levels) localStorage.setItem(LEVEL_KEY(channelId), level);
  return prefs;
}

/** The server's level for a channel (its default when none was set). */
export async function loadPushLevel(
  http: Http,
  channelId: string,
  isDirect: boolean,
): Promise<ChannelPushLevel> {
  const prefs = await loadPushPreferences(http);
  const level = prefs.levels.find((l) => l.channelId === channelId)?.level ?? defaultLevel(isDirect);
  localStorage.setItem(LEVEL_KEY(channelId), level);
  return level;
}

export async function setDnd(http: Http, until: Date | null): Promise<Date | null> {
  const { dndUntil } = await http.call('pushSettings', { body: { dndUntil: until?.toISOString() ?? null } });
  rememberDnd(dndUntil);
  return dndUntil ? new Date(dndUntil) : null;
}

export async function setPushLevel(
  http: Http,
  institutionId: string,
  channelId: string,
  level: ChannelPushLevel,
): Promise<ChannelPushLevel> {
  const answer = await http.call('channelPushLevel', {
    params: { id: institutionId, channelId },
    body: { level },
  });
  localStorage.setItem(LEVEL_KEY(channelId), answer.level);
  return answer.level;
}
