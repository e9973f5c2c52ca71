// What the composer will not send, and the sentence that says why (issue 15 item 2): a file over the
// server's limit is refused before it uploads; a message whose file failed to upload waits until that
// file is retried or removed (sending would only fail it again, now in the list as "Not sent"); a message
// longer than the server stores waits until it is shortened.
import type { UploadState } from '../../../schemas/collections.ts';
import type { Attachment } from '../../../schemas/protocol/index.ts';
import { MESSAGE_CONTENT_MAX } from '../../../schemas/protocol/limits.ts';
import { formatFileSize } from './file-size.ts';

/** Said of a chosen file over the limit; no upload starts. */
export function fileTooLargeMessage(fileName: string, maxBytes: number): string {
  return `${fileName} is larger than ${formatFileSize(maxBytes)}, the largest file this server accepts.`;
}

/** Said of a message longer than the server stores (its markup counts, as the server counts it). */
export function messageTooLongMessage(length: number): string {
  const n = (v: number) => v.toLocaleString('en-US');
  return `This message is too long to send: ${n(length)} characters with its formatting, and at most ${n(MESSAGE_CONTENT_MAX)} fit. Shorten it or attach the text as a file.`;
}

/**
 * Why this message cannot be sent now, or null when it can: it is longer than the server stores, or a file
 * of it failed to upload. Files still uploading or waiting for a connection do not block (the message
 * waits for them in the outbox).
 */
export function sendBlocker(
  attachments: readonly Attachment[],
  uploads: readonly Pick<UploadState, 'id' | 'status'>[],
  contentLength = 0,
): string | null {
  if (contentLength > MESSAGE_CONTENT_MAX) return messageTooLongMessage(contentLength);
  const failed = new Set(uploads.filter((u) => u.status === 'failed').map((u) => u.id));
  const stuck = attachments.filter((a) => failed.has(a.id));
  if (stuck.length === 0) return null;
  const which =
    stuck.length === 1 ? `${stuck[0]?.fileName} did not upload` : `${stuck.length} files did not upload`;
  return `${which}. Retry or remove ${stuck.length === 1 ? 'it' : 'them'} to send.`;
}
