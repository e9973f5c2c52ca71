// The passages an agent's answer cites: a "Sources" footnote list under the answer, and the passage itself
// in a small dialog opened from a footnote marker in the text or from the list.
import { BookOpen, FileText } from 'lucide-react';
import type { AgentCitation } from '../../../schemas/protocol/index.ts';
import { Dialog } from '../ui/dialog.tsx';
import { CITATION_CHIP_CLASS } from './citation-markers.ts';

export function SourcesList({
  citations,
  onOpen,
  excerpts = true,
}: {
  citations: readonly AgentCitation[];
  onOpen: (index: number) => void;
  /** False when the answer's text already quotes every passage: the list then names the sources only. */
  excerpts?: boolean;
}) {
  const sorted = [...citations].sort((a, b) => a.index - b.index);
  return (
    <section aria-label="Sources" className="mt-2 max-w-xl border-t border-line pt-1.5" data-testid="sources">
      {/* Not a heading: a message's parts sit under whatever heading the page has (Lighthouse heading order). */}
      <p className="flex items-center gap-1 text-[11px] font-semibold tracking-wide text-muted uppercase">
        <BookOpen className="size-3" aria-hidden />
        Sources
      </p>
      <ol className="mt-0.5 flex flex-col">
        {sorted.map((c) => (
          <li key={c.index}>
            <button
              type="button"
              onClick={() => onOpen(c.index)}
              className="-mx-1 flex w-[calc(100%+0.5rem)] min-w-0 items-baseline gap-1.5 rounded px-1 py-0.5 text-left text-[12.5px] hover:bg-hover"
              // The name holds all the visible text, number, title and passage (WCAG 2.5.3, label in name);
              // the spaces (no width in the flex row) keep those words apart.
              aria-label={`Source ${c.index}: ${c.title}${excerpts ? ` ${c.passage}` : ''}`}
            >
              <span className={CITATION_CHIP_CLASS} aria-hidden>
                {c.index}
              </span>{' '}
              <span className="shrink-0 font-medium">{c.title}</span>{' '}
              {excerpts ? <span className="min-w-0 truncate text-muted">{c.passage}</span> : null}
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}

export function PassageDialog({
  citation,
  onClose,
}: {
  citation: AgentCitation | null;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={citation !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={citation?.title ?? 'Source'}
      description={citation ? `Source ${citation.index} · the passage this answer used` : undefined}
      className="max-w-lg"
    >
      {citation ? (
        <figure data-testid="passage">
          <blockquote className="max-h-[50vh] overflow-y-auto rounded-md border-l-[3px] border-violet-500/60 bg-surface-2 px-3 py-2 text-[13.5px] leading-relaxed whitespace-pre-wrap">
            {citation.passage}
          </blockquote>
          <figcaption className="mt-2 flex items-center gap-1.5 text-[12px] text-muted">
            <FileText className="size-3.5" aria-hidden />
            {citation.title}
          </figcaption>
        </figure>
      ) : null}
    </Dialog>
  );
}
