// Web Push (decision 0032): the public key browsers subscribe with, a session's subscription, a person's
// Do-not-disturb and their per-channel level, and the fields of a push message (spec §3).
import { z } from 'zod';
import { id, isoDate } from './primitives.ts';

/** base64url text whose decoded length is exactly `bytes` (RFC 8291 keys have fixed sizes). */
const base64urlBytes = (bytes: number, message: string) =>
  z
    .string()
    .max(Math.ceil((bytes * 4) / 3) + 2, { abort: true, message })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, { abort: true, message })
    .refine((v) => Buffer.from(v, 'base64url').length === bytes, message);

/** A browser's PushSubscription as `subscription.toJSON()` gives it. */
export const webPushSubscription = z.object({
  endpoint: z
    .string()
    .max(2048, { abort: true, message: 'The push endpoint is too long' })
    .refine(
      (v) => URL.canParse(v) && new URL(v).protocol === 'https:',
      'The push endpoint must be an https address',
    ),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    /** The browser's P-256 public key, uncompressed (65 bytes). */
    p256dh: base64urlBytes(65, 'The push key (p256dh) must be a P-256 public key in base64url'),
    /** The shared authentication secret (16 bytes). */
    auth: base64urlBytes(16, 'The push secret (auth) must be 16 bytes in base64url'),
  }),
});
export type WebPushSubscription = z.infer<typeof webPushSubscription>;

/**
 * PUT /api/users/sessions/fcm-token (spec §7's name): the subscription of this session's browser. A string
 * is a Firebase token, accepted only where Firebase messaging is configured.
 */
export const pushTokenBody = z.object({
  fcmToken: z.union([webPushSubscription, z.string().max(4096)]),
  /** The page runs as the installed app (display-mode standalone). */
  isPwa: z.boolean().optional(),
});
export type PushTokenBody = z.infer<typeof pushTokenBody>;

/** GET /api/push/config: what the client needs to subscribe (spec §7 vapidKey). */
export const pushConfigResponse = z.object({
  /** The VAPID public key, base64url, for PushManager.subscribe's applicationServerKey. */
  vapidKey: z.string(),
  /** Pushes carry ids only; the service worker fetches the text (operator setting PUSH_ID_ONLY). */
  idOnly: z.boolean(),
});
export type PushConfigResponse = z.infer<typeof pushConfigResponse>;

/** PUT /api/users/push-settings: Do-not-disturb until a time (null: off). */
export const pushSettingsBody = z.object({
  dndUntil: z
    .string()
    .max(40, { abort: true, message: 'Not a date' })
    .refine((v) => !Number.isNaN(Date.parse(v)), 'dndUntil must be a date such as 2030-01-01T09:00:00Z')
    .nullable(),
});
export const pushSettingsResponse = z.object({ dndUntil: isoDate.nullable() });
export type PushSettingsResponse = z.infer<typeof pushSettingsResponse>;

/** What pushes a member gets from one channel. */
export const channelPushLevel = z.enum(['all', 'mentions', 'nothing']);
export type ChannelPushLevel = z.infer<typeof channelPushLevel>;
export const channelPushLevelBody = z.object({ level: channelPushLevel });
export const channelPushLevelResponse = z.object({ channelId: id, level: channelPushLevel });

/**
 * GET /api/users/push-settings: what the person chose, as the server keeps it, so a device they sign in on
 * shows it: Do-not-disturb (null: off or over) and the levels set per channel (a channel without one has
 * the default: every message in a direct message, mentions elsewhere).
 */
export const pushPreferencesResponse = z.object({
  dndUntil: isoDate.nullable(),
  levels: z.array(channelPushLevelResponse),
});
export type PushPreferencesResponse = z.infer<typeof pushPreferencesResponse>;

/** The decrypted body of a push (spec §3 push message fields; messageId for id-only pushes). */
export const pushMessage = z.object({
  title: z.string(),
  body: z.string(),
  channelId: id,
  /** The workspace (institution) id. */
  clientId: id,
  messageId: id,
  isPwa: z.boolean(),
  /** The page should refetch the channel after the click (an installed app's store may be stale). */
  requiresRefresh: z.boolean(),
  /** True when title and body are left for the service worker to fill in from the server. */
  idOnly: z.boolean(),
  /** The recipient's unread messages in all, this one included, for the app badge (muted channels left out). */
  unreadCount: z.number().int().nonnegative(),
});
export type PushMessage = z.infer<typeof pushMessage>;
