// Settings → Devices: where this person is signed in, by readable device name ("Chrome on Android"), when
// each was last active, which one they hold ("This device"), with Sign out per device and "Sign out
// everywhere else": what to do when a phone is lost or a token may have leaked. A second sign-in of this
// same device (another browser profile, an old tab) is said so, so it is not mistaken for a stranger.
import { Laptop, Smartphone } from 'lucide-react';
import { useState } from 'react';
import type { UserSession } from '../../../schemas/protocol/index.ts';
import { notifyError } from '../../app/notify.ts';
import { revokeDevice, revokeOtherDevices, useDevices } from '../../data/devices.ts';
import { relativeTime } from '../agents/format.ts';
import { formatDate } from '../messages/date-format.ts';
import { Button } from '../ui/button.tsx';
import { Spinner } from '../ui/states.tsx';

const when = (iso: string) => formatDate(iso, 'MMM d, yyyy HH:mm');
/** Phones and tablets get a phone icon: people recognise "the lost phone" faster than a browser name. */
const isHandheld = (userAgent: string | null) => /Mobile|Android|iPhone|iPad/.test(userAgent ?? '');

function DeviceRow({
  device,
  busy,
  onSignOut,
}: {
  device: UserSession;
  busy: boolean;
  onSignOut: () => void;
}) {
  const Icon = isHandheld(device.userAgent) ? Smartphone : Laptop;
  return (
    <li className="flex items-center gap-3 px-4 py-3" aria-label={device.deviceName}>
      <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-hover">
        <Icon className="size-4 text-muted" aria-hidden />
      </span>
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-x-2 text-sm font-medium">
          <span className="truncate" title={device.userAgent ?? undefined}>
            {device.deviceName}
          </span>
          {device.current ? (
            <span className="rounded-full bg-accent-soft px-2 py-0.5 text-xs font-medium text-accent-fg">
              This device
            </span>
          ) : null}
          {device.sameDevice ? (
            <span className="rounded-full bg-hover px-2 py-0.5 text-xs text-muted">Also this device</span>
          ) : null}
        </p>
        <p className="text-[13px] text-muted">
          {device.current ? 'Active now' : `Last active ${relativeTime(device.lastUsedAt)}`}
          <span title={when(device.createdAt)}>
            {' '}
            · signed in {formatDate(device.createdAt, 'MMM d, yyyy')}
          </span>
        </p>
      </div>
      {device.current ? null : (
        <Button variant="outline" size="sm" loading={busy} onClick={onSignOut}>
          Sign out
        </Button>
      )}
    </li>
  );
}

export function DevicesSection() {
  const devices = useDevices();
  const [busy, setBusy] = useState<string | null>(null);
  // This device first, then the others by last activity.
  const list = [...(devices.data ?? [])].sort(
    (a, b) => Number(b.current) - Number(a.current) || b.lastUsedAt.localeCompare(a.lastUsedAt),
  );
  const others = list.filter((d) => !d.current).length;

  const run = (key: string, action: () => Promise<unknown>) => {
    setBusy(key);
    action()
      .catch(notifyError)
      .finally(() => setBusy(null));
  };

  return (
    <section aria-label="Devices">
      <div className="mb-1 flex items-end justify-between gap-2">
        <h2 className="text-xs font-semibold tracking-wide text-muted uppercase">Devices</h2>
        {others > 0 ? (
          <span className="text-xs text-muted">
            {others === 1 ? '1 other device' : `${others} other devices`}
          </span>
        ) : null}
      </div>
      <div className="rounded-lg border border-line bg-surface">
        {devices.data === undefined && devices.loading ? (
          <div className="flex justify-center px-4 py-3">
            <Spinner label="Loading devices" />
          </div>
        ) : null}
        {devices.error && devices.data === undefined ? (
          <p className="px-4 py-3 text-[13px] text-muted">{devices.error}</p>
        ) : null}
        <ul className="divide-y divide-line">
          {list.map((device) => (
            <DeviceRow
              key={device.id}
              device={device}
              busy={busy === device.id}
              onSignOut={() => run(device.id, () => revokeDevice(device.id))}
            />
          ))}
        </ul>
      </div>
      {others > 0 ? (
        <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1">
          <Button
            variant="destructive"
            size="sm"
            loading={busy === 'others'}
            onClick={() => run('others', revokeOtherDevices)}
          >
            Sign out everywhere else
          </Button>
          <span className="text-[13px] text-muted">Signed-out devices go back to the sign-in page.</span>
        </div>
      ) : null}
    </section>
  );
}
