// Renders message HTML after DOMPurify has cleaned it; the only place message markup reaches the DOM.
// A mention chip of the reader (`meId`) is marked so a person sees at once where they were called, and
// an agent's [n] markers become footnote buttons when the answer cites a passage n. While DOMPurify is
// still loading (decision 0067), a message that needs it shows its text alone, paragraph by paragraph.
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useDeferredModule } from '../../app/deferred-module.ts';
import { afterFirstRows } from '../../first-screen/rows-painted.ts';
import { type CitationRef, markCitations } from './citation-markers.ts';
import {
  htmlToText,
  loadSanitizer,
  messageSanitizer,
  plainParagraphTexts,
  renderMessageHtml,
} from './message-html.ts';

// Ready before the first message that needs it, wherever it can wait until after a channel's first rows.
if (typeof window !== 'undefined') afterFirstRows(loadSanitizer);

/** The text of `html` as paragraphs built from text alone: nothing in it is read as markup. */
function textParagraphs(html: string): HTMLParagraphElement[] {
  return htmlToText(html).split('\n').map(paragraph);
}

function paragraph(text: string): HTMLParagraphElement {
  const p = document.createElement('p');
  p.textContent = text;
  return p;
}

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
  const ready = useDeferredModule(messageSanitizer) !== undefined;
  // Most messages are paragraphs of text alone: drawn from their texts, without a sanitiser or a parse.
  const plain = useMemo(() => plainParagraphTexts(html), [html]);
  const clean = useMemo(() => (plain ? html : ready ? renderMessageHtml(html) : null), [html, plain, ready]);
  useEffect(() => {
    if (clean === null) loadSanitizer();
  }, [clean]);
  const ref = useRef<HTMLDivElement>(null);
  // A string, so that a new array with the same passages (every store update) changes nothing.
  const citationKey = JSON.stringify(citations?.map((c) => [c.index, c.title]) ?? []);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (clean === null) {
      el.replaceChildren(...textParagraphs(html));
      return;
    }
    if (plain) el.replaceChildren(...plain.map(paragraph));
    else el.innerHTML = clean;
    // A plain message has no markup, so no mention chip to mark.
    if (meId && !plain) {
      for (const chip of el.querySelectorAll<HTMLElement>('span.mention[data-id]')) {
        if (chip.dataset.id === meId) chip.classList.add('mention-me');
      }
    }
    const refs = (JSON.parse(citationKey) as [number, string][]).map(([index, title]) => ({ index, title }));
    if (refs.length) markCitations(el, refs);
  }, [clean, plain, html, meId, citationKey]);
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
