// Settings → Notifications: whether this browser can notify and what the person chose (spec §8 texts),
// a button that asks from the click itself (iOS grants only from a gesture) and then subscribes, and
// Do-not-disturb for an hour or until tomorrow morning.
import { BellOff, BellRing } from 'lucide-react';
import { useEffect, useState } from 'react';
import { notifyError } from '../../app/notify.ts';
import { requireClient } from '../../data/client.ts';
import {
  enablePush,
  loadPushPreferences,
  type PushPermission,
  pushPermission,
  setDnd as saveDnd,
  savedDnd,
  syncPushSubscription,
  watchPushPermission,
} from '../../data/push.ts';
import { Button } from '../ui/button.tsx';

const PERMISSION_TEXT: Record<PushPermission, string | null> = {
  unsupported: 'This browser does not support web notification',
  denied: 'You have denied notification permission. To re-enable, go to browser settings > Notifications.',
  granted: "You've enabled notifications. You'll now receive push notification updates.",
  default: null,
};

function tomorrowMorning(): Date {
  const d = new Date();
  d.setDate(d.getDate() + 1);
  d.setHours(8, 0, 0, 0);
  return d;
}

export function NotificationsSection() {
  const [permission, setPermission] = useState<PushPermission>(pushPermission);
  const [asking, setAsking] = useState(false);
  const [dnd, setDnd] = useState<Date | null>(savedDnd);
  const [savingDnd, setSavingDnd] = useState(false);

  // The person may change the permission in the browser's own settings while this page is open; once it
  // is granted this browser subscribes (a no-op when the subscription went out recently).
  useEffect(() => {
    if (permission !== 'granted') return;
    void requireClient()
      .then(({ http }) => syncPushSubscription(http))
      .catch((error: unknown) => console.info('Push subscription not made', error));
  }, [permission]);
  // Do-not-disturb may have been set on another device: the server's answer replaces the remembered one.
  useEffect(() => {
    let stale = false;
    void requireClient()
      .then(({ http }) => loadPushPreferences(http))
      .then(() => {
        if (!stale) setDnd(savedDnd());
      })
      .catch((error: unknown) => console.info('Push settings not read', error));
    return () => {
      stale = true;
    };
  }, []);
  useEffect(() => {
    const sync = () => setPermission(pushPermission());
    document.addEventListener('visibilitychange', sync);
    const stop = watchPushPermission(setPermission);
    return () => {
      document.removeEventListener('visibilitychange', sync);
      stop();
    };
  }, []);

  const ask = () => {
    setAsking(true);
    void requireClient()
      .then(({ http }) => enablePush(http))
      .then(setPermission)
      .catch((error: unknown) => {
        setPermission(pushPermission());
        notifyError(error);
      })
      .finally(() => setAsking(false));
  };

  const setDndUntil = (until: Date | null) => {
    setSavingDnd(true);
    void requireClient()
      .then(({ http }) => saveDnd(http, until))
      .then(setDnd)
      .catch(notifyError)
      .finally(() => setSavingDnd(false));
  };

  const text = PERMISSION_TEXT[permission];
  return (
    <section aria-label="Notifications">
      <h2 className="mb-1 text-xs font-semibold tracking-wide text-muted uppercase">Notifications</h2>
      <div className="divide-y divide-line rounded-lg border border-line bg-surface">
        <div className="flex flex-wrap items-start gap-3 px-4 py-3">
          <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-accent-soft text-accent-fg">
            {permission === 'granted' ? (
              <BellRing className="size-4" aria-hidden />
            ) : (
              <BellOff className="size-4" aria-hidden />
            )}
          </span>
          <div className="min-w-0 flex-1 basis-48">
            <p className="text-sm font-medium">Push notifications</p>
            <p className="text-[13px] text-muted" data-testid="push-permission">
              {text ?? 'Get a notification when someone mentions you or sends you a direct message.'}
            </p>
          </div>
          {permission === 'default' ? (
            <Button size="sm" loading={asking} onClick={ask} className="ml-11 sm:ml-0">
              Enable notifications
            </Button>
          ) : null}
        </div>
        <div className="flex flex-wrap items-center gap-3 px-4 py-3">
          <div className="min-w-0 flex-1 basis-56">
            <p className="text-sm font-medium">Do not disturb</p>
            <p className="text-[13px] text-muted" data-testid="dnd-state">
              {dnd
                ? `Paused until ${dnd.toLocaleString(undefined, { weekday: 'short', hour: '2-digit', minute: '2-digit' })}`
                : 'No push notifications on any device while it is on.'}
            </p>
          </div>
          <div className="flex gap-2">
            {dnd ? (
              <Button size="sm" variant="outline" disabled={savingDnd} onClick={() => setDndUntil(null)}>
                Turn off
              </Button>
            ) : (
              <>
                <Button
                  size="sm"
                  variant="outline"
                  disabled={savingDnd}
                  onClick={() => setDndUntil(new Date(Date.now() + 60 * 60_000))}
                >
                  1 hour
                </Button>
                <Button
                  size="sm"
                  variant="outline"
                  disabled={savingDnd}
                  onClick={() => setDndUntil(tomorrowMorning())}
                >
                  Until tomorrow
                </Button>
              </>
            )}
          </div>
        </div>
      </div>
    </section>
  );
}
