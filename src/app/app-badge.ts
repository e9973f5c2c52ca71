// The app badge (Badging API, where supported: installed apps on desktop Chromium, iOS 16.4+ home-screen
// apps): the person's unread total across every workspace in the store, muted channels left out (the same
// count the server puts in each push for the service worker, server/push/unread-total.ts). Set whenever the
// total changes, cleared at zero and when the signed-in app goes away (sign-out).
import { useEffect } from 'react';
import { combineLatest, distinctUntilChanged, map } from 'rxjs';
import type { ChannelMemberDoc } from '../../schemas/collections.ts';
import type { InstitutionWithMember } from '../../schemas/protocol/index.ts';
import { useObservable } from '../data/live-query.ts';

/** The unread messages of the person's own memberships (one member id per workspace), muted ones left out. */
export function unreadTotal(
  institutions: readonly { member: { id: string } }[],
  memberships: readonly Pick<ChannelMemberDoc, 'memberId' | 'unreadCount' | 'muted'>[],
): number {
  const mine = new Set(institutions.map((i) => i.member.id));
  let total = 0;
  for (const m of memberships) if (mine.has(m.memberId) && !m.muted) total += m.unreadCount;
  return total;
}

type BadgingNavigator = Navigator & {
  setAppBadge?: (n?: number) => Promise<void>;
  clearAppBadge?: () => Promise<void>;
};

function showBadge(n: number): void {
  const nav = navigator as BadgingNavigator;
  // Refused where the app is not installed or badges are off: nothing to tell the person.
  void (n > 0 ? nav.setAppBadge?.(n) : nav.clearAppBadge?.())?.catch(() => undefined);
}

export function useAppBadge(): void {
  const total = useObservable(
    (c) =>
      combineLatest([c.db.institutions.find().$, c.db.channelMembers.find().$]).pipe(
        map(([institutions, memberships]) =>
          unreadTotal(
            institutions.map((d) => d.toJSON() as InstitutionWithMember),
            memberships.map((d) => d.toJSON() as ChannelMemberDoc),
          ),
        ),
        distinctUntilChanged(),
      ),
    [],
  );
  useEffect(() => {
    if (total !== undefined) showBadge(total);
  }, [total]);
  useEffect(() => () => showBadge(0), []);
}
