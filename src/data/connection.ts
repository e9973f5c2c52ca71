// The worker's connection status and how many messages wait or failed, for the connection banner.

import { useEffect, useState } from 'react';
import { map } from 'rxjs';
import type { ConnectionStatus } from '../../worker/api.ts';
import { useLanternClient, useObservable } from './live-query.ts';

export function useConnection(): { status: ConnectionStatus; pendingCount: number; failedCount: number } {
  const client = useLanternClient();
  const [status, setStatus] = useState<ConnectionStatus>('offline');
  useEffect(() => {
    if (!client) return;
    return client.events.listen('connection', setStatus);
  }, [client]);
  const counts = useObservable(
    (c) =>
      c.db.messages.find({ selector: { status: { $in: ['pending', 'failed'] } } }).$.pipe(
        map((docs) => ({
          pendingCount: docs.filter((d) => d.status === 'pending').length,
          failedCount: docs.filter((d) => d.status === 'failed').length,
        })),
      ),
    [],
  );
  return { status, pendingCount: counts?.pendingCount ?? 0, failedCount: counts?.failedCount ?? 0 };
}
