// The preview card under a message with a link (decision 0053): the page's site, title, description and
// picture, as Slack, Zulip and Mattermost show them. Asked for only once the message is on screen, read
// from the store (so it shows offline for a channel read before), hidden when the workspace switched
// previews off. The picture comes from our server, never from the linked site, and follows "Show images
// in channels" like any picture in a message.
import { ImageIcon } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { LinkPreview } from '../../../schemas/protocol/index.ts';
import { useDeferredModule } from '../../app/deferred-module.ts';
import {
  fetchLinkPreview,
  isStale,
  useLinkPreviewsEnabled,
  useStoredLinkPreview,
} from '../../data/link-previews.ts';
import { useSettings } from '../../data/settings.ts';
import { appOrigin } from '../../store/own-origin.ts';
import { useFileObjectUrl } from './file-fetch.ts';
import { messageSanitizer } from './message-html.ts';
import { firstPreviewableLink } from './preview-link.ts';

/** True from the first time the element comes near the viewport; an observer per card, dropped after. */
function useSeen(ref: React.RefObject<HTMLElement | null>): boolean {
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || seen) return;
    if (typeof IntersectionObserver === 'undefined') {
      setSeen(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setSeen(true);
          observer.disconnect();
        }
      },
      { rootMargin: '200px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, seen]);
  return seen;
}

export function LinkPreviewCard({ institutionId, content }: { institutionId: string; content: string }) {
  // A message with an address is never plain paragraphs, so its body has asked for the sanitiser already.
  const ready = useDeferredModule(messageSanitizer) !== undefined;
  const url = useMemo(() => (ready ? firstPreviewableLink(content, appOrigin()) : null), [content, ready]);

  return url ? <PreviewOf institutionId={institutionId} url={url} /> : null;
}

function PreviewOf({ institutionId, url }: { institutionId: string; url: string }) {
  const enabled = useLinkPreviewsEnabled(institutionId);
  const stored = useStoredLinkPreview(url);
  const ref = useRef<HTMLDivElement>(null);
  const seen = useSeen(ref);
  useEffect(() => {
    if (!enabled || !seen || stored === undefined) return;
    if (stored === null || isStale(stored)) void fetchLinkPreview(institutionId, url).catch(() => undefined);
  }, [enabled, seen, stored, institutionId, url]);
  const preview = enabled === false ? null : (stored?.preview ?? null);
  if (enabled === false) return null;
  return <div ref={ref}>{preview ? <PreviewBody preview={preview} /> : null}</div>;
}

function PreviewBody({ preview }: { preview: LinkPreview }) {
  const host = useMemo(() => new URL(preview.url).host.replace(/^www\./, ''), [preview.url]);
  return (
    <section
      className="mt-1.5 flex max-w-[min(100%,520px)] flex-col gap-1 rounded-r-lg border-l-[3px] border-line-strong bg-surface-2/60 py-2 pr-3 pl-3"
      aria-label={`Preview of ${preview.title ?? host}`}
      data-testid="link-preview"
    >
      <p className="truncate text-xs font-medium text-muted">{preview.siteName ?? host}</p>
      {preview.title ? (
        <a
          href={preview.url}
          target="_blank"
          rel="noopener noreferrer nofollow"
          className="line-clamp-2 text-[14px] leading-snug font-semibold text-accent-fg underline-offset-2 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
        >
          {preview.title}
        </a>
      ) : null}
      {preview.description ? (
        <p className="line-clamp-3 text-[13px] leading-normal break-words text-muted">
          {preview.description}
        </p>
      ) : null}
      {preview.imageUrl ? <PreviewPicture src={preview.imageUrl} alt={preview.title ?? host} /> : null}
    </section>
  );
}

function PreviewPicture({ src, alt }: { src: string; alt: string }) {
  // "Show images in channels" off: nothing is downloaded until asked for.
  const { showImagesInChannel } = useSettings();
  const [shownAnyway, setShownAnyway] = useState(false);
  const shown = showImagesInChannel || shownAnyway;
  const objectUrl = useFileObjectUrl(shown ? src : null);
  if (!shown) {
    return (
      <button
        type="button"
        className="inline-flex w-fit items-center gap-1 text-[11px] font-medium text-accent-fg underline-offset-2 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
        onClick={() => setShownAnyway(true)}
      >
        <ImageIcon className="size-3" aria-hidden />
        Show picture
      </button>
    );
  }
  // Loading, or it could not be fetched (offline, gone): the card stands without it.
  if (typeof objectUrl !== 'string' || objectUrl === 'error') return null;
  return (
    <img
      src={objectUrl}
      alt={alt}
      className="mt-1 block max-h-48 w-auto max-w-full self-start rounded-md border border-line object-contain"
    />
  );
}
