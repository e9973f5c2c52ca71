// Renders message HTML after DOMPurify has cleaned it; the only place message markup reaches the DOM.
// A mention chip of the reader (`meId`) is marked so a person sees at once where they were called, and
// an agent's [n] markers become footnote buttons when the answer cites a passage n.
import { useLayoutEffect, useMemo, useRef } from 'react';
import { type CitationRef, markCitations } from './citation-markers.ts';
import { renderMessageHtml } from './message-html.ts';

export function SanitizedHtml({
  html,
  className,
  meId,
  citations,
  onCitation,
}: {
  html: string;
  className?: string;
  meId?: string;
  citations?: readonly CitationRef[];
  /** A footnote marker was clicked. */
  onCitation?: (index: number, anchor: HTMLElement) => void;
}) {
  const clean = useMemo(() => renderMessageHtml(html), [html]);
  const ref = useRef<HTMLDivElement>(null);
  // A string, so that a new array with the same passages (every store update) changes nothing.
  const citationKey = JSON.stringify(citations?.map((c) => [c.index, c.title]) ?? []);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.innerHTML = clean;
    if (meId) {
      for (const chip of el.querySelectorAll<HTMLElement>('span.mention[data-id]')) {
        if (chip.dataset.id === meId) chip.classList.add('mention-me');
      }
    }
    const refs = (JSON.parse(citationKey) as [number, string][]).map(([index, title]) => ({ index, title }));
    if (refs.length) markCitations(el, refs);
  }, [clean, meId, citationKey]);
  return (
    // Clicks on footnotes bubble here from markup React does not own; the buttons inside are focusable.
    // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: delegation only
    <div
      ref={ref}
      className={className}
      onClick={
        onCitation
          ? (event) => {
              const button = (event.target as HTMLElement).closest<HTMLElement>('[data-citation]');
              if (button) onCitation(Number(button.dataset.citation), button);
            }
          : undefined
      }
    />
  );
}
