// Files chosen in a composer (issue 4 item 8): the bytes go to IndexedDB (file-blobs.ts) and an `upload`
// record tracks them until the worker has uploaded and registered them. A queued post carries such an
// attachment with isUploading and the upload's id; the worker swaps in the registered one before posting.
import type { RxCollection } from 'rxdb';
import type { RecordDoc, UploadState } from '../../schemas/collections.ts';
import type { Attachment } from '../../schemas/protocol/index.ts';
import { putFileBlob, removeFileBlob } from './file-blobs.ts';
import { newGenId } from './gen-id.ts';
import { getRecord, putRecord, removeRecord } from './records.ts';

export interface UploadCollections {
  records: RxCollection<RecordDoc>;
}

/** Keeps the file and returns the attachment a composer shows (isUploading until uploaded). */
export async function createUpload(
  db: UploadCollections,
  place: { institutionId: string; channelId: string },
  file: Blob,
  fileName: string,
  now: number = Date.now(),
): Promise<Attachment> {
  const id = newGenId(now);
  const fileType = file.type || 'application/octet-stream';
  await putFileBlob(id, file);
  const state: UploadState = {
    id,
    institutionId: place.institutionId,
    channelId: place.channelId,
    fileName,
    fileType,
    fileSize: file.size,
    status: 'queued',
    loaded: 0,
    error: null,
    fileKey: null,
    attachment: null,
    createdAt: new Date(now).toISOString(),
  };
  await putUpload(db, state);
  return { id, fileName, fileType, fileSize: file.size, url: null, isUploading: true };
}

export function putUpload(db: UploadCollections, state: UploadState): Promise<void> {
  return putRecord(db, 'upload', state, { scope: state.channelId, institutionId: state.institutionId });
}

export function getUpload(db: UploadCollections, id: string): Promise<UploadState | null> {
  return getRecord(db, 'upload', id);
}

/** Changes an upload's record, read fresh (progress and status come from the worker). */
export async function patchUpload(
  db: UploadCollections,
  id: string,
  patch: Partial<UploadState>,
): Promise<UploadState | null> {
  const current = await getUpload(db, id);
  if (!current) return null;
  const next = { ...current, ...patch };
  await putUpload(db, next);
  return next;
}

/** Retry after "Upload failed": queued again. */
export async function requeueUpload(db: UploadCollections, id: string): Promise<void> {
  const current = await getUpload(db, id);
  if (current && current.status === 'failed')
    await putUpload(db, { ...current, status: 'queued', error: null });
}

/** The composer dropped the file (or its message is stored): bytes and record go. */
export async function forgetUpload(db: UploadCollections, id: string): Promise<void> {
  await removeFileBlob(id).catch(() => undefined);
  await removeRecord(db, 'upload', id);
}

/** What a post's attachments need before it may go. */
export type AttachmentsState =
  | { kind: 'ready'; attachments: Attachment[] }
  | { kind: 'waiting'; ids: string[] }
  | { kind: 'failed'; message: string };

/** Uploading attachments are swapped for their registered files once every one is uploaded. */
export async function resolveAttachments(
  db: UploadCollections,
  attachments: readonly Attachment[],
): Promise<AttachmentsState> {
  const out: Attachment[] = [];
  const waiting: string[] = [];
  for (const a of attachments) {
    if (!a.isUploading) {
      out.push(a);
      continue;
    }
    const upload = await getUpload(db, a.id);
    if (!upload)
      return { kind: 'failed', message: `Upload failed: ${a.fileName} is no longer on this device` };
    if (upload.status === 'failed')
      return { kind: 'failed', message: `Upload failed: ${upload.error ?? a.fileName}` };
    if (upload.status === 'uploaded' && upload.attachment) out.push(upload.attachment);
    else waiting.push(a.id);
  }
  return waiting.length ? { kind: 'waiting', ids: waiting } : { kind: 'ready', attachments: out };
}
