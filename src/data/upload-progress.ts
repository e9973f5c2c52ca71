// Live upload progress from the worker's `uploadProgress` events: every report of a PUT, finer than
// the one-per-5% copy in the store (which is what a reloaded tab starts from).
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { UploadProgress } from '../../worker/events.ts';
import { getReadyClient, subscribeClientReady } from './client.ts';

/** Bytes sent so far per upload id, while this tab is open. */
export function useUploadProgress(): ReadonlyMap<string, UploadProgress> {
  const client = useSyncExternalStore(subscribeClientReady, getReadyClient, () => null);
  const [progress, setProgress] = useState<ReadonlyMap<string, UploadProgress>>(new Map());
  useEffect(() => {
    if (!client) return;
    return client.events.listen('uploadProgress', (p) =>
      setProgress((current) => new Map(current).set(p.uploadId, p)),
    );
  }, [client]);
  return progress;
}
