// Attachments in the composer: a chosen file is kept in IndexedDB at once and the worker uploads it when
// connected (sign → PUT → register), reporting progress in its `upload` record and, finer, in its
// `uploadProgress` events.

import { useEffect, useState, useSyncExternalStore } from 'react';
import { map } from 'rxjs';
import type { UploadState } from '../../schemas/collections.ts';
import type { Attachment } from '../../schemas/protocol/index.ts';
import type { UploadProgress } from '../../worker/events.ts';
import * as uploads from '../store/uploads.ts';
import { forgetUpload, requeueUpload } from '../store/uploads.ts';
import { getReadyClient, requireClient, subscribeClientReady } from './client.ts';
import { records$, useObservable } from './live-query.ts';

/** Files chosen in this channel's composer and not yet posted: status, progress (loaded / fileSize), error. */
export function useUploads(channelId: string): UploadState[] | undefined {
  return useObservable(
    (c) =>
      records$(c, 'upload', { scope: channelId }).pipe(
        map((list) => [...list].sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1))),
      ),
    [channelId],
  );
}

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

/**
 * Keeps the file and starts its upload; returns the attachment for the composer (isUploading, the
 * upload's id). useUploads shows progress; once uploaded, its `attachment` is the one to keep.
 */
export async function addAttachment(
  institutionId: string,
  channelId: string,
  file: Blob,
  fileName: string = (file as File).name ?? 'file',
): Promise<Attachment> {
  const { db, worker } = await requireClient();
  const attachment = await uploads.createUpload(db, { institutionId, channelId }, file, fileName);
  void worker.uploadFiles();
  return attachment;
}

/** "Upload failed" → Retry. */
export async function retryAttachment(attachmentId: string): Promise<void> {
  const { db, worker } = await requireClient();
  await requeueUpload(db, attachmentId);
  void worker.uploadFiles();
}

/** The composer dropped the file before sending. */
export async function removeAttachment(attachmentId: string): Promise<void> {
  const { db } = await requireClient();
  await forgetUpload(db, attachmentId);
}
