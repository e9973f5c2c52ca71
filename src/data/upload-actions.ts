// Attachments in the composer (issue 4 item 8): a chosen file is kept in IndexedDB at once and the
// worker uploads it when connected (sign → PUT → register), reporting progress in its `upload` record.
import type { Attachment } from '../../schemas/protocol.ts';
import * as uploads from '../store/uploads.ts';
import { forgetUpload, requeueUpload } from '../store/uploads.ts';
import { requireClient } from './client.ts';

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
