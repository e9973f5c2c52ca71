// Renders message HTML after DOMPurify has cleaned it; the only place message markup reaches the DOM.
import { useLayoutEffect, useMemo, useRef } from 'react';
import { renderMessageHtml } from './message-html.ts';

export function SanitizedHtml({ html, className }: { html: string; className?: string }) {
  const clean = useMemo(() => renderMessageHtml(html), [html]);
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (ref.current) ref.current.innerHTML = clean;
  }, [clean]);
  return <div ref={ref} className={className} />;
}
