// Renders message HTML after DOMPurify has cleaned it; the only place message markup reaches the DOM.
// A mention chip of the reader (`meId`) is marked so a person sees at once where they were called.
import { useLayoutEffect, useMemo, useRef } from 'react';
import { renderMessageHtml } from './message-html.ts';

export function SanitizedHtml({
  html,
  className,
  meId,
}: {
  html: string;
  className?: string;
  meId?: string;
}) {
  const clean = useMemo(() => renderMessageHtml(html), [html]);
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.innerHTML = clean;
    if (meId) {
      for (const chip of el.querySelectorAll<HTMLElement>('span.mention[data-id]')) {
        if (chip.dataset.id === meId) chip.classList.add('mention-me');
      }
    }
  }, [clean, meId]);
  return <div ref={ref} className={className} />;
}
