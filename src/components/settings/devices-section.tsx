// Settings → Devices: where this person is signed in (created, last active, "This device"), with Sign out
// per device and "Sign out everywhere else" — what to do when a phone is lost or a token may have leaked.
import { Laptop, Smartphone } from 'lucide-react';
import { useState } from 'react';
import { notifyError } from '../../app/notify.ts';
import { deviceLabel, revokeDevice, revokeOtherDevices, useDevices } from '../../data/devices.ts';
import { formatDate } from '../messages/date-format.ts';
import { Button } from '../ui/button.tsx';
import { Spinner } from '../ui/states.tsx';

const when = (iso: string) => formatDate(iso, 'MMM d, yyyy HH:mm');
/** Phones and tablets get a phone icon: people recognise "the lost phone" faster than a browser name. */
const isHandheld = (userAgent: string | null) => /Mobile|Android|iPhone|iPad/.test(userAgent ?? '');

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
      <h2 className="mb-1 text-xs font-semibold tracking-wide text-muted uppercase">Devices</h2>
      <div className="divide-y divide-line rounded-lg border border-line bg-surface">
        {devices.data === undefined && devices.loading ? (
          <div className="flex justify-center px-4 py-3">
            <Spinner label="Loading devices" />
          </div>
        ) : null}
        {devices.error && devices.data === undefined ? (
          <p className="px-4 py-3 text-[13px] text-muted">{devices.error}</p>
        ) : null}
        {list.map((device) => (
          <div key={device.id} className="flex items-center gap-3 px-4 py-3">
            {isHandheld(device.userAgent) ? (
              <Smartphone className="size-4 shrink-0 text-muted" aria-hidden />
            ) : (
              <Laptop className="size-4 shrink-0 text-muted" aria-hidden />
            )}
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-medium" title={device.userAgent ?? undefined}>
                {deviceLabel(device.userAgent)}
                {device.current ? <span className="ml-2 text-[13px] text-accent-fg">This device</span> : null}
              </p>
              <p className="text-[13px] text-muted">
                Signed in {when(device.createdAt)} · last active {when(device.lastUsedAt)}
              </p>
            </div>
            {device.current ? null : (
              <Button
                variant="outline"
                size="sm"
                loading={busy === device.id}
                onClick={() => run(device.id, () => revokeDevice(device.id))}
              >
                Sign out
              </Button>
            )}
          </div>
        ))}
      </div>
      {others > 0 ? (
        <Button
          className="mt-2"
          variant="destructive"
          size="sm"
          loading={busy === 'others'}
          onClick={() => run('others', revokeOtherDevices)}
        >
          Sign out everywhere else
        </Button>
      ) : null}
    </section>
  );
}
