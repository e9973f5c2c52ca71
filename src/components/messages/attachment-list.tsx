// Attachments on a message (issue 4 item 8): images and GIFs (opening full size), video and audio play
// inline, a PDF shows its first page, Word and presentation files their opening text (issue 15 item 6);
// every file can be downloaded, and its size reads per spec §9.
import { AlertCircle, Download, File, FileText, Loader2, Presentation } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import type { Attachment } from '../../../schemas/protocol/index.ts';
import { useFileExcerpt } from '../../data/files.ts';
import { useSettings } from '../../data/settings.ts';
import { cn } from '../ui/cn.ts';
import { downloadWithNotice } from './file-download.ts';
import { useFileObjectUrl } from './file-fetch.ts';
import { formatFileSize } from './file-size.ts';
import { PdfPreview } from './pdf-preview.tsx';

// Loaded when a picture is first opened: the first rows' path stays as light as it was (issue 11).
const ImageViewer = lazy(() => import('./image-viewer.tsx').then((m) => ({ default: m.ImageViewer })));

type Kind = 'image' | 'video' | 'audio' | 'pdf' | 'word' | 'slides' | 'other';

export function attachmentKind(a: Pick<Attachment, 'fileType' | 'fileName'>): Kind {
  const type = a.fileType.toLowerCase();
  const ext = a.fileName.toLowerCase().split('.').pop() ?? '';
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  if (type === 'application/pdf' || ext === 'pdf') return 'pdf';
  if (/word|opendocument\.text/.test(type) || ['doc', 'docx', 'odt', 'rtf'].includes(ext)) return 'word';
  if (/presentation|powerpoint/.test(type) || ['ppt', 'pptx', 'odp', 'key'].includes(ext)) return 'slides';
  return 'other';
}

export function AttachmentList({ attachments }: { attachments: readonly Attachment[] }) {
  // The message's uploaded pictures, in order, for the full-size viewer.
  const pictures = attachments.filter((a) => attachmentKind(a) === 'image' && a.url && !a.isUploading);
  const [viewing, setViewing] = useState<number | null>(null);
  return (
    <>
      <ul className="mt-1 flex flex-wrap gap-2" aria-label="Attachments">
        {attachments.map((a) => (
          <li key={a.id} className="max-w-full">
            <AttachmentView
              attachment={a}
              onOpen={() => {
                const at = pictures.findIndex((p) => p.id === a.id);
                if (at !== -1) setViewing(at);
              }}
            />
          </li>
        ))}
      </ul>
      {viewing !== null ? (
        <Suspense fallback={null}>
          <ImageViewer
            pictures={pictures}
            index={viewing}
            onIndexChange={setViewing}
            onClose={() => setViewing(null)}
          />
        </Suspense>
      ) : null}
    </>
  );
}

function AttachmentView({ attachment: a, onOpen }: { attachment: Attachment; onOpen: () => void }) {
  const kind = attachmentKind(a);
  // "Show images in channels" off: a picture is a file card, and nothing is downloaded until asked for.
  const { showImagesInChannel } = useSettings();
  const [shownAnyway, setShownAnyway] = useState(false);
  const hidden = kind === 'image' && !showImagesInChannel && !shownAnyway;
  const previewable = (kind === 'image' && !hidden) || kind === 'video' || kind === 'audio' || kind === 'pdf';
  const src = useFileObjectUrl(previewable && a.url && !a.isUploading ? a.url : null);
  const ready = typeof src === 'string' && src !== 'error';

  if (a.isUploading || !a.url) {
    return (
      <FileCard attachment={a} kind={kind}>
        <span className="inline-flex items-center gap-1 text-[11px] text-muted">
          <Loader2 className="size-3 animate-spin" aria-hidden />
          Uploading…
        </span>
      </FileCard>
    );
  }
  if (hidden) {
    return (
      <FileCard attachment={a} kind={kind}>
        <button
          type="button"
          className="text-[11px] font-medium text-accent-fg underline-offset-2 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
          onClick={() => setShownAnyway(true)}
        >
          Show picture
        </button>
      </FileCard>
    );
  }
  if (kind === 'image' && ready) {
    return (
      <figure className="group/att relative w-fit overflow-hidden rounded-lg border border-line bg-surface-2">
        <button
          type="button"
          className="block cursor-zoom-in outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
          aria-label={`Open ${a.fileName} full size`}
          onClick={onOpen}
        >
          <img src={src} alt={a.fileName} className="block max-h-72 max-w-[min(100%,360px)] object-contain" />
        </button>
        <DownloadButton attachment={a} overlay />
      </figure>
    );
  }
  if (kind === 'video' && ready) {
    return (
      <figure className="w-fit overflow-hidden rounded-lg border border-line bg-black">
        <video src={src} controls className="block max-h-72 max-w-[min(100%,420px)]" aria-label={a.fileName}>
          <track kind="captions" />
        </video>
      </figure>
    );
  }
  if (kind === 'audio' && ready) {
    return (
      <FileCard attachment={a} kind={kind}>
        <audio src={src} controls className="mt-1 h-8 w-60 max-w-full" aria-label={a.fileName}>
          <track kind="captions" />
        </audio>
      </FileCard>
    );
  }
  if (kind === 'pdf' && ready) {
    return (
      <div className="w-[242px] overflow-hidden rounded-lg border border-line bg-surface">
        <div className="max-h-44 overflow-hidden border-b border-line">
          <PdfPreview src={src} label={`First page of ${a.fileName}`} />
        </div>
        <FileCard attachment={a} kind={kind} bare />
      </div>
    );
  }
  if (kind === 'word' || kind === 'slides') return <DocumentCard attachment={a} kind={kind} />;
  return <FileCard attachment={a} kind={kind} failedPreview={src === 'error'} />;
}

/** A Word or PowerPoint file: its opening text above the file card, once the server has read it. */
function DocumentCard({ attachment: a, kind }: { attachment: Attachment; kind: Kind }) {
  const excerpt = useFileExcerpt(a.id);
  if (!excerpt) return <FileCard attachment={a} kind={kind} />;
  return (
    <div className="w-72 max-w-full overflow-hidden rounded-lg border border-line bg-surface">
      <p
        className="line-clamp-4 border-b border-line bg-surface-2 px-3 py-2.5 text-[12px] leading-snug text-muted"
        data-testid="document-excerpt"
      >
        {excerpt}
      </p>
      <FileCard attachment={a} kind={kind} bare />
    </div>
  );
}

const ICONS: Record<Kind, { icon: typeof File; tint: string; label: string }> = {
  image: { icon: File, tint: 'bg-surface-2 text-muted', label: 'Image' },
  video: { icon: File, tint: 'bg-surface-2 text-muted', label: 'Video' },
  audio: { icon: File, tint: 'bg-surface-2 text-muted', label: 'Audio' },
  pdf: { icon: FileText, tint: 'bg-red-500/15 text-red-600 dark:text-red-400', label: 'PDF' },
  word: { icon: FileText, tint: 'bg-blue-500/15 text-blue-600 dark:text-blue-400', label: 'Word document' },
  slides: {
    icon: Presentation,
    tint: 'bg-orange-500/15 text-orange-600 dark:text-orange-400',
    label: 'Presentation',
  },
  other: { icon: File, tint: 'bg-surface-2 text-muted', label: 'File' },
};

function FileCard({
  attachment: a,
  kind,
  bare,
  failedPreview,
  children,
}: {
  attachment: Attachment;
  kind: Kind;
  bare?: boolean;
  failedPreview?: boolean;
  children?: React.ReactNode;
}) {
  const { icon: Icon, tint, label } = ICONS[kind];
  return (
    <div
      className={cn(
        'flex w-72 max-w-full items-center gap-2.5 p-2',
        !bare && 'rounded-lg border border-line bg-surface',
        bare && 'w-full',
      )}
      data-testid="attachment-card"
    >
      <span className={cn('flex size-9 shrink-0 items-center justify-center rounded-md', tint)}>
        {failedPreview ? (
          <AlertCircle className="size-4" aria-hidden />
        ) : (
          <Icon className="size-4" aria-hidden />
        )}
      </span>
      <div className="min-w-0 flex-1">
        <p className="truncate text-[13px] font-medium" title={a.fileName}>
          {a.fileName}
        </p>
        <p className="text-[11px] text-muted">
          {label} · {formatFileSize(a.fileSize)}
        </p>
        {children}
      </div>
      {a.url && !a.isUploading ? <DownloadButton attachment={a} /> : null}
    </div>
  );
}

function DownloadButton({ attachment: a, overlay }: { attachment: Attachment; overlay?: boolean }) {
  const [busy, setBusy] = useState(false);
  async function download() {
    if (!a.url) return;
    setBusy(true);
    await downloadWithNotice(a.url, a.fileName);
    setBusy(false);
  }
  return (
    <button
      type="button"
      aria-label={`Download ${a.fileName}`}
      title="Download"
      disabled={busy}
      onClick={() => void download()}
      className={cn(
        'flex size-8 shrink-0 items-center justify-center rounded-md text-muted hover:bg-hover hover:text-fg',
        overlay &&
          'absolute top-1.5 right-1.5 bg-surface/90 opacity-0 shadow-sm group-hover/att:opacity-100 focus:opacity-100',
      )}
    >
      {busy ? (
        <Loader2 className="size-4 animate-spin" aria-hidden />
      ) : (
        <Download className="size-4" aria-hidden />
      )}
    </button>
  );
}
