// Attachments in the composer: a chosen file is kept in IndexedDB at once and the worker uploads it when
// connected (sign → PUT → register), reporting progress in its `upload` record and, finer, in its
// `uploadProgress` events.

import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { UploadState } from '../../schemas/collections.ts';
import type { Attachment } from '../../schemas/protocol/index.ts';
import type { UploadProgress } from '../../worker/events.ts';
import { getFileBlob } from '../store/file-blobs.ts';
import * as uploads from '../store/uploads.ts';
import { forgetUpload, requeueUpload } from '../store/uploads.ts';
import { getReadyClient, requireClient, requireConnection, subscribeClientReady } from './client.ts';
import { useRecords } from './store-reads.ts';

/** Files chosen in this channel's composer and not yet posted: status, progress (loaded / fileSize), error. */
export function useUploads(channelId: string): UploadState[] | undefined {
  const list = useRecords('upload', { scope: channelId });
  return useMemo(() => list && [...list].sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1)), [list]);
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
  void worker.uploadFiles([attachment.id]);
  return attachment;
}

/**
 * Files of this channel waiting for a connection start once there is one. The worker starts them itself
 * on connect; a file chosen while the connection was being set up could miss that start and sit in
 * "Waiting for connection" while online, so the composer asks again when it sees the connection.
 */
export function useResumeUploads(channelId: string, connected: boolean): void {
  const uploads = useUploads(channelId);
  const waiting = uploads?.filter((u) => u.status === 'queued').map((u) => u.id) ?? [];
  const key = waiting.join(',');
  useEffect(() => {
    if (!connected || key === '') return;
    void requireConnection().then(({ worker }) => worker.uploadFiles(key.split(',')));
  }, [connected, key]);
}

/** "Upload failed" → Retry. */
export async function retryAttachment(attachmentId: string): Promise<void> {
  const { db, worker } = await requireClient();
  await requeueUpload(db, attachmentId);
  void worker.uploadFiles([attachmentId]);
}

/**
 * The composer dropped the file before sending. A file already registered is deleted on the server too, so
 * it stops counting against the person's upload allowance. Best effort: offline, or if the request fails,
 * it stays registered, readable by its uploader alone since no message carries it (decision 0081).
 */
export async function removeAttachment(attachmentId: string): Promise<void> {
  const { db, http } = await requireClient();
  const registered = (await uploads.getUpload(db, attachmentId))?.status === 'uploaded';
  await forgetUpload(db, attachmentId);
  if (registered)
    await http.call('deleteFiles', { body: { fileIds: [attachmentId] } }).catch(() => undefined);
}

/** The bytes of a file chosen in a composer, while this device still keeps them (until uploaded). */
export function chosenFile(attachmentId: string): Promise<Blob | null> {
  return getFileBlob(attachmentId);
}
