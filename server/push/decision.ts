// Who gets a push for a newly committed message: a pure function of the message, what is known of each
// channel member and the time, so every rule is tested on a fake clock (tests/unit/push-decision.test.ts).
// Activity, not an open socket, decides whether someone is "there": a tab left open on an idle desktop
// and a laptop shut just after the message both keep a socket (or its ghost) alive without anyone reading.
import type { ChannelPushLevel } from '../../schemas/protocol/index.ts';

/** Someone active in the message's channel this recently, on any device, is reading it: no push. */
export const ACTIVE_IN_CHANNEL_MS = 20_000;
/** @here reaches people who showed any activity this recently (they are "here"), not everyone. */
export const HERE_WINDOW_MS = 10 * 60_000;

export type PushReason = 'direct_message' | 'mention' | 'reply' | 'message';

export interface PushMessageFacts {
  channelId: string;
  channelType: 'public' | 'private' | 'direct_message';
  authorUserId: string | null;
  authorMemberId: string;
  /** Members named directly, or through a role or group they hold. */
  mentionedMemberIds: ReadonlySet<string>;
  everyone: boolean;
  here: boolean;
  /** The author of the message this one replies to. */
  repliedToMemberId: string | null;
}

/** A session's last sign of activity: where (null: the app was open, channel unknown) and when. */
export interface Activity {
  channelId: string | null;
  at: Date;
}

export interface RecipientFacts {
  memberId: string;
  userId: string;
  /** The membership's mute switch: nothing from this channel. */
  muted: boolean;
  /** The member's own level for the channel; null: the default. */
  level: ChannelPushLevel | null;
  dndUntil: Date | null;
  /** Every session's latest activity. */
  activity: readonly Activity[];
}

export interface PushDecision {
  memberId: string;
  userId: string;
  reason: PushReason;
}

/** The level that applies: muted means nothing; by default every message of a DM, mentions elsewhere. */
export function effectiveLevel(
  recipient: Pick<RecipientFacts, 'muted' | 'level'>,
  channelType: PushMessageFacts['channelType'],
): ChannelPushLevel {
  if (recipient.muted) return 'nothing';
  return recipient.level ?? (channelType === 'direct_message' ? 'all' : 'mentions');
}

function reasonFor(message: PushMessageFacts, r: RecipientFacts, now: number): PushReason | null {
  if (message.channelType === 'direct_message') return 'direct_message';
  if (message.mentionedMemberIds.has(r.memberId) || message.everyone) return 'mention';
  if (message.here && r.activity.some((a) => now - a.at.getTime() <= HERE_WINDOW_MS)) return 'mention';
  if (message.repliedToMemberId === r.memberId) return 'reply';
  return null;
}

export function decidePushes(
  message: PushMessageFacts,
  recipients: readonly RecipientFacts[],
  now: Date,
): PushDecision[] {
  const t = now.getTime();
  const out: PushDecision[] = [];
  for (const r of recipients) {
    if (r.memberId === message.authorMemberId || r.userId === message.authorUserId) continue;
    const level = effectiveLevel(r, message.channelType);
    if (level === 'nothing') continue;
    if (r.dndUntil && r.dndUntil.getTime() > t) continue;
    const reading = r.activity.some(
      (a) => a.channelId === message.channelId && t - a.at.getTime() <= ACTIVE_IN_CHANNEL_MS,
    );
    if (reading) continue;
    const reason = reasonFor(message, r, t) ?? (level === 'all' ? 'message' : null);
    if (reason) out.push({ memberId: r.memberId, userId: r.userId, reason });
  }
  return out;
}
