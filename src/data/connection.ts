// The worker's connection status and how many messages wait or failed, for the connection banner.

import { useEffect, useState } from 'react';
import type { ConnectionStatus } from '../../worker/api.ts';
import { useLanternClient } from './live-query.ts';
import { useStoreRead } from './store-reads.ts';

export function useConnection(): { status: ConnectionStatus; pendingCount: number; failedCount: number } {
  const client = useLanternClient();
  const [status, setStatus] = useState<ConnectionStatus>('offline');
  useEffect(() => {
    if (!client) return;
    return client.events.listen('connection', setStatus);
  }, [client]);
  const counts = useStoreRead('unsentCounts', {});
  return { status, pendingCount: counts?.pendingCount ?? 0, failedCount: counts?.failedCount ?? 0 };
}
