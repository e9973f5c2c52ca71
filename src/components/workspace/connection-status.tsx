// Shows when Lantern is offline and how many messages wait to be sent (issue item 22).
// The worker reports 'offline' until its first connection, so a short grace period keeps a normal
// start from flashing a banner.
import { CloudOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useConnection } from '../../data/connection.ts';
import { cn } from '../ui/cn.ts';

const GRACE_MS = 1500;

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * The connection status, shown only after being away has held for the grace period. The grace is keyed on
 * being away, not on the exact status, and starts in the render that first sees the change: a timer's
 * state set in an effect came a render late, so the banner showed for a frame the moment the connection
 * dropped, went, and came back 1.5 s later.
 */
function useSettledConnection() {
  const connection = useConnection();
  const away = connection.status !== 'connected';
  const [graceOf, setGraceOf] = useState({ away, over: false });
  // Adjusted while rendering (React's pattern for state that follows a prop): no frame sees a stale grace.
  if (graceOf.away !== away) setGraceOf({ away, over: false });
  useEffect(() => {
    if (!away) return;
    const timer = setTimeout(() => setGraceOf({ away: true, over: true }), GRACE_MS);
    return () => clearTimeout(timer);
  }, [away]);
  const settled = !away || (graceOf.away && graceOf.over);
  return { ...connection, settled };
}

export function ConnectionBanner() {
  const { status, pendingCount, settled } = useSettledConnection();
  // An outdated build has its own banner (components/update-banner.tsx) asking for a reload.
  if (status === 'connected' || status === 'outdated' || !settled) return null;
  // 'connecting' that outlasts the grace period means the server cannot be reached: to a person
  // that is being offline, whatever the network icon says.
  const waiting =
    pendingCount > 0 ? ` ${plural(pendingCount, 'message', 'messages')} will be sent when you are back.` : '';
  return (
    <div
      role="status"
      aria-live="polite"
      className="flex shrink-0 items-center gap-2 border-b border-amber-300/60 bg-accent-soft px-4 py-1.5 text-[13px] text-accent-fg"
    >
      {/* Still, not a spinner: an outage can last hours, and a spinning icon kept a phone drawing a frame
          every 16 ms for all of it (on a 2-core machine without a GPU, a whole core). "Reconnecting…" says
          that the worker keeps trying. */}
      <CloudOff className="size-4 shrink-0" aria-hidden />
      {/* Wraps rather than cut: on a phone the count of waiting messages is the part that matters. */}
      <span className="min-w-0">
        <strong className="font-semibold">You are offline.</strong>
        {status === 'connecting' ? ' Reconnecting…' : ''}
        {waiting}
      </span>
    </div>
  );
}

/**
 * A compact dot + word for the sidebar footer. It says what the banner says: past the grace period,
 * still connecting is being offline (it read "Connecting" for hours beside "You are offline").
 */
export function ConnectionDot() {
  const { status, pendingCount, settled } = useSettledConnection();
  const shown = settled ? status : 'connected';
  const label = shown === 'connected' ? 'Online' : shown === 'outdated' ? 'Reload needed' : 'Offline';
  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-muted" title={label}>
      <span
        className={cn('size-2 rounded-full', shown === 'connected' ? 'bg-emerald-500' : 'bg-faint')}
        aria-hidden
      />
      {label}
      {pendingCount > 0 ? <span>· {plural(pendingCount, 'waiting', 'waiting')}</span> : null}
    </span>
  );
}
