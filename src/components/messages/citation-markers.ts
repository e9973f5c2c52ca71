// An agent's answer refers to its sources as [n] (or [1][2], [1, 2]); in the rendered body each n that
// the answer cites becomes a superscript footnote button. Runs on sanitised DOM, after innerHTML: the
// buttons are made here, never from message markup. Code, links and mention chips are left alone.
export interface CitationRef {
  index: number;
  title: string;
}

const MARKER = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;
const SKIP = 'code, pre, a, .mention, button';

/** The numbered chip of a footnote, in the text and in the Sources list. */
export const CITATION_CHIP_CLASS =
  'mx-px inline-flex h-[15px] min-w-[15px] shrink-0 items-center justify-center rounded-full bg-violet-500/20 px-1 text-[10px] leading-none font-semibold text-violet-700 tabular-nums dark:bg-violet-400/25 dark:text-violet-200';
const MARKER_BUTTON_CLASS = `${CITATION_CHIP_CLASS} -translate-y-[3px] cursor-pointer align-baseline hover:bg-violet-500/35`;

export function markCitations(root: HTMLElement, citations: readonly CitationRef[]): void {
  const byIndex = new Map(citations.map((c) => [c.index, c]));
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node as Text;
    if (text.parentElement?.closest(SKIP)) continue;
    if (text.data.includes('[')) texts.push(text);
  }
  for (const text of texts) replaceMarkers(text, byIndex);
}

function replaceMarkers(text: Text, byIndex: ReadonlyMap<number, CitationRef>): void {
  const doc = text.ownerDocument;
  const data = text.data;
  const fragment = doc.createDocumentFragment();
  let last = 0;
  let changed = false;
  for (const match of data.matchAll(MARKER)) {
    const numbers = (match[1] ?? '').split(',').map((n) => Number(n.trim()));
    // Only markers whose every number is a cited passage: "[2024]" in prose stays text.
    if (!numbers.every((n) => byIndex.has(n))) continue;
    changed = true;
    // "done [1]." reads as "done¹.": the footnote sits against the word it qualifies.
    fragment.append(data.slice(last, match.index).replace(/\s+$/, ''));
    const sup = doc.createElement('sup');
    sup.className = 'citation';
    for (const n of numbers) {
      const citation = byIndex.get(n);
      const button = doc.createElement('button');
      button.type = 'button';
      button.className = MARKER_BUTTON_CLASS;
      button.dataset.citation = String(n);
      button.textContent = String(n);
      button.setAttribute('aria-label', `Source ${n}: ${citation?.title ?? ''}`);
      sup.append(button);
    }
    fragment.append(sup);
    last = (match.index ?? 0) + match[0].length;
  }
  if (!changed) return;
  fragment.append(data.slice(last));
  text.replaceWith(fragment);
}
