// Splits a document's text into overlapping passages of about 800 characters, cut at paragraph, sentence
// or word boundaries where possible, so a retrieved passage reads as a whole and a fact on a boundary is
// still found in one piece.
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

export function splitIntoChunks(raw: string, size = CHUNK_SIZE, overlap = CHUNK_OVERLAP): string[] {
  const text = normalizeText(raw);
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
