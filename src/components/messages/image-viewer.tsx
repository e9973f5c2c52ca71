// A message's pictures full size (issue 15 item 6): a dark full-screen dialog on one picture at a time,
// with zoom (buttons, + and −, 0 to fit, the wheel with Ctrl) and the message's other pictures a key away
// (← and →). Escape or the close button returns to the channel, focus back on the picture clicked.
import { ChevronLeft, ChevronRight, Download, Minus, Plus, X } from 'lucide-react';
import { Dialog as RadixDialog } from 'radix-ui';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Attachment } from '../../../schemas/protocol/index.ts';
import { cn } from '../ui/cn.ts';
import { Spinner } from '../ui/states.tsx';
import { downloadWithNotice } from './file-download.ts';
import { useFileObjectUrl } from './file-fetch.ts';

/** Zoom steps over the fitted size: 1 is the picture fitted to the screen, never past its own size. */
export const ZOOM_STEPS = [1, 1.5, 2, 3, 4] as const;

const MAX_ZOOM = 4;

/** The next zoom step up (+1) or down (−1) from `zoom`, staying within the steps. */
export function stepZoom(zoom: number, direction: 1 | -1): number {
  const at = ZOOM_STEPS.findIndex((z) => z >= zoom);
  const index = at === -1 ? ZOOM_STEPS.length - 1 : at;
  const next = ZOOM_STEPS[Math.min(ZOOM_STEPS.length - 1, Math.max(0, index + direction))];
  return next ?? 1;
}

/** The picture after `index` in a list of `count`, wrapping at either end. */
export function stepPicture(index: number, count: number, direction: 1 | -1): number {
  return count > 0 ? (index + direction + count) % count : 0;
}

const toolButton =
  'inline-flex size-9 items-center justify-center rounded-md text-white/90 outline-none hover:bg-white/15 focus-visible:ring-2 focus-visible:ring-white disabled:opacity-40 [&_svg]:size-5';

export function ImageViewer({
  pictures,
  index,
  onIndexChange,
  onClose,
}: {
  pictures: readonly Attachment[];
  /** The picture shown, or null when closed. */
  index: number | null;
  onIndexChange: (index: number) => void;
  onClose: () => void;
}) {
  const open = index !== null;
  const picture = index === null ? undefined : pictures[index];
  const src = useFileObjectUrl(picture?.url ?? null);
  const [zoom, setZoom] = useState(1);
  const [natural, setNatural] = useState<{ id: string; width: number; height: number } | null>(null);
  // A new picture starts fitted.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on a new picture only
  useEffect(() => setZoom(1), [picture?.id]);
  // The room the picture has, followed as the window changes. A callback ref: Radix mounts the dialog's
  // content a moment after it opens, so an effect on `open` would find nothing to measure.
  const [room, setRoom] = useState({ width: 0, height: 0 });
  const watching = useRef<ResizeObserver | null>(null);
  const area = useCallback((el: HTMLDivElement | null) => {
    watching.current?.disconnect();
    watching.current = null;
    if (!el) return;
    const measure = () => setRoom({ width: el.clientWidth - 32, height: el.clientHeight - 32 });
    measure();
    watching.current = new ResizeObserver(measure);
    watching.current.observe(el);
  }, []);
  const size = natural && natural.id === picture?.id ? natural : null;
  const fit =
    size && room.width > 0 && room.height > 0
      ? Math.min(1, room.width / size.width, room.height / size.height)
      : 1;
  const many = pictures.length > 1;

  function onKeyDown(event: React.KeyboardEvent) {
    if (index === null) return;
    if (event.key === 'ArrowRight' && many) onIndexChange(stepPicture(index, pictures.length, 1));
    else if (event.key === 'ArrowLeft' && many) onIndexChange(stepPicture(index, pictures.length, -1));
    else if (event.key === '+' || event.key === '=') setZoom((z) => stepZoom(z, 1));
    else if (event.key === '-') setZoom((z) => stepZoom(z, -1));
    else if (event.key === '0') setZoom(1);
    else return;
    event.preventDefault();
  }

  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-50 bg-black/90" />
        <RadixDialog.Content
          className="fixed inset-0 z-50 flex flex-col text-white outline-none"
          aria-describedby={undefined}
          onKeyDown={onKeyDown}
        >
          <div className="flex h-14 shrink-0 items-center gap-2 px-3">
            <RadixDialog.Title className="min-w-0 flex-1 truncate text-sm font-medium">
              {picture?.fileName ?? ''}
              {many && index !== null ? (
                <span className="ml-2 font-normal text-white/70">
                  {index + 1} of {pictures.length}
                </span>
              ) : null}
            </RadixDialog.Title>
            <button
              type="button"
              className={toolButton}
              aria-label="Zoom out"
              disabled={zoom <= 1}
              onClick={() => setZoom((z) => stepZoom(z, -1))}
            >
              <Minus aria-hidden />
            </button>
            <button
              type="button"
              className="h-9 min-w-14 rounded-md px-2 text-sm tabular-nums text-white/90 hover:bg-white/15 focus-visible:ring-2 focus-visible:ring-white focus-visible:outline-none"
              aria-label={`Zoom ${Math.round(zoom * 100)}%, fit to screen`}
              onClick={() => setZoom(1)}
            >
              {Math.round(zoom * 100)}%
            </button>
            <button
              type="button"
              className={toolButton}
              aria-label="Zoom in"
              disabled={zoom >= MAX_ZOOM}
              onClick={() => setZoom((z) => stepZoom(z, 1))}
            >
              <Plus aria-hidden />
            </button>
            {picture?.url ? (
              <button
                type="button"
                className={toolButton}
                aria-label={`Download ${picture.fileName}`}
                onClick={() => void downloadWithNotice(picture.url ?? '', picture.fileName)}
              >
                <Download aria-hidden />
              </button>
            ) : null}
            <RadixDialog.Close className={toolButton} aria-label="Close">
              <X aria-hidden />
            </RadixDialog.Close>
          </div>
          <div
            ref={area}
            className="relative min-h-0 flex-1 overflow-auto"
            onWheel={(event) => {
              // Ctrl with the wheel (and a trackpad's pinch, which arrives as one) zooms; the wheel alone scrolls.
              if (!event.ctrlKey) return;
              setZoom((z) => stepZoom(z, event.deltaY < 0 ? 1 : -1));
            }}
          >
            <div
              className={cn(
                'flex min-h-full items-center justify-center p-4',
                zoom > 1 && 'w-max min-w-full',
              )}
              data-zoom={zoom}
            >
              {typeof src === 'string' && src !== 'error' ? (
                <img
                  src={src}
                  alt={picture?.fileName ?? ''}
                  className="block max-w-none select-none"
                  style={
                    size
                      ? { width: size.width * fit * zoom }
                      : { maxWidth: '100%', maxHeight: room.height || undefined }
                  }
                  draggable={false}
                  onLoad={(event) => {
                    const img = event.currentTarget;
                    if (picture)
                      setNatural({ id: picture.id, width: img.naturalWidth, height: img.naturalHeight });
                  }}
                />
              ) : src === 'error' ? (
                <p className="text-sm text-white/80">This picture could not be loaded.</p>
              ) : (
                <Spinner className="text-white" />
              )}
            </div>
            {many && index !== null ? (
              <>
                <button
                  type="button"
                  className={cn(toolButton, 'fixed top-1/2 left-3 -translate-y-1/2 bg-black/40')}
                  aria-label="Previous picture"
                  onClick={() => onIndexChange(stepPicture(index, pictures.length, -1))}
                >
                  <ChevronLeft aria-hidden />
                </button>
                <button
                  type="button"
                  className={cn(toolButton, 'fixed top-1/2 right-3 -translate-y-1/2 bg-black/40')}
                  aria-label="Next picture"
                  onClick={() => onIndexChange(stepPicture(index, pictures.length, 1))}
                >
                  <ChevronRight aria-hidden />
                </button>
              </>
            ) : null}
          </div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
