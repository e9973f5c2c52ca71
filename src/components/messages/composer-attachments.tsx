// Files waiting in the composer (issue 4 item 8): each with its progress bar while uploading, "Waiting
// for connection" while offline, "Upload failed" with Retry, and a way to take it out again.
import { AlertCircle, FileText, RotateCcw, X } from 'lucide-react';
import type { UploadState } from '../../../schemas/collections.ts';
import type { Attachment } from '../../../schemas/protocol/index.ts';
import { notifyError } from '../../app/notify.ts';
import { retryAttachment, useUploadProgress } from '../../data/uploads.ts';
import { cn } from '../ui/cn.ts';
import { ProgressBar } from '../ui/progress.tsx';
import { ComposerThumbnail } from './composer-thumbnail.tsx';
import { formatFileSize } from './file-size.ts';

export function ComposerAttachments({
  attachments,
  uploads,
  onRemove,
}: {
  attachments: readonly Attachment[];
  uploads: readonly UploadState[];
  onRemove: (id: string) => void;
}) {
  const byId = new Map(uploads.map((u) => [u.id, u]));
  const live = useUploadProgress();
  return (
    <ul className="flex gap-2 overflow-x-auto px-3 pt-1 pb-2" aria-label="Files to send">
      {attachments.map((a) => {
        const upload = byId.get(a.id);
        const status = upload?.status ?? (a.isUploading ? 'queued' : 'uploaded');
        // The live figure counts only during an attempt; a retried upload starts again from the store.
        const stored = upload?.loaded ?? 0;
        const loaded = status === 'uploading' ? Math.max(stored, live.get(a.id)?.loaded ?? 0) : stored;
        const progress = upload && upload.fileSize > 0 ? Math.min(1, loaded / upload.fileSize) : 0;
        const failed = status === 'failed';
        const isImage = a.fileType.startsWith('image/');
        return (
          <li
            key={a.id}
            className={cn(
              'relative flex w-56 shrink-0 items-center gap-2 overflow-hidden rounded-md border bg-surface-2 py-1.5 pr-7 pl-2',
              failed ? 'border-danger/50' : 'border-line',
            )}
            data-upload-status={status}
          >
            <span
              className={cn(
                'flex size-8 shrink-0 items-center justify-center rounded',
                failed ? 'bg-danger-soft text-danger' : 'bg-accent-soft text-accent-fg',
              )}
            >
              {failed ? (
                <AlertCircle className="size-4" aria-hidden />
              ) : isImage ? (
                <ComposerThumbnail
                  attachmentId={a.id}
                  fileName={a.fileName}
                  uploadedUrl={upload?.attachment?.url ?? a.url ?? null}
                />
              ) : (
                <FileText className="size-4" aria-hidden />
              )}
            </span>
            <div className="min-w-0 flex-1">
              <p className="truncate text-[12px] font-medium" title={a.fileName}>
                {a.fileName}
              </p>
              {failed ? (
                <p className="flex items-center gap-1.5 text-[11px] text-danger">
                  Upload failed
                  <button
                    type="button"
                    onClick={() => void retryAttachment(a.id).catch(notifyError)}
                    className="inline-flex items-center gap-0.5 font-medium text-fg underline-offset-2 hover:underline"
                  >
                    <RotateCcw className="size-3" aria-hidden />
                    Retry
                  </button>
                </p>
              ) : (
                <p className="text-[11px] text-muted">
                  {status === 'uploaded'
                    ? formatFileSize(a.fileSize)
                    : status === 'queued'
                      ? 'Waiting for connection'
                      : `${Math.round(progress * 100)}% of ${formatFileSize(a.fileSize)}`}
                </p>
              )}
            </div>
            {status === 'uploading' || status === 'queued' ? (
              <ProgressBar
                // Waiting for a connection, how far it will get is not known yet: the bar says so.
                value={status === 'queued' ? null : Math.round(progress * 100)}
                label={`Uploading ${a.fileName}`}
                className="absolute inset-x-0 bottom-0 h-0.5 rounded-none"
              />
            ) : null}
            <button
              type="button"
              aria-label={`Remove ${a.fileName}`}
              onClick={() => onRemove(a.id)}
              className="absolute top-1 right-1 rounded p-0.5 text-muted hover:bg-hover hover:text-fg"
            >
              <X className="size-3.5" aria-hidden />
            </button>
          </li>
        );
      })}
    </ul>
  );
}
