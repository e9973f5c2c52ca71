// Splits a document's text into passages that follow its structure: one passage per paragraph, the heading of
// its section in front of it, so a retrieved passage reads as a whole and never mixes unrelated sections.
// Only a paragraph longer than about 800 characters is cut further, into overlapping windows ended at
// sentence or word boundaries, so a fact on a boundary is still found in one piece.
export const CHUNK_SIZE = 800;
export const CHUNK_OVERLAP = 150;

export function normalizeText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\f\v]+/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Where to end a chunk that starts at `start`: the last good boundary before start + size. */
function cutPoint(text: string, start: number, size: number): number {
  const hardEnd = start + size;
  if (hardEnd >= text.length) return text.length;
  const window = text.slice(start, hardEnd);
  const minimum = Math.floor(size / 2);
  for (const boundary of ['\n\n', '. ', '\n', ' ']) {
    const at = window.lastIndexOf(boundary);
    if (at >= minimum) return start + at + boundary.length;
  }
  return hardEnd;
}

/** A Markdown heading, or a short single line without closing punctuation: it names the section below it. */
function isHeading(line: string): boolean {
  return !line.includes('\n') && (/^#{1,6} /.test(line) || (line.length <= 80 && !/[.!?:;,)]$/.test(line)));
}

/** A block's leading Markdown heading line split from the text under it ("# Travel\nTaxis …"). */
function blocksOf(text: string): string[] {
  return text.split(/\n\s*\n/).flatMap((block) => {
    const trimmed = block.trim();
    const heading = /^(#{1,6} [^\n]*)\n([\s\S]*)$/.exec(trimmed);
    return heading ? [heading[1] ?? '', (heading[2] ?? '').trim()] : [trimmed];
  });
}

/** Passages of a document: its paragraphs, each under its section's heading; long ones windowed. */
export function splitIntoChunks(raw: string, size = CHUNK_SIZE, overlap = CHUNK_OVERLAP): string[] {
  const chunks: string[] = [];
  let heading = '';
  let headingUsed = true;
  for (const paragraph of blocksOf(normalizeText(raw))) {
    if (!paragraph) continue;
    if (isHeading(paragraph)) {
      // Two headings in a row: the first named an empty section; keep it only if nothing used it.
      if (!headingUsed) chunks.push(heading);
      heading = paragraph.replace(/^#{1,6} /, '');
      headingUsed = false;
      continue;
    }
    const prefix = heading && heading.length < size / 4 ? `${heading}\n` : '';
    for (const window of windows(paragraph, size - prefix.length, overlap)) chunks.push(prefix + window);
    headingUsed = true;
  }
  if (!headingUsed) chunks.push(heading);
  return chunks;
}

/** A paragraph cut into overlapping windows of about `size` characters (one window when it fits). */
function windows(text: string, size: number, overlap: number): string[] {
  const chunks: string[] = [];
  let start = 0;
  while (start < text.length) {
    const end = cutPoint(text, start, size);
    const chunk = text.slice(start, end).trim();
    if (chunk) chunks.push(chunk);
    if (end >= text.length) break;
    // Step back by the overlap, then forward to a word start so no chunk begins mid-word.
    let next = Math.max(end - overlap, start + 1);
    const space = text.indexOf(' ', next);
    if (space !== -1 && space < end) next = space + 1;
    start = next;
  }
  return chunks;
}
